/**
 * Leaves the app for one of Stripe's hosted pages (the card form, an onboarding link). One object
 * so tests can watch it: jsdom does not navigate.
 */
export const externalNavigation = {
  /** Goes to `url`; the back button returns here. */
  assign: (url: string): void => window.location.assign(url),
  /** Goes to `url` in place of this page (a page that only forwards, such as the refresh page). */
  replace: (url: string): void => window.location.replace(url),
};
