/**
 * Money: integer minor units with an ISO currency. Every fee and share is computed here, with
 * explicit rounding, so no caller does arithmetic on floats.
 */
export const CURRENCIES = {
  USD: { iso: 'USD', symbol: '$', name: 'US Dollar', decimals: 2 },
  EUR: { iso: 'EUR', symbol: '€', name: 'Euro', decimals: 2 },
  GBP: { iso: 'GBP', symbol: '£', name: 'Pound Sterling', decimals: 2 },
  SAT: { iso: 'SAT', symbol: 'Sats', name: 'Satoshi', decimals: 0 },
} as const;

export type CurrencyCode = keyof typeof CURRENCIES;
export const FIAT_CURRENCIES = ['USD', 'EUR', 'GBP'] as const satisfies readonly CurrencyCode[];

export interface Money {
  /** Integer amount in the currency's minor unit (cents; satoshis for SAT). */
  amount: number;
  currency: CurrencyCode;
}

export class MoneyError extends Error {
  override name = 'MoneyError';
}

function assertMinor(amount: number): void {
  if (!Number.isSafeInteger(amount))
    throw new MoneyError(`amount must be a safe integer, got ${amount}`);
}

export function money(amount: number, currency: CurrencyCode): Money {
  assertMinor(amount);
  return { amount, currency };
}

function sameCurrency(a: Money, b: Money): void {
  if (a.currency !== b.currency)
    throw new MoneyError(`currency mismatch: ${a.currency} and ${b.currency}`);
}

export function addMoney(a: Money, b: Money): Money {
  sameCurrency(a, b);
  return money(a.amount + b.amount, a.currency);
}

export function subtractMoney(a: Money, b: Money): Money {
  sameCurrency(a, b);
  return money(a.amount - b.amount, a.currency);
}

export function multiplyMoney(a: Money, quantity: number): Money {
  if (!Number.isSafeInteger(quantity))
    throw new MoneyError(`quantity must be an integer, got ${quantity}`);
  return money(a.amount * quantity, a.currency);
}

export type Rounding = 'half-up' | 'down' | 'up';

/**
 * `amount × bps / 10 000` in integer arithmetic (basis points: 200 = 2 %), rounded as asked.
 * Half-up rounds halves away from zero. BigInt keeps the product exact for any safe amount.
 */
export function shareOf(a: Money, basisPoints: number, rounding: Rounding = 'half-up'): Money {
  if (!Number.isSafeInteger(basisPoints) || basisPoints < 0) {
    throw new MoneyError(`basis points must be a non-negative integer, got ${basisPoints}`);
  }
  const product = BigInt(a.amount) * BigInt(basisPoints);
  const divisor = 10_000n;
  const negative = product < 0n;
  const magnitude = negative ? -product : product;
  let quotient = magnitude / divisor;
  const remainder = magnitude % divisor;
  if (rounding === 'half-up' && remainder * 2n >= divisor) quotient += 1n;
  if (rounding === 'up' && remainder > 0n) quotient += 1n;
  return money(Number(negative ? -quotient : quotient), a.currency);
}

/** Parses a decimal amount typed by a user ("12,50", "1.234,5", "12.5") into minor units. */
export function parseAmount(input: string, currency: CurrencyCode): Money | null {
  const decimals = CURRENCIES[currency].decimals;
  const trimmed = input.trim().replace(/\s/g, '');
  if (trimmed === '') return null;
  // Spec format: thousands '.', decimal ','. Accept a lone '.' as decimal when it cannot be thousands.
  let normalized: string;
  if (trimmed.includes(',')) {
    normalized = trimmed.replace(/\./g, '').replace(',', '.');
  } else if (/^\d{1,3}(\.\d{3})+$/.test(trimmed)) {
    normalized = trimmed.replace(/\./g, '');
  } else {
    normalized = trimmed;
  }
  const match = /^(\d+)(?:\.(\d+))?$/.exec(normalized);
  if (match === null) return null;
  const [, whole = '0', fraction = ''] = match;
  if (fraction.length > decimals) return null;
  const minor =
    BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  return money(Number(minor), currency);
}
