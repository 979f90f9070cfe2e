import { describe, expect, it } from 'vitest';
import { median, percentile } from './stats';

describe('bench statistics', () => {
  it.each([
    [[5], 50, 5],
    [[1, 2, 3, 4], 50, 2],
    [[4, 1, 3, 2], 95, 4],
    [Array.from({ length: 100 }, (_, index) => index + 1), 95, 95],
    [Array.from({ length: 100 }, (_, index) => 100 - index), 50, 50],
  ])('percentile of %j at %s is %s', (samples, p, expected) => {
    expect(percentile(samples, p)).toBe(expected);
  });

  it('has no percentile of nothing', () => {
    expect(median([])).toBeNaN();
  });
});
