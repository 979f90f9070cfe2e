import { describe, expect, it } from 'vitest';
import { abbreviateCount, formatAmount, formatFileSize, formatMoney, formatNumber } from './format';
import type { CurrencyCode } from './money';

describe('formatNumber: thousands ".", decimal ",", 4 decimals by default', () => {
  it.each([
    [0, undefined, '0,0000'],
    [1234.5, undefined, '1.234,5000'],
    [1234.5, 2, '1.234,50'],
    [1234567.891, 2, '1.234.567,89'],
    [1.005, 2, '1,01'],
    [0.125, 2, '0,13'],
    [-1234.5, 2, '-1.234,50'],
    [-0.001, 2, '0,00'],
    [999, 0, '999'],
    [1000, 0, '1.000'],
    [1999.5, 0, '2.000'],
  ])('%s with %s decimals → %s', (value, decimals, expected) => {
    expect(formatNumber(value, decimals)).toBe(expected);
  });

  it('refuses non-finite values and bad decimals', () => {
    expect(() => formatNumber(Number.NaN)).toThrow(RangeError);
    expect(() => formatNumber(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => formatNumber(1, -1)).toThrow(RangeError);
  });
});

describe('formatAmount and formatMoney: 2 decimals fiat, 0 for Sats', () => {
  it.each<[number, CurrencyCode, string, string]>([
    [0, 'USD', '0,00', '$0,00'],
    [5, 'USD', '0,05', '$0,05'],
    [123456, 'USD', '1.234,56', '$1.234,56'],
    [99, 'EUR', '0,99', '€0,99'],
    [100000000, 'GBP', '1.000.000,00', '£1.000.000,00'],
    [-250, 'USD', '-2,50', '-$2,50'],
    [1500, 'SAT', '1.500', '1.500 Sats'],
    [0, 'SAT', '0', '0 Sats'],
  ])('%s %s → %s / %s', (amount, currency, plain, withSymbol) => {
    expect(formatAmount({ amount, currency })).toBe(plain);
    expect(formatMoney({ amount, currency })).toBe(withSymbol);
  });
});

describe('abbreviateCount: K, M, B', () => {
  it.each([
    [0, '0'],
    [7, '7'],
    [999, '999'],
    [1000, '1K'],
    [1050, '1K'],
    [1250, '1,2K'],
    [12_345, '12,3K'],
    [999_999, '999,9K'],
    [1_000_000, '1M'],
    [1_500_000, '1,5M'],
    [2_000_000_000, '2B'],
    [1_234_000_000_000, '1.234B'],
    [-1500, '-1,5K'],
  ])('%s → %s', (count, expected) => {
    expect(abbreviateCount(count)).toBe(expected);
  });
});

describe('formatFileSize: base 1024', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1 KB'],
    [1536, '1,5 KB'],
    [8 * 1024 * 1024, '8 MB'],
    [20 * 1024 * 1024, '20 MB'],
    [524_288_000, '500 MB'],
    [67_108_864, '64 MB'],
    [1024 ** 3 * 1.25, '1,3 GB'],
  ])('%s bytes → %s', (bytes, expected) => {
    expect(formatFileSize(bytes)).toBe(expected);
  });

  it('refuses negative sizes', () => {
    expect(() => formatFileSize(-1)).toThrow(RangeError);
  });
});
