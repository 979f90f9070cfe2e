import { describe, expect, it } from 'vitest';
import { DomainError } from '../core/errors';
import type { AccountRecord } from './accounts.repo';
import { fakeIdentity, fakePasswordResetStore, fakeResetMailer } from './accounts.fake';
import {
  hashToken,
  hourBucket,
  requestPasswordReset,
  resetLink,
  resetPassword,
  RESET_RULES,
  TOKEN_PATTERN,
  type PasswordResetDeps,
} from './password-reset';

const NOW = new Date('2026-11-22T10:00:00.000Z');
const TOKEN = 'A'.repeat(43);
const ACCOUNT: AccountRecord = {
  id: '01JUSER0000000000000000001',
  nick: 'marta',
  email: 'marta@example.com',
  phone: '+34600123456',
  user_option: 'individual',
  email_verified: true,
  phone_verified: true,
  blocked: false,
  is_admin: false,
  created_at: NOW.toISOString(),
};

async function setup(options: { passwordLogin?: boolean; failPasswordWith?: Error } = {}) {
  const store = fakePasswordResetStore([ACCOUNT]);
  const idp = fakeIdentity(
    options.failPasswordWith === undefined ? {} : { failPasswordWith: options.failPasswordWith },
  );
  await idp.identity.createUser({
    username: ACCOUNT.id,
    email: ACCOUNT.email,
    phone: '',
    nick: '',
  });
  const mail = fakeResetMailer();
  const revoked: string[] = [];
  let counter = 0;
  const deps: PasswordResetDeps = {
    store: store.store,
    identity: idp.identity,
    mailer: mail.mailer,
    revokeSessions: async (userId) => {
      revoked.push(userId);
    },
    webOrigin: 'https://market.example.com/',
    passwordLogin: options.passwordLogin ?? true,
    minMs: 0,
    newToken: () => `${String((counter += 1)).padStart(43, 'T')}`,
  };
  return { deps, store, idp, mail, revoked };
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
}

describe('password-reset rules', () => {
  it('builds the link on the web origin, hashes tokens, buckets by hour', () => {
    expect(resetLink('https://m.example/', 'abc')).toBe('https://m.example/password/reset/abc');
    expect(hashToken('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(hourBucket(NOW)).toBe('2026-11-22T10');
    expect(TOKEN_PATTERN.test(TOKEN)).toBe(true);
  });
});

describe('requestPasswordReset', () => {
  it('e-mails a single-use link to an account and stores only the hash, expiring in 1 h', async () => {
    const { deps, store, mail } = await setup();
    expect(await requestPasswordReset(deps, { email: 'Marta@Example.com' }, NOW)).toEqual({
      requested: true,
    });
    const token = 'T'.repeat(42) + '1';
    expect(mail.sent).toEqual([
      { to: ACCOUNT.email, link: `https://market.example.com/password/reset/${token}` },
    ]);
    expect([...store.tokens.keys()]).toEqual([hashToken(token)]);
    expect(JSON.stringify([...store.tokens.values()])).not.toContain(token);
    expect(store.tokens.get(hashToken(token))).toEqual({
      tokenHash: hashToken(token),
      userId: ACCOUNT.id,
      expiresAt: '2026-11-22T11:00:00.000Z',
      ttl: Math.ceil(Date.parse('2026-11-22T11:00:00.000Z') / 1000),
    });
  });

  it('answers the same for an unknown e-mail, sending and storing nothing', async () => {
    const { deps, store, mail } = await setup();
    expect(await requestPasswordReset(deps, { email: 'nobody@example.com' }, NOW)).toEqual({
      requested: true,
    });
    expect(mail.sent).toEqual([]);
    expect(store.tokens.size).toBe(0);
  });

  it.each([
    ['an account', ACCOUNT.email],
    ['an unknown e-mail', 'nobody@example.com'],
  ])('limits requests for %s to 5 an hour (429), alike', async (_label, email) => {
    const { deps } = await setup();
    const codes: string[] = [];
    for (let i = 0; i < RESET_RULES.maxRequestsPerHour + 1; i += 1) {
      codes.push(await codeOf(requestPasswordReset(deps, { email }, NOW)));
    }
    expect(codes).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'rate_limited']);
    const nextHour = new Date(NOW.getTime() + 3_600_000);
    expect(await codeOf(requestPasswordReset(deps, { email }, nextHour))).toBe('ok');
  });

  it('waits for the minimum answer time whatever the outcome', async () => {
    const { deps } = await setup();
    const waits: number[] = [];
    const timed = {
      ...deps,
      minMs: 300,
      elapsedSince: () => 40,
      sleep: async (ms: number) => {
        waits.push(ms);
      },
    };
    await requestPasswordReset(timed, { email: ACCOUNT.email }, NOW);
    await requestPasswordReset(timed, { email: 'nobody@example.com' }, NOW);
    expect(waits).toEqual([260, 260]);
  });
});

describe('resetPassword', () => {
  async function requested() {
    const context = await setup();
    await requestPasswordReset(context.deps, { email: ACCOUNT.email }, NOW);
    const token = context.mail.sent[0]?.link.split('/').pop() ?? '';
    return { ...context, token };
  }

  it('consumes the token, sets the password and revokes the sessions', async () => {
    const { deps, idp, revoked, token, store } = await requested();
    expect(await resetPassword(deps, { password: 'new-secret', token }, NOW)).toEqual({
      reset: true,
    });
    expect(idp.passwords.get(ACCOUNT.id)).toBe('new-secret');
    expect(revoked).toEqual([ACCOUNT.id]);
    expect(store.tokens.size).toBe(0);
  });

  it.each<[string, (token: string) => { token: string; at: Date }]>([
    ['a used token', (token) => ({ token, at: NOW })],
    ['an unknown token', () => ({ token: TOKEN, at: NOW })],
    ['a malformed token', () => ({ token: 'not a token', at: NOW })],
    ['an expired token', (token) => ({ token, at: new Date(NOW.getTime() + 3_600_000) })],
  ])('refuses %s with password.errors.token_invalid', async (label, make) => {
    const { deps, token } = await requested();
    if (label === 'a used token') await resetPassword(deps, { password: 'first-1', token }, NOW);
    const { token: used, at } = make(token);
    expect(await codeOf(resetPassword(deps, { password: 'new-secret', token: used }, at))).toBe(
      'password.errors.token_invalid',
    );
  });

  it('lets exactly one of two concurrent resets with one token succeed', async () => {
    const { deps, token } = await requested();
    const codes = await Promise.all(
      ['one-secret', 'two-secret'].map((password) =>
        codeOf(resetPassword(deps, { password, token }, NOW)),
      ),
    );
    expect(codes.sort()).toEqual(['ok', 'password.errors.token_invalid']);
  });

  it('answers 503 when Cognito fails (the token is spent; sessions untouched)', async () => {
    const context = await setup({ failPasswordWith: new Error('boom') });
    await requestPasswordReset(context.deps, { email: ACCOUNT.email }, NOW);
    const token = context.mail.sent[0]?.link.split('/').pop() ?? '';
    expect(await codeOf(resetPassword(context.deps, { password: 'new-secret', token }, NOW))).toBe(
      'unavailable',
    );
    expect(context.revoked).toEqual([]);
  });
});

describe('the passwordLogin switch', () => {
  it('answers not_found for both calls while it is off', async () => {
    const { deps, mail } = await setup({ passwordLogin: false });
    expect(await codeOf(requestPasswordReset(deps, { email: ACCOUNT.email }, NOW))).toBe(
      'not_found',
    );
    expect(await codeOf(resetPassword(deps, { password: 'new-secret', token: TOKEN }, NOW))).toBe(
      'not_found',
    );
    expect(mail.sent).toEqual([]);
  });
});
