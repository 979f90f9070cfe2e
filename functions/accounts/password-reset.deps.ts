import type { ZodType } from 'zod';
import { cognitoClient, dynamoDocumentClient, sesClient } from '../core/clients';
import { readEnv } from '../core/env';
import { DomainError } from '../core/errors';
import { fieldErrors } from '../core/http';
import { readSwitches } from '../../shared/switches';
import { logout } from './sessions';
import { sessionsDeps } from './sessions.deps';
import { createPasswordResetStore } from './accounts.repo';
import { createCognitoDirectory } from './identity';
import { createResetMailer } from './messages';
import type { PasswordResetDeps } from './password-reset';

/** Password recovery's real dependencies, from the environment (switch read at call time). */
export function passwordResetDeps(): PasswordResetDeps {
  const env = readEnv();
  return {
    store: createPasswordResetStore({ doc: dynamoDocumentClient(env), tableName: env.tableName }),
    identity: createCognitoDirectory({ client: cognitoClient(env), userPoolId: env.userPoolId }),
    mailer: createResetMailer({ ses: sesClient(env), emailSender: env.emailSender }),
    revokeSessions: async (userId, now) => {
      await logout(sessionsDeps(), userId, now);
    },
    webOrigin: env.webOrigin,
    passwordLogin: readSwitches(process.env).passwordLogin,
  };
}

/**
 * Validation inside the call, after the switch check: while the switch is off both routes answer
 * 404 `not_found` whatever the request (the middleware would answer 400 first).
 */
export function parseInput<T>(schema: ZodType<T>, value: unknown, part: 'path' | 'body'): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new DomainError('invalid_request', {
    message: `The request ${part} is not valid.`,
    fields: fieldErrors(result.error),
  });
}

/** The JSON body of an event (400 `invalid_json` when it is not JSON). */
export function jsonBody(event: { body?: string | undefined; isBase64Encoded?: boolean }): unknown {
  if (event.body === undefined || event.body === '') return undefined;
  const text = event.isBase64Encoded
    ? Buffer.from(event.body, 'base64').toString('utf8')
    : event.body;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new DomainError('invalid_json', { message: 'The request body is not valid JSON.' });
  }
}
