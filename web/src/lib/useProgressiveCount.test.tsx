import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useProgressiveCount } from './useProgressiveCount';

describe('useProgressiveCount', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows a first step at once, then a step more after each commit, up to all', async () => {
    const { result } = renderHook(() => useProgressiveCount(30, 12));
    expect(result.current).toBe(12);
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(result.current).toBe(24);
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(result.current).toBe(30);
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(result.current).toBe(30);
  });

  it('shows short lists whole, and grows with the list (a next page)', async () => {
    const { result, rerender } = renderHook(({ total }) => useProgressiveCount(total, 12), {
      initialProps: { total: 5 },
    });
    expect(result.current).toBe(5);
    rerender({ total: 40 });
    expect(result.current).toBe(12);
    for (let step = 0; step < 5; step += 1) await act(() => vi.advanceTimersByTimeAsync(0));
    expect(result.current).toBe(40);
  });
});
