import { dynamoDocumentClient } from '../core/clients';
import { readEnv } from '../core/env';
import { createAccountsRepo, readGuardOwner } from './accounts.repo';

/**
 * What other domains may ask the accounts domain (they call this, never its repo): the user id
 * that owns a nick (one GetItem of the NICK# guard item, never a Scan) and a user's private
 * contact fields (e-mail, phone), for the owner's own profile view.
 */
export interface AccountsDirectory {
  userIdByNick(nick: string): Promise<string | undefined>;
  contactOf(userId: string): Promise<{ email: string; phone: string } | undefined>;
}

export function accountsDirectory(): AccountsDirectory {
  const env = readEnv();
  const deps = { doc: dynamoDocumentClient(env), tableName: env.tableName };
  const repo = createAccountsRepo(deps);
  return {
    userIdByNick: (nick) => readGuardOwner(deps, 'nick', nick.trim().toLowerCase()),
    async contactOf(userId) {
      const account = await repo.getAccount(userId);
      return account === undefined ? undefined : { email: account.email, phone: account.phone };
    },
  };
}
