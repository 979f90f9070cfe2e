import { ACCOUNT_TYPE, accountKey, GUARD_TYPE, guardKey } from '../accounts.keys';
import type { AccountRecord } from '../accounts.repo';

export type { AccountRecord };

/**
 * For the dev seed (infra/local/seed.ts): the items a sign-up writes for an account (the account
 * and its nick, e-mail and phone guards), as plain puts, so a seeded user is found by nick and
 * their nick, e-mail and phone are taken. A re-seed overwrites them with the same values.
 */
export function accountSeedItems(TableName: string, account: AccountRecord) {
  const guards = (['nick', 'email', 'phone'] as const).map((field) => ({
    Put: {
      TableName,
      Item: { ...guardKey(field, account[field]), type: GUARD_TYPE, field, userId: account.id },
    },
  }));
  return [
    ...guards,
    { Put: { TableName, Item: { ...accountKey(account.id), type: ACCOUNT_TYPE, ...account } } },
  ];
}
