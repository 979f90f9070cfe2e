/** Time, injected: domain code receives `now`; handlers take it from the clock. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock frozen at `at`, advanced by hand, for tests. */
export function fixedClock(
  at: Date | string,
): Clock & { advance(ms: number): void; set(to: Date | string): void } {
  let current = new Date(at);
  return {
    now: () => new Date(current),
    advance(ms: number) {
      current = new Date(current.getTime() + ms);
    },
    set(to: Date | string) {
      current = new Date(to);
    },
  };
}
