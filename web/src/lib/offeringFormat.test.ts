import { describe, expect, it } from 'vitest';
import { priceText, timeLeft } from './offeringFormat';

describe('time left', () => {
  const now = Date.parse('2026-05-01T10:00:00.000Z');
  it.each([
    ['2026-05-01T09:00:00.000Z', { kind: 'ended' }],
    ['2026-05-01T10:00:00.000Z', { kind: 'ended' }],
    ['2026-05-01T10:00:30.000Z', { kind: 'underMinute' }],
    ['2026-05-01T10:12:00.000Z', { kind: 'minutes', minutes: 12 }],
    ['2026-05-01T14:20:00.000Z', { kind: 'hours', hours: 4, minutes: 20 }],
    ['2026-05-04T15:00:00.000Z', { kind: 'days', days: 3, hours: 5 }],
  ])('until %s', (end, expected) => {
    expect(timeLeft(end, now)).toEqual(expected);
  });
});

describe('price text', () => {
  it('shows minor units with the currency symbol (spec 000 §9)', () => {
    expect(priceText(123456, 'EUR')).toBe('€1.234,56');
    expect(priceText(2500, 'SAT')).toBe('2.500 Sats');
  });
});
