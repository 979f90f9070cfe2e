/**
 * Number formats of the spec (000 §9, 001 §9): thousands separator '.', decimal separator ',';
 * 2 decimals for fiat, 4 by default, 0 for Sats; counts abbreviated with K, M, B; file sizes in
 * base 1024. Pure functions, no Intl locale dependence, so server and browser agree.
 */
import { CURRENCIES, type Money } from './money';

export const DEFAULT_DECIMALS = 4;

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
}

/** Formats an exact decimal given as integer `units / 10^scale`, with `decimals` shown (half-up). */
function formatScaled(units: bigint, scale: number, decimals: number): string {
  const negative = units < 0n;
  let magnitude = negative ? -units : units;
  if (scale > decimals) {
    const divisor = 10n ** BigInt(scale - decimals);
    const remainder = magnitude % divisor;
    magnitude = magnitude / divisor + (remainder * 2n >= divisor ? 1n : 0n);
  } else if (scale < decimals) {
    magnitude = magnitude * 10n ** BigInt(decimals - scale);
  }
  const text = magnitude.toString().padStart(decimals + 1, '0');
  const whole = text.slice(0, text.length - decimals);
  const fraction = text.slice(text.length - decimals);
  const body = decimals > 0 ? `${groupThousands(whole)},${fraction}` : groupThousands(whole);
  return negative && magnitude !== 0n ? `-${body}` : body;
}

/** Formats a plain number: `formatNumber(1234.5) === '1.234,5000'`, `formatNumber(1234.5, 2) === '1.234,50'`. */
export function formatNumber(value: number, decimals: number = DEFAULT_DECIMALS): string {
  if (!Number.isFinite(value)) throw new RangeError(`cannot format ${value}`);
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 20) {
    throw new RangeError(`decimals must be an integer from 0 to 20, got ${decimals}`);
  }
  // toFixed(decimals + 2) then exact rounding avoids binary artefacts such as 1.005.
  const [whole = '0', fraction = ''] = Math.abs(value)
    .toFixed(Math.min(decimals + 2, 20))
    .split('.');
  const units = BigInt(whole + fraction) * (value < 0 ? -1n : 1n);
  return formatScaled(units, fraction.length, decimals);
}

/** Formats money from minor units: 123456 USD → '1.234,56', 1500 SAT → '1.500'. */
export function formatAmount(value: Money): string {
  const decimals = CURRENCIES[value.currency].decimals;
  return formatScaled(BigInt(value.amount), decimals, decimals);
}

/** Money with its symbol: '$1.234,56', '€0,99', '1.500 Sats'. */
export function formatMoney(value: Money): string {
  const currency = CURRENCIES[value.currency];
  const amount = formatAmount(value);
  if (value.currency === 'SAT') return `${amount} ${currency.symbol}`;
  return amount.startsWith('-')
    ? `-${currency.symbol}${amount.slice(1)}`
    : `${currency.symbol}${amount}`;
}

const ABBREVIATIONS = [
  { value: 1e9, suffix: 'B' },
  { value: 1e6, suffix: 'M' },
  { value: 1e3, suffix: 'K' },
] as const;

/**
 * Counts with K, M, B: 999 → '999', 1000 → '1K', 1250 → '1,2K', 999 999 → '999,9K' (never rounds up
 * into a wrong magnitude), 1 500 000 → '1,5M'. One decimal, truncated, spec decimal comma.
 */
export function abbreviateCount(count: number): string {
  if (!Number.isFinite(count)) throw new RangeError(`cannot abbreviate ${count}`);
  const sign = count < 0 ? '-' : '';
  const magnitude = Math.floor(Math.abs(count));
  for (const { value, suffix } of ABBREVIATIONS) {
    if (magnitude >= value) {
      const tenths = Math.floor((magnitude * 10) / value);
      const whole = Math.floor(tenths / 10);
      const fraction = tenths % 10;
      return `${sign}${groupThousands(String(whole))}${fraction === 0 ? '' : `,${fraction}`}${suffix}`;
    }
  }
  return `${sign}${magnitude}`;
}

const SIZE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** File sizes in base 1024: 1024 → '1 KB', 8 388 608 → '8 MB', 1536 → '1,5 KB'. */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) throw new RangeError(`invalid size ${bytes}`);
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const rounded = Math.round(value * 10) / 10;
  const text = Number.isInteger(rounded) ? String(rounded) : formatNumber(rounded, 1);
  return `${text} ${SIZE_UNITS[unit]}`;
}
