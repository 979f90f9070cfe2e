import { describe, expect, it, vi } from 'vitest';
import { httpHandler } from '../core/http';
import { httpEvent, lambdaContext } from '../core/testing/events';
import type { AccountStatus } from './accounts.repo';
import { createSessionCheck } from './sessions';

function parse(result: unknown) {
  const response = result as { statusCode: number; body: string };
  return { status: response.statusCode, json: JSON.parse(response.body) };
}

/** The accounts domain's session check, as the HTTP middleware runs it (functions/http.ts). */
describe('the per-call session check', () => {
  const accounts = new Map<string, AccountStatus>([
    ['u1', { blocked: false, sessionsRevokedAt: undefined }],
    ['u2', { blocked: true, sessionsRevokedAt: '2026-11-22T09:00:00.000Z' }],
    ['u3', { blocked: false, sessionsRevokedAt: '2026-11-22T09:00:00.500Z' }],
  ]);
  const reads: string[] = [];
  const session = createSessionCheck(async (userId) => {
    reads.push(userId);
    return accounts.get(userId);
  });
  const run = vi.fn(async () => ({ ok: true }));
  const userCall = httpHandler({ auth: 'user', session }, run);
  const publicCall = httpHandler({ auth: 'public', session }, async () => ({ ok: true }));
  const at = (iso: string) => String(Date.parse(iso) / 1000);

  it.each([
    ['u1', at('2026-11-22T08:00:00Z'), 200, undefined],
    ['u2', at('2026-11-22T09:30:00Z'), 403, 'login.errors.403'],
    ['u3', at('2026-11-22T08:59:59Z'), 401, 'unauthenticated'],
    ['u3', at('2026-11-22T09:00:00Z'), 401, 'unauthenticated'],
    ['u3', at('2026-11-22T09:00:01Z'), 200, undefined],
    ['nobody', at('2026-11-22T09:30:00Z'), 401, 'unauthenticated'],
  ] as const)('%s signed in at %s → %s', async (username, authTime, status, code) => {
    run.mockClear();
    reads.length = 0;
    const result = parse(
      await userCall(
        httpEvent('GET', '/api/session', { claims: { username, auth_time: authTime } }),
        lambdaContext(),
      ),
    );
    expect(result.status).toBe(status);
    expect(reads).toEqual([username]);
    if (code !== undefined) {
      expect(result.json.error.code).toBe(code);
      expect(run).not.toHaveBeenCalled();
    }
  });

  it('does not read the table for public routes', async () => {
    reads.length = 0;
    const result = parse(await publicCall(httpEvent('GET', '/api/health'), lambdaContext()));
    expect(result.status).toBe(200);
    expect(reads).toEqual([]);
  });
});
