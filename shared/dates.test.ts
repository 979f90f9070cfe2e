import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, toIsoUtc } from './dates';

describe('formatDateTime: DD/MM/YYYY HH:mm', () => {
  it.each([
    ['2026-11-22T09:05:00Z', undefined, '22/11/2026 09:05'],
    ['2026-01-02T23:59:59Z', undefined, '02/01/2026 23:59'],
    ['2026-01-02T23:30:00Z', 'Europe/Madrid', '03/01/2026 00:30'],
    ['2026-07-01T00:00:00Z', 'America/New_York', '30/06/2026 20:00'],
    [Date.UTC(2024, 1, 29, 12, 0), undefined, '29/02/2024 12:00'],
  ])('%s in %s → %s', (value, timeZone, expected) => {
    expect(formatDateTime(value, timeZone === undefined ? {} : { timeZone })).toBe(expected);
  });

  it('formats the date alone and ISO UTC', () => {
    expect(formatDate('2026-11-22T09:05:00Z')).toBe('22/11/2026');
    expect(toIsoUtc(Date.UTC(2026, 10, 22, 9, 5))).toBe('2026-11-22T09:05:00.000Z');
  });

  it('refuses invalid dates', () => {
    expect(() => formatDateTime('not a date')).toThrow(RangeError);
  });
});
