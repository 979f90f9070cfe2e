/*
 * Which first path segments are a public profile (`/:usernick`, spec 001 §2). Shared by the web
 * app (its routes and the entry's early start) and the CDN's routing (infra/lib/web-pages.ts), so
 * the app and the file the CDN answers agree. No imports.
 */

/** First path segments that belong to the app, never to a profile. */
export const RESERVED_SEGMENTS = new Set([
  'account',
  'admin',
  'api',
  'checkout',
  'collection',
  'dev',
  'error',
  'faq',
  'faqs',
  'kyc',
  'legal',
  'market',
  'media',
  'messages',
  'password',
  'product',
  'redeem',
  'redirecting',
  'sellers',
  'session',
  'settings',
  'stripe',
  'support',
  'unsubscribe',
  'wallet',
]);

/** A nick as a path segment: 3 to 64 lower-case letters and digits. */
export const PROFILE_NICK = /^[a-z0-9]{3,64}$/;

/** Whether a first path segment can be a profile's nick. */
export function isProfileNick(segment: string): boolean {
  return PROFILE_NICK.test(segment) && !RESERVED_SEGMENTS.has(segment);
}
