import { describe, expect, it } from 'vitest';
import {
  addMoney,
  money,
  MoneyError,
  multiplyMoney,
  parseAmount,
  shareOf,
  subtractMoney,
  type CurrencyCode,
  type Rounding,
} from './money';

describe('money arithmetic in minor units', () => {
  it('adds, subtracts and multiplies within one currency', () => {
    expect(addMoney(money(150, 'USD'), money(275, 'USD'))).toEqual(money(425, 'USD'));
    expect(subtractMoney(money(150, 'EUR'), money(275, 'EUR'))).toEqual(money(-125, 'EUR'));
    expect(multiplyMoney(money(1999, 'GBP'), 3)).toEqual(money(5997, 'GBP'));
  });

  it('refuses mixing currencies, fractions of a minor unit and fractional quantities', () => {
    expect(() => addMoney(money(1, 'USD'), money(1, 'EUR'))).toThrow(MoneyError);
    expect(() => money(1.5, 'USD')).toThrow(MoneyError);
    expect(() => multiplyMoney(money(100, 'USD'), 1.5)).toThrow(MoneyError);
  });
});

describe('shareOf: basis points with explicit rounding', () => {
  it.each<[number, number, Rounding, number]>([
    [10_000, 200, 'half-up', 200], // 2 % of $100.00
    [1, 200, 'half-up', 0], // 2 % of 1 cent
    [25, 200, 'half-up', 1], // 0.5 cent rounds up
    [24, 200, 'half-up', 0], // 0.48 cent rounds down
    [25, 200, 'down', 0],
    [1, 200, 'up', 1],
    [999_999, 1000, 'half-up', 100_000], // 10 % royalty: 99 999.9 → 100 000
    [-25, 200, 'half-up', -1], // refunds round symmetrically
    [Number.MAX_SAFE_INTEGER, 5000, 'down', 4_503_599_627_370_495],
  ])('%s × %s bps (%s) = %s', (amount, bps, rounding, expected) => {
    expect(shareOf(money(amount, 'USD'), bps, rounding)).toEqual(money(expected, 'USD'));
  });

  it('refuses negative or fractional basis points', () => {
    expect(() => shareOf(money(100, 'USD'), -1)).toThrow(MoneyError);
    expect(() => shareOf(money(100, 'USD'), 1.5)).toThrow(MoneyError);
  });
});

describe('parseAmount: what a user types, in the spec number format', () => {
  it.each<[string, CurrencyCode, number | null]>([
    ['12', 'USD', 1200],
    ['12,5', 'USD', 1250],
    ['12,50', 'USD', 1250],
    ['1.234,56', 'EUR', 123456],
    ['1.234', 'EUR', 123400],
    ['12.5', 'USD', 1250],
    [' 0,01 ', 'GBP', 1],
    ['1.500', 'SAT', 1500],
    ['12,345', 'USD', null], // more decimals than the currency has
    ['1,5', 'SAT', null],
    ['-3', 'USD', null],
    ['abc', 'USD', null],
    ['', 'USD', null],
    ['99999999999999999999', 'USD', null],
  ])('%j %s → %s', (input, currency, expected) => {
    const parsed = parseAmount(input, currency);
    expect(parsed === null ? null : parsed.amount).toBe(expected);
  });
});
