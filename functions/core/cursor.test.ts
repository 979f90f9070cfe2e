import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from './cursor';
import { DomainError } from './errors';

const KEYS = ['pk', 'sk', 'gsi1pk', 'gsi1sk'] as const;
const key = { pk: 'USER#1', sk: 'PROFILE', gsi1pk: 'SELLERS', gsi1sk: '000000000010#1' };

describe('pagination cursors', () => {
  it('round-trips a key for its own list', () => {
    const cursor = encodeCursor('sellers', key);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor('sellers', cursor ?? undefined, KEYS)).toEqual(key);
  });

  it('has no cursor after the last page and decodes none to undefined', () => {
    expect(encodeCursor('sellers', undefined)).toBeNull();
    expect(decodeCursor('sellers', undefined, KEYS)).toBeUndefined();
  });

  const foreign = (body: unknown) => Buffer.from(JSON.stringify(body)).toString('base64url');
  it.each([
    ['garbage', 'not a cursor!'],
    ['not JSON', Buffer.from('{{').toString('base64url')],
    ['another list', foreign({ s: 'items', k: key })],
    ['missing attributes', foreign({ s: 'sellers', k: { pk: 'USER#1' } })],
    ['extra attributes', foreign({ s: 'sellers', k: { ...key, owner: 'x' } })],
    ['non-string values', foreign({ s: 'sellers', k: { ...key, pk: { S: 'x' } } })],
    ['an array', foreign({ s: 'sellers', k: ['x'] })],
  ])('refuses %s with 400 naming the cursor field', (_label, cursor) => {
    try {
      decodeCursor('sellers', cursor, KEYS);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).status).toBe(400);
      expect((error as DomainError).fields).toEqual({ cursor: 'forms.validation.cursor' });
    }
  });
});
