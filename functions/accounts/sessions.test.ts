import { describe, expect, it } from 'vitest';
import type { AccountStatus } from './accounts.repo';
import { DomainError } from '../core/errors';
import {
  blockUser,
  createSessionCheck,
  logout,
  sessionView,
  unblockUser,
  type SessionsDeps,
} from './sessions';
import { sessionVerdict, tokenSignInSeconds } from './sessions.rules';

const NOW = new Date('2026-11-22T09:00:00.500Z');
const seconds = (iso: string) => Date.parse(iso) / 1000;

function fakes(initial: Record<string, AccountStatus> = {}) {
  const accounts = new Map(Object.entries(initial));
  const calls: string[] = [];
  const deps: SessionsDeps = {
    store: {
      async status(userId) {
        return accounts.get(userId);
      },
      async revokeSessions(userId, at) {
        calls.push(`revoke ${userId}`);
        const account = accounts.get(userId);
        if (account === undefined) return false;
        accounts.set(userId, { ...account, sessionsRevokedAt: at });
        return true;
      },
      async setBlocked(userId, blocked, at) {
        calls.push(`${blocked ? 'block' : 'unblock'} ${userId}`);
        const account = accounts.get(userId);
        if (account === undefined) return false;
        accounts.set(userId, {
          blocked,
          sessionsRevokedAt: blocked ? at : account.sessionsRevokedAt,
        });
        return true;
      },
    },
    live: {
      async closeUserConnections(userId) {
        calls.push(`live close ${userId}`);
      },
    },
    directory: {
      async globalSignOut(userId) {
        calls.push(`cognito signout ${userId}`);
      },
      async disableUser(userId) {
        calls.push(`cognito disable ${userId}`);
      },
      async enableUser(userId) {
        calls.push(`cognito enable ${userId}`);
      },
    },
  };
  return { deps, accounts, calls };
}

const active: AccountStatus = { blocked: false, sessionsRevokedAt: undefined };

describe('sessionVerdict (the per-call rule)', () => {
  const revoked: AccountStatus = { blocked: false, sessionsRevokedAt: NOW.toISOString() };
  it.each([
    ['no account', undefined, { auth_time: '1' }, 'unauthenticated'],
    ['active, never logged out', active, { auth_time: '1' }, 'ok'],
    ['blocked', { blocked: true, sessionsRevokedAt: undefined }, { auth_time: '1' }, '403'],
    ['blocked beats revoked', { blocked: true, sessionsRevokedAt: NOW.toISOString() }, {}, '403'],
    ['signed in before logout', revoked, { auth_time: seconds('2026-11-22T08:59:59Z') }, '401'],
    ['signed in the same second', revoked, { auth_time: seconds('2026-11-22T09:00:00Z') }, '401'],
    ['signed in after logout', revoked, { auth_time: seconds('2026-11-22T09:00:01Z') }, 'ok'],
    ['string claims (API Gateway)', revoked, { auth_time: '1795338001' }, 'ok'],
    ['iat when no auth_time', revoked, { iat: seconds('2026-11-22T08:00:00Z') }, '401'],
    ['no time claim at all', revoked, {}, '401'],
  ] as const)('%s → %s', (_name, status, claims, expected) => {
    const verdict = sessionVerdict(status, claims);
    const code = verdict.ok
      ? 'ok'
      : verdict.code === 'login.errors.403'
        ? '403'
        : verdict.code === 'unauthenticated' && status !== undefined
          ? '401'
          : verdict.code;
    expect(code).toBe(expected);
  });

  it('prefers auth_time (the sign-in) over iat (a refreshed token keeps auth_time)', () => {
    expect(tokenSignInSeconds({ auth_time: '100', iat: '200' })).toBe(100);
    expect(tokenSignInSeconds({ iat: 200 })).toBe(200);
    expect(tokenSignInSeconds({ auth_time: 'x' })).toBeUndefined();
  });
});

describe('createSessionCheck', () => {
  const auth = (userId: string, authTime: number) => ({
    userId,
    email: undefined,
    groups: [],
    claims: { username: userId, auth_time: String(authTime) },
  });

  it('reads the account once per call and throws the verdict as a DomainError', async () => {
    const reads: string[] = [];
    const statuses: Record<string, AccountStatus> = {
      A: active,
      B: { blocked: true, sessionsRevokedAt: undefined },
    };
    const check = createSessionCheck(async (userId) => {
      reads.push(userId);
      return statuses[userId];
    });
    await expect(check(auth('A', 1))).resolves.toBeUndefined();
    await expect(check(auth('A', 1))).resolves.toBeUndefined();
    await expect(check(auth('B', 1))).rejects.toMatchObject({
      code: 'login.errors.403',
      status: 403,
      message: 'Account temporally blocked.',
    });
    await expect(check(auth('C', 1))).rejects.toMatchObject({ code: 'unauthenticated' });
    expect(reads).toEqual(['A', 'A', 'B', 'C']);
  });
});

describe('logout', () => {
  it('revokes every session (table, live channel, then Cognito) and is idempotent', async () => {
    const { deps, accounts, calls } = fakes({ U1: active });
    const first = await logout(deps, 'U1', NOW);
    expect(first).toEqual({ userId: 'U1', revokedAt: NOW.toISOString() });
    await logout(deps, 'U1', new Date(NOW.getTime() + 1000));
    expect(calls).toEqual([
      'revoke U1',
      'live close U1',
      'cognito signout U1',
      'revoke U1',
      'live close U1',
      'cognito signout U1',
    ]);
    const old = { auth_time: seconds('2026-11-22T08:00:00Z') };
    expect(sessionVerdict(accounts.get('U1'), old)).toMatchObject({ ok: false });
  });

  it('answers 401 for a caller without an account', async () => {
    const { deps } = fakes();
    await expect(logout(deps, 'ghost', NOW)).rejects.toMatchObject({ code: 'unauthenticated' });
  });
});

describe('block and unblock', () => {
  it('blocks: flag and revocation in the table, live connections closed, then Cognito', async () => {
    const { deps, accounts, calls } = fakes({ U1: active, ADMIN: active });
    await expect(blockUser(deps, { adminId: 'ADMIN', userId: 'U1' }, NOW)).resolves.toEqual({
      userId: 'U1',
      blocked: true,
    });
    expect(accounts.get('U1')).toEqual({ blocked: true, sessionsRevokedAt: NOW.toISOString() });
    expect(calls).toEqual([
      'block U1',
      'live close U1',
      'cognito disable U1',
      'cognito signout U1',
    ]);
  });

  it('unblocks: the flag goes, revocation stays (old tokens stay refused), Cognito enabled', async () => {
    const { deps, accounts, calls } = fakes({ U1: active });
    await blockUser(deps, { adminId: 'ADMIN', userId: 'U1' }, NOW);
    calls.length = 0;
    await expect(unblockUser(deps, { userId: 'U1' }, NOW)).resolves.toEqual({
      userId: 'U1',
      blocked: false,
    });
    expect(accounts.get('U1')).toEqual({ blocked: false, sessionsRevokedAt: NOW.toISOString() });
    expect(calls).toEqual(['unblock U1', 'cognito enable U1']);
  });

  it('refuses an admin blocking themselves (409), in any letter case, touching nothing', async () => {
    const { deps, calls } = fakes({ ADMIN: active });
    const refused = await blockUser(deps, { adminId: 'ADMIN', userId: 'admin' }, NOW).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ code: 'admin.errors.self_block', status: 409 });
    expect(calls).toEqual([]);
  });

  it('answers 404 for an unknown user, without calling Cognito', async () => {
    const { deps, calls } = fakes();
    await expect(
      blockUser(deps, { adminId: 'ADMIN', userId: 'NOBODY' }, NOW),
    ).rejects.toMatchObject({ code: 'users.errors.not_found', status: 404 });
    await expect(unblockUser(deps, { userId: 'NOBODY' }, NOW)).rejects.toMatchObject({
      status: 404,
    });
    expect(calls).toEqual(['block NOBODY', 'unblock NOBODY']);
  });
});

describe('sessionView', () => {
  it('names the caller and whether they are an admin', () => {
    expect(sessionView({ userId: 'U1', email: 'a@b.c', groups: ['admin'], claims: {} })).toEqual({
      userId: 'U1',
      email: 'a@b.c',
      admin: true,
    });
    expect(sessionView({ userId: 'U2', email: undefined, groups: [], claims: {} })).toEqual({
      userId: 'U2',
      email: null,
      admin: false,
    });
  });
});
