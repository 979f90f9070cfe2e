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
import type { PinSender, ResetMailer } from './messages';
import type { IdentityDirectory } from './identity';

/** In-memory AccountsRepo with the same semantics as the DynamoDB one, for unit tests. */
export function fakeAccountsRepo() {
  const accounts = new Map<string, AccountRecord>();
  const guards = new Map<string, string>();
  const idempotency = new Map<string, IdempotencyRecord>();
  const profiles = new Map<string, Record<string, unknown>>();
  const pins = new Map<string, PinRecord>();
  const failures = new Map<string, number>();
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
    async recordFailure({ challengeId, userName, hourBucket }) {
      calls.push('recordFailure');
      const key = `${userName.toLowerCase()}|${hourBucket}`;
      failures.set(key, (failures.get(key) ?? 0) + 1);
      const pin = challengeId === undefined ? undefined : pins.get(challengeId);
      if (pin !== undefined) pin.tries += 1;
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
    async countFailures(userName, { previous, current }) {
      calls.push('countFailures');
      const name = userName.toLowerCase();
      return (failures.get(`${name}|${previous}`) ?? 0) + (failures.get(`${name}|${current}`) ?? 0);
    },
  };
  return { repo, accounts, guards, idempotency, profiles, pins, failures, calls };
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
