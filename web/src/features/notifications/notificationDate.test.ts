import { describe, expect, it } from 'vitest';
import { notificationDate, type NotificationDate } from './notificationDate';

/** Wednesday 12 November 2025, 15:30 in Madrid (14:30 UTC). */
const NOW = Date.UTC(2025, 10, 12, 14, 30);
const at = (iso: string) => new Date(iso).getTime();

describe('notification dates (spec 001 §2)', () => {
  const cases: Array<[string, string, NotificationDate]> = [
    ['earlier today', '2025-11-12T07:05:00Z', { kind: 'today', time: '08:05' }],
    ['today, just after midnight', '2025-11-11T23:10:00Z', { kind: 'today', time: '00:10' }],
    ['today, later (a clock ahead)', '2025-11-12T21:59:00Z', { kind: 'today', time: '22:59' }],
    ['tomorrow', '2025-11-13T09:00:00Z', { kind: 'tomorrow' }],
    ['next weekday (in 2 days)', '2025-11-14T09:00:00Z', { kind: 'weekday', weekday: 'Friday' }],
    ['next weekday (in 6 days)', '2025-11-18T09:00:00Z', { kind: 'weekday', weekday: 'Tuesday' }],
    ['a week ahead', '2025-11-19T09:00:00Z', { kind: 'date', date: '19/11/25' }],
    ['yesterday, late', '2025-11-11T22:59:00Z', { kind: 'yesterday' }],
    ['yesterday, early', '2025-11-10T23:00:00Z', { kind: 'yesterday' }],
    ['last weekday (2 days ago)', '2025-11-10T12:00:00Z', { kind: 'weekday', weekday: 'Monday' }],
    ['last weekday (6 days ago)', '2025-11-06T12:00:00Z', { kind: 'weekday', weekday: 'Thursday' }],
    ['7 days ago', '2025-11-05T12:00:00Z', { kind: 'date', date: '05/11/25' }],
    ['last year', '2024-12-31T12:00:00Z', { kind: 'date', date: '31/12/24' }],
    ['a year 2000s date', '2009-03-01T12:00:00Z', { kind: 'date', date: '01/03/09' }],
  ];

  it.each(cases)('%s', (_name, iso, expected) => {
    expect(notificationDate(at(iso), NOW, { timeZone: 'Europe/Madrid' })).toEqual(expected);
  });

  it('counts calendar days in the given zone', () => {
    // 23:30 UTC on the 11th is already the 12th in Madrid, still the 11th in UTC and New York.
    const late = at('2025-11-11T23:30:00Z');
    expect(notificationDate(late, NOW, { timeZone: 'Europe/Madrid' })).toEqual({
      kind: 'today',
      time: '00:30',
    });
    expect(notificationDate(late, NOW, { timeZone: 'America/New_York' })).toEqual({
      kind: 'yesterday',
    });
    expect(notificationDate(late, NOW, { timeZone: 'UTC' })).toEqual({ kind: 'yesterday' });
  });

  it('crosses a daylight saving change by calendar days, not 24 h blocks', () => {
    // Madrid left summer time on Sunday 26 October 2025 (a 25-hour day).
    const monday = Date.UTC(2025, 9, 27, 0, 30); // 01:30 Monday in Madrid
    expect(
      notificationDate(at('2025-10-25T22:30:00Z'), monday, { timeZone: 'Europe/Madrid' }),
    ).toEqual({ kind: 'yesterday' });
  });
});
