import { cognitoClient, dynamoDocumentClient } from '../core/clients';
import { readEnv } from '../core/env';
import { newId } from '../core/ids';
import { readSwitches } from '../../shared/switches';
import { createAccountsRepo, type AccountsRepo } from './accounts.repo';
import { createCognitoDirectory } from './identity';
import type { RegisterDeps } from './register';

export function accountsRepo(): AccountsRepo {
  const env = readEnv();
  return createAccountsRepo({ doc: dynamoDocumentClient(env), tableName: env.tableName });
}

/** Sign-up's real dependencies, from the environment. */
export function registerDeps(): RegisterDeps {
  const env = readEnv();
  return {
    repo: accountsRepo(),
    identity: createCognitoDirectory({ client: cognitoClient(env), userPoolId: env.userPoolId }),
    adminEmails: env.adminEmails,
    newId,
    // Read at call time, like every switch of the functions (FEATURE_PASSWORD_LOGIN).
    passwordLogin: readSwitches(process.env).passwordLogin,
  };
}
