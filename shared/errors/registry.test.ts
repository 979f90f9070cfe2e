import { describe, expect, it } from 'vitest';
import { ERROR_CODES, ERROR_KINDS, isErrorCode, statusOf } from './registry';

describe('error-code registry', () => {
  it('maps every code to a known kind and an HTTP error status', () => {
    for (const code of Object.keys(ERROR_CODES)) {
      expect(isErrorCode(code)).toBe(true);
      const status = statusOf(code as keyof typeof ERROR_CODES);
      expect(Object.values(ERROR_KINDS)).toContain(status);
      expect(status).toBeGreaterThanOrEqual(400);
    }
  });

  it.each([
    ['not_found', 404],
    ['invalid_json', 400],
    ['invalid_request', 400],
    ['unauthenticated', 401],
    ['forbidden', 403],
    ['rate_limited', 429],
    ['unexpected', 500],
  ] as const)('%s → %s', (code, status) => {
    expect(statusOf(code)).toBe(status);
  });

  it('uses codes that are valid i18n keys', () => {
    for (const code of Object.keys(ERROR_CODES))
      expect(code).toMatch(/^[a-z0-9_]+(\.[a-z0-9_]+)*$/);
  });

  it('knows unknown strings are not codes', () => {
    expect(isErrorCode('toString')).toBe(false);
    expect(isErrorCode('errors.whatever')).toBe(false);
  });
});
