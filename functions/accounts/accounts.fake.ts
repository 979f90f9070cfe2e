import { DomainError } from '../core/errors';
import { TAKEN_CODES, UNIQUE_FIELDS, type UniqueField } from '../../shared/schemas/accounts';
import type {
  AccountRecord,
  AccountsRepo,
  CreateAccountInput,
  IdempotencyRecord,
  PasswordResetStore,
  ResetTokenRecord,
} from './accounts.repo';
import type { PinRecord } from './pins';
import { failureCountOf } from './accounts.repo';
import {
  loginFailuresKey,
  loginPairFailuresKey,
  loginPairFailuresSortKey,
  loginTrustedSourceKey,
  sourceFailuresKey,
  type Key,
} from './accounts.keys';
import type { PinSender, ResetMailer } from './messages';
import type { IdentityDirectory } from './identity';

/** In-memory AccountsRepo with the same semantics as the DynamoDB one, for unit tests. */
export function fakeAccountsRepo() {
  const accounts = new Map<string, AccountRecord>();
  const guards = new Map<string, string>();
  const idempotency = new Map<string, IdempotencyRecord>();
  const profiles = new Map<string, Record<string, unknown>>();
  const pins = new Map<string, PinRecord>();
  /** Failure counter items by `pk|sk`, as the table holds them. */
  const failures = new Map<string, { pk: string; sk: string; count: number; lastAt: string }>();
  /** Trusted sources: `pk|sk` → until. */
  const trusted = new Map<string, string>();
  const itemKey = (key: Key) => `${key.pk}|${key.sk}`;
  const bump = (key: Key, at: string) => {
    const item = failures.get(itemKey(key));
    failures.set(itemKey(key), {
      ...key,
      count: (item?.count ?? 0) + 1,
      lastAt: item === undefined || at > item.lastAt ? at : item.lastAt,
    });
  };
  const items = (keys: Key[]) =>
    keys.flatMap((key) => {
      const item = failures.get(itemKey(key));
      return item === undefined ? [] : [item];
    });
  const calls: string[] = [];
  const guard = (field: UniqueField, value: string) => `${field}#${value}`;

  const repo: AccountsRepo = {
    async createAccount({ account, profileItem, idempotency: idem }: CreateAccountInput) {
      calls.push('createAccount');
      if (idem !== undefined && idempotency.has(idem.key)) return { status: 'replay' };
      const taken = UNIQUE_FIELDS.filter((field) => guards.has(guard(field, account[field])));
      if (taken.length > 0) {
        throw new DomainError('users.errors.taken', {
          fields: Object.fromEntries(taken.map((field) => [field, TAKEN_CODES[field]])),
        });
      }
      for (const field of UNIQUE_FIELDS) guards.set(guard(field, account[field]), account.id);
      accounts.set(account.id, { ...account });
      profiles.set(account.id, { ...profileItem });
      if (idem !== undefined) {
        idempotency.set(idem.key, { fingerprint: idem.fingerprint, result: idem.result });
      }
      return { status: 'created' };
    },
    async removeAccount(account, key) {
      calls.push('removeAccount');
      for (const field of UNIQUE_FIELDS) {
        if (guards.get(guard(field, account[field])) === account.id) {
          guards.delete(guard(field, account[field]));
        }
      }
      accounts.delete(account.id);
      profiles.delete(account.id);
      if (key !== undefined) idempotency.delete(key);
    },
    async getIdempotency(key) {
      calls.push('getIdempotency');
      return idempotency.get(key);
    },
    async isTaken(field, value) {
      calls.push('isTaken');
      return guards.has(guard(field, value));
    },
    async getAccount(userId) {
      calls.push('getAccount');
      const account = accounts.get(userId);
      return account === undefined ? undefined : { ...account };
    },
    async getPin(challengeId) {
      calls.push('getPin');
      const pin = pins.get(challengeId);
      return pin === undefined ? undefined : { ...pin };
    },
    async putPin(record) {
      calls.push('putPin');
      pins.set(record.challengeId, { ...record });
    },
    async recordFailure({ challengeId, userName, source, hourBucket, at }) {
      calls.push('recordFailure');
      bump(loginFailuresKey(userName, hourBucket), at);
      if (source !== undefined) {
        bump(sourceFailuresKey(source, hourBucket), at);
        bump(loginPairFailuresKey(userName, source, hourBucket), at);
      }
      const pin = challengeId === undefined ? undefined : pins.get(challengeId);
      if (pin !== undefined) pin.tries += 1;
    },
    async readThrottle({ userName, source, buckets, now }) {
      calls.push('readThrottle');
      const hours = [buckets.previous, buckets.current];
      const account = failureCountOf(
        items(hours.map((hour) => loginFailuresKey(userName, hour))),
        buckets,
      );
      if (source === undefined) return { account, trusted: false };
      const until = trusted.get(itemKey(loginTrustedSourceKey(userName, source)));
      return {
        account,
        pair: failureCountOf(
          items(hours.map((hour) => loginPairFailuresKey(userName, source, hour))),
          {
            previous: loginPairFailuresSortKey(source, buckets.previous),
            current: loginPairFailuresSortKey(source, buckets.current),
          },
        ),
        source: failureCountOf(
          items(hours.map((hour) => sourceFailuresKey(source, hour))),
          buckets,
        ),
        trusted: until !== undefined && Date.parse(until) > now.getTime(),
      };
    },
    async trustSource({ userName, source, until }) {
      calls.push('trustSource');
      trusted.set(itemKey(loginTrustedSourceKey(userName, source)), until);
    },
    async retirePin(challengeId) {
      calls.push('retirePin');
      const pin = pins.get(challengeId);
      if (pin !== undefined) pin.retired = true;
    },
    async consumePin({ challengeId, userId, step, profile }) {
      calls.push('consumePin');
      const pin = pins.get(challengeId);
      const account = accounts.get(userId);
      if (pin === undefined || pin.used || pin.retired || pin.tries >= 5 || pin.decoy) return false;
      if (account === undefined) return false;
      pin.used = true;
      if (step === 'email') account.email_verified = true;
      else account.phone_verified = true;
      if (profile !== undefined) {
        const stored = profiles.get(userId);
        if (stored === undefined) return false;
        stored.is_verified = profile.ExpressionAttributeValues[':verified'];
      }
      return true;
    },
  };
  return { repo, accounts, guards, idempotency, profiles, pins, failures, trusted, calls };
}

export function fakePinSender() {
  const sent: { kind: 'email' | 'sms'; to: string; pin: string }[] = [];
  const sender: PinSender = {
    async sendEmailPin({ to, pin }) {
      sent.push({ kind: 'email', to, pin });
    },
    async sendSmsPin({ to, pin }) {
      sent.push({ kind: 'sms', to, pin });
    },
  };
  return { sender, sent };
}

export function fakeIdentity(options: { failWith?: Error; failPasswordWith?: Error } = {}) {
  const users = new Map<string, { email: string; phone: string; groups: string[] }>();
  /** username → the password set (test double only; the real pool keeps a hash). */
  const passwords = new Map<string, string>();
  const identity: IdentityDirectory = {
    async createUser({ username, email, phone }) {
      if (options.failWith !== undefined) throw options.failWith;
      if (!users.has(username)) users.set(username, { email, phone, groups: [] });
    },
    async addToGroup({ username, group }) {
      users.get(username)?.groups.push(group);
    },
    async setPassword({ username, password }) {
      if (options.failPasswordWith !== undefined) throw options.failPasswordWith;
      if (!users.has(username))
        throw Object.assign(new Error('User does not exist.'), { name: 'UserNotFoundException' });
      passwords.set(username, password);
    },
  };
  return { identity, users, passwords };
}

/** In-memory PasswordResetStore with the DynamoDB one's semantics (conditional delete). */
export function fakePasswordResetStore(accounts: AccountRecord[] = []) {
  const byId = new Map(accounts.map((account) => [account.id, account]));
  const owners = new Map(accounts.map((account) => [account.email, account.id]));
  const tokens = new Map<string, ResetTokenRecord>();
  const counters = new Map<string, number>();
  const store: PasswordResetStore = {
    async emailOwner(email) {
      return owners.get(email);
    },
    async getAccount(userId) {
      return byId.get(userId);
    },
    async countRequest({ email, hourBucket }) {
      const key = `${email}#${hourBucket}`;
      const count = (counters.get(key) ?? 0) + 1;
      counters.set(key, count);
      return count;
    },
    async putToken(record) {
      tokens.set(record.tokenHash, { ...record });
    },
    async consumeToken(tokenHash, now) {
      const record = tokens.get(tokenHash);
      if (record === undefined || record.expiresAt <= now.toISOString()) return undefined;
      tokens.delete(tokenHash);
      return record.userId;
    },
  };
  return { store, tokens, counters };
}

export function fakeResetMailer() {
  const sent: { to: string; link: string }[] = [];
  const mailer: ResetMailer = {
    async sendResetLink(message) {
      sent.push(message);
    },
  };
  return { mailer, sent };
}
