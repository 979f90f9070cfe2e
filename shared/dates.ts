/**
 * Dates as the spec shows them: DD/MM/YYYY HH:mm (24-hour). The time zone is explicit: the web
 * passes the viewer's zone, the server formats in UTC. API timestamps stay ISO-8601 UTC.
 */
export interface DateFormatOptions {
  /** IANA zone, e.g. 'Europe/Madrid'. Defaults to UTC so output never depends on the host. */
  timeZone?: string;
}

function parts(date: Date, timeZone: string): Record<string, string> {
  const formatter = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  return Object.fromEntries(formatter.formatToParts(date).map((part) => [part.type, part.value]));
}

function toDate(value: Date | string | number): Date {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) throw new RangeError(`invalid date ${String(value)}`);
  return date;
}

/** '2026-11-22T09:05:00Z' → '22/11/2026 09:05'. */
export function formatDateTime(
  value: Date | string | number,
  options: DateFormatOptions = {},
): string {
  const p = parts(toDate(value), options.timeZone ?? 'UTC');
  return `${p.day}/${p.month}/${p.year} ${p.hour}:${p.minute}`;
}

/** '2026-11-22T09:05:00Z' → '22/11/2026'. */
export function formatDate(value: Date | string | number, options: DateFormatOptions = {}): string {
  const p = parts(toDate(value), options.timeZone ?? 'UTC');
  return `${p.day}/${p.month}/${p.year}`;
}

/** ISO-8601 UTC with milliseconds, the API's timestamp format. */
export function toIsoUtc(value: Date | number): string {
  return toDate(value).toISOString();
}
