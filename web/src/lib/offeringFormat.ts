import { formatMoney } from '@shared/format';
import { money, type CurrencyCode } from '@shared/money';

/**
 * The formats an offering's price and time share (the market's card, the item page's panel,
 * support's queue). Pure functions: each caller words the result with its own texts.
 */

/** An amount in minor units with its currency's symbol (spec 000 §9 number format). */
export function priceText(amount: number, currency: CurrencyCode): string {
  return formatMoney(money(amount, currency));
}

/** How long an offering still runs, in the two largest units that matter (rounded down). */
export type TimeLeft =
  | { kind: 'ended' }
  | { kind: 'days'; days: number; hours: number }
  | { kind: 'hours'; hours: number; minutes: number }
  | { kind: 'minutes'; minutes: number }
  | { kind: 'underMinute' };

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The time from `now` (ms) to `endAt` (ISO), rounded down. */
export function timeLeft(endAt: string, now: number): TimeLeft {
  const rest = Date.parse(endAt) - now;
  if (!(rest > 0)) return { kind: 'ended' };
  if (rest >= DAY) {
    return { kind: 'days', days: Math.floor(rest / DAY), hours: Math.floor((rest % DAY) / HOUR) };
  }
  if (rest >= HOUR) {
    return {
      kind: 'hours',
      hours: Math.floor(rest / HOUR),
      minutes: Math.floor((rest % HOUR) / MINUTE),
    };
  }
  if (rest >= MINUTE) return { kind: 'minutes', minutes: Math.floor(rest / MINUTE) };
  return { kind: 'underMinute' };
}
