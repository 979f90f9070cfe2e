import { describe, expect, it } from 'vitest';
import { streamTriggers } from '../../functions/routes';
import { assertSupportedPattern, matches } from './streams';

/** Lambda's event filtering as the twin evaluates it (the subset the product's triggers use). */
const record = (type: string, note: boolean, eventName = 'INSERT') => ({
  eventName,
  dynamodb: {
    NewImage: {
      type: { S: type },
      ...(note ? { last: { M: { version: { N: '2' } } } } : {}),
    },
  },
});

describe('stream filter patterns', () => {
  const [bidEvents] = streamTriggers.bidEvents?.filters ?? [];

  it.each([
    ["a lot's first write with a change's note", record('auction_lot', true), true],
    ["a lot written again with a change's note", record('auction_lot', true, 'MODIFY'), true],
    ['a lot written without one (the close)', record('auction_lot', false, 'MODIFY'), false],
    ['another item with one', record('auction_bid', true), false],
    ['a removal (no new image)', { eventName: 'REMOVE', dynamodb: {} }, false],
  ])('bidEvents takes %s: %s', (_what, value, expected) => {
    expect(matches(bidEvents as Record<string, unknown>, value)).toBe(expected);
  });

  it('evaluates value lists, prefixes and exists (false too)', () => {
    expect(matches({ a: ['x', 'y'] }, { a: 'y' })).toBe(true);
    expect(matches({ a: ['x'] }, { a: 'z' })).toBe(false);
    expect(matches({ a: [{ prefix: 'BID#' }] }, { a: 'BID#00000001' })).toBe(true);
    expect(matches({ a: [{ prefix: 'BID#' }] }, { a: 'LOT' })).toBe(false);
    expect(matches({ a: [{ exists: false }] }, {})).toBe(true);
    expect(matches({ a: [{ exists: false }] }, { a: 1 })).toBe(false);
    expect(matches({ a: { b: [1] } }, { a: { b: 1 } })).toBe(true);
  });

  it('refuses, at the start, a rule the twin does not evaluate', () => {
    expect(() => assertSupportedPattern('t', { a: [{ numeric: ['>', 1] }] })).toThrow(
      'is not emulated',
    );
    expect(() => assertSupportedPattern('t', { a: [{ 'anything-but': 'x' }] })).toThrow(
      'is not emulated',
    );
    expect(() => assertSupportedPattern('t', bidEvents)).not.toThrow();
  });
});
