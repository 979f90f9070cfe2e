import { dynamoDocumentClient, sesClient, snsClient } from '../core/clients';
import { readEnv } from '../core/env';
import { systemClock } from '../core/clock';
import { createAccountsRepo } from './accounts.repo';
import type { LoginDeps } from './login';
import { createPinSender } from './messages';

/** A decoy challenge and a real one both answer after at least this long (see LoginDeps). */
export const CREATE_MIN_MS = 300;

/** The triggers' real dependencies, from the environment. */
export function loginDeps(): LoginDeps {
  const env = readEnv();
  return {
    repo: createAccountsRepo({ doc: dynamoDocumentClient(env), tableName: env.tableName }),
    sender: createPinSender({
      ses: sesClient(env),
      sns: snsClient(env),
      emailSender: env.emailSender,
    }),
    now: () => systemClock.now(),
    createMinMs: CREATE_MIN_MS,
  };
}
