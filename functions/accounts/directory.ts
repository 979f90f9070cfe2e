import { dynamoDocumentClient } from '../core/clients';
import { readEnv } from '../core/env';
import { createAccountsRepo, readGuardOwner } from './accounts.repo';

/**
 * What other domains may ask the accounts domain (they call this, never its repo): the user id
 * that owns a nick (one GetItem of the NICK# guard item, never a Scan), a user's private contact
 * fields (e-mail, phone), for the owner's own profile view, and support's accounts.
 */
export interface AccountsDirectory {
  userIdByNick(nick: string): Promise<string | undefined>;
  contactOf(userId: string): Promise<{ email: string; phone: string } | undefined>;
  /**
   * Support: the accounts of the deployment's admin e-mails (ADMIN_EMAILS) that exist (one GetItem
   * of each e-mail's guard item), to tell them what needs a person (a disputed payment).
   */
  supportUserIds(): Promise<string[]>;
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
    async supportUserIds() {
      const owners = await Promise.all(
        env.adminEmails.map((email) => readGuardOwner(deps, 'email', email.trim().toLowerCase())),
      );
      return [...new Set(owners.filter((owner): owner is string => owner !== undefined))];
    },
  };
}
