import type { PreAuthenticationTriggerEvent } from 'aws-lambda';
import { dynamoDocumentClient } from '../../core/clients';
import { readEnv } from '../../core/env';
import { readSwitches } from '../../../shared/switches';
import { createAccountsRepo } from '../accounts.repo';
import { preAuthentication } from '../login';

/** Cognito PreAuthentication trigger: refuses blocked accounts (password login only). */
export async function handler(
  event: PreAuthenticationTriggerEvent,
): Promise<PreAuthenticationTriggerEvent> {
  const env = readEnv();
  return preAuthentication(
    {
      repo: createAccountsRepo({ doc: dynamoDocumentClient(env), tableName: env.tableName }),
      passwordLogin: readSwitches(process.env).passwordLogin,
    },
    event,
  );
}
