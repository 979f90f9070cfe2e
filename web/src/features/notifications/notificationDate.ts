/**
 * The date of a notification as the dialog shows it (spec 001 §2): "Today hh:mm", "Tomorrow", the
 * weekday within the next week, "Yesterday", the weekday within the last week, otherwise
 * DD/MM/YY. Days are calendar days in the viewer's time zone (moment's `calendar()` rules: up to
 * six days either side names the weekday).
 */
export type NotificationDate =
  | { kind: 'today'; time: string }
  | { kind: 'tomorrow' }
  | { kind: 'yesterday' }
  | { kind: 'weekday'; weekday: string }
  | { kind: 'date'; date: string };

export interface NotificationDateOptions {
  /** IANA zone; the viewer's by default. */
  timeZone?: string;
}

const DAY_MS = 86_400_000;

interface DayParts {
  year: number;
  month: number;
  day: number;
  hour: string;
  minute: string;
  weekday: string;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function partsOf(ms: number, timeZone: string | undefined): DayParts {
  const key = timeZone ?? '';
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      weekday: 'long',
      hourCycle: 'h23',
    });
    formatters.set(key, formatter);
  }
  const parts = Object.fromEntries(
    formatter.formatToParts(new Date(ms)).map((part) => [part.type, part.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: parts.hour ?? '00',
    minute: parts.minute ?? '00',
    weekday: parts.weekday ?? '',
  };
}

/** The calendar day as a day number (UTC days since the epoch of that Y/M/D). */
function dayNumber(parts: DayParts): number {
  return Math.floor(Date.UTC(parts.year, parts.month - 1, parts.day) / DAY_MS);
}

/** How `at` (ms) reads next to `now` (ms): a pure function of both. */
export function notificationDate(
  at: number,
  now: number,
  options: NotificationDateOptions = {},
): NotificationDate {
  const when = partsOf(at, options.timeZone);
  const days = dayNumber(when) - dayNumber(partsOf(now, options.timeZone));
  if (days === 0) return { kind: 'today', time: `${when.hour}:${when.minute}` };
  if (days === 1) return { kind: 'tomorrow' };
  if (days === -1) return { kind: 'yesterday' };
  if (days >= -6 && days <= 6) return { kind: 'weekday', weekday: when.weekday };
  const year = String(when.year % 100).padStart(2, '0');
  const pad = (value: number) => String(value).padStart(2, '0');
  return { kind: 'date', date: `${pad(when.day)}/${pad(when.month)}/${year}` };
}
