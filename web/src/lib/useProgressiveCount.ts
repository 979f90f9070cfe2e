import { startTransition, useEffect, useState } from 'react';

/**
 * How many of `total` list entries to render now: `step` at first, then `step` more after each
 * commit, in a transition, until all are there. A long list (a page of 50 cards) then mounts in
 * several short tasks instead of one long one, so a slow phone answers taps meanwhile; the first
 * entries (the screenful the user sees) come first. Entries already shown stay when more arrive.
 */
export function useProgressiveCount(total: number, step: number): number {
  const [count, setCount] = useState(step);
  useEffect(() => {
    if (count >= total) return;
    const handle = window.setTimeout(() => {
      startTransition(() => setCount((current) => current + step));
    }, 0);
    return () => window.clearTimeout(handle);
  }, [count, total, step]);
  return Math.min(count, total);
}
