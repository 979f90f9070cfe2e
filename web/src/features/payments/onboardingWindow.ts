import { PATHS } from '../../lib/paths';

/**
 * The window seller onboarding happens in (spec 001 §2 /redirecting, §4). It must be opened in
 * the click's own task, before any call is awaited (a browser blocks windows opened later), on
 * the app's blank /redirecting page; once the begin or refresh call answers, it is pointed at
 * Stripe's URL, or closed. Stripe sends it back to /stripe/onboarding/minter, which tells the
 * opener ({@link MINTER_RETURNED}) and offers to close.
 */
export interface OnboardingWindow {
  /** Points the window at `url` (replacing /redirecting in its history). */
  go: (url: string) => void;
  close: () => void;
}

/** One named window: a second click reuses it instead of stacking windows. */
export const ONBOARDING_WINDOW_NAME = 'stripe-onboarding';

/** The message the return page posts to its opener (same origin only). */
export const MINTER_RETURNED = 'minter-onboarding:returned';

/** Opens /redirecting in a new window; null when the browser blocked it. */
export function openOnboardingWindow(): OnboardingWindow | null {
  const popup = openWindow(PATHS.redirecting);
  if (!popup) return null;
  return {
    go: (url) => popup.location.replace(url),
    close: () => popup.close(),
  };
}

function openWindow(path: string): Window | null {
  try {
    return window.open(path, ONBOARDING_WINDOW_NAME);
  } catch {
    return null;
  }
}

/** Whether a window message is the return page's, from this origin. */
export function isMinterReturnMessage(event: MessageEvent): boolean {
  return (
    event.origin === window.location.origin &&
    typeof event.data === 'object' &&
    event.data !== null &&
    (event.data as { type?: unknown }).type === MINTER_RETURNED
  );
}
