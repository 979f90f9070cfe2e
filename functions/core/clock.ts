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

/**
 * The time an invocation has left to answer, injected like `now`: a handler builds it from
 * Lambda's `context.getRemainingTimeInMillis()` (`CallInput.remainingMs`), so a use case that
 * retries or waits stops in time to answer within the call's declared budget
 * (core/budgets.ts), and tests drive it on a manual clock. `sleep` is how the use case waits
 * (a retry's backoff): a manual budget spends its time without waiting.
 */
export interface Budget {
  /** Milliseconds left before the invocation is stopped (Lambda's timeout). */
  remainingMs(): number;
  sleep(ms: number): Promise<void>;
  /**
   * A timer: `done` resolves once `ms` of the budget have passed, unless cancelled (a step given up
   * on when the table does not answer in time).
   */
  timer(ms: number): { done: Promise<void>; cancel(): void };
}

function realTimer(ms: number): { done: Promise<void>; cancel(): void } {
  let handle: NodeJS.Timeout | undefined;
  const done = new Promise<void>((resolve) => {
    handle = setTimeout(resolve, Math.max(0, ms));
    handle.unref();
  });
  return { done, cancel: () => clearTimeout(handle) };
}

/** An invocation's budget, from its context's countdown. */
export function invocationBudget(remainingMs: () => number): Budget {
  return {
    remainingMs,
    sleep: (ms) =>
      new Promise<void>((resolve) => {
        setTimeout(resolve, Math.max(0, ms));
      }),
    timer: realTimer,
  };
}

/**
 * A budget of `ms` counting down from now in real time (tests and benches calling a use case
 * directly, as an invocation with that budget would).
 */
export function countdownBudget(ms: number): Budget {
  const end = Date.now() + ms;
  return invocationBudget(() => end - Date.now());
}

/**
 * A budget of `totalMs` on a manual clock, for tests: `sleep` and `spend` advance it (and the
 * fixed clock given, if any) instead of waiting; `elapsed` says how much was used.
 */
export function manualBudget(
  totalMs: number,
  clock?: { advance(ms: number): void },
): Budget & { spend(ms: number): void; elapsed(): number } {
  let used = 0;
  const timers = new Set<{ at: number; resolve: () => void }>();
  const spend = (ms: number) => {
    const step = Math.max(0, ms);
    used += step;
    clock?.advance(step);
    for (const timer of [...timers]) {
      if (timer.at <= used) {
        timers.delete(timer);
        timer.resolve();
      }
    }
  };
  return {
    remainingMs: () => totalMs - used,
    timer(ms) {
      let entry: { at: number; resolve: () => void } | undefined;
      const done = new Promise<void>((resolve) => {
        entry = { at: used + Math.max(0, ms), resolve };
        timers.add(entry);
      });
      return {
        done,
        cancel: () => {
          if (entry !== undefined) timers.delete(entry);
        },
      };
    },
    async sleep(ms) {
      spend(ms);
      // Lets the other calls of a test run meanwhile, as a real wait would.
      await new Promise<void>((resolve) => {
        setImmediate(resolve);
      });
    },
    spend,
    elapsed: () => used,
  };
}
