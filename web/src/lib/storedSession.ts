import type { AuthSettings } from './authClient';

/*
 * Whether this browser holds a login, read from Amplify's storage without loading Amplify. A
 * module of its own (no imports that stay in the build): the entry (main.tsx) asks it before any
 * of the app's JavaScript has arrived.
 */

/** The prefix of Amplify's keys in localStorage for a user pool client (Amplify v6 TokenStore). */
const STORAGE_PREFIX = 'CognitoIdentityServiceProvider';

/**
 * Whether this browser holds a session Amplify could restore for the user pool: the access token
 * Amplify stores under `CognitoIdentityServiceProvider.<client id>.<last user>.accessToken` (the
 * key its TokenStore reads; without it Amplify reports no session). Read without loading Amplify,
 * so a visitor who never logged in does not download it. When storage cannot be read, answers
 * true and lets Amplify decide.
 */
export function hasStoredSession(pool: Pick<AuthSettings, 'userPoolClientId'>): boolean {
  try {
    const prefix = `${STORAGE_PREFIX}.${pool.userPoolClientId}`;
    const lastUser = window.localStorage.getItem(`${prefix}.LastAuthUser`) ?? 'username';
    return window.localStorage.getItem(`${prefix}.${lastUser}.accessToken`) !== null;
  } catch {
    return true;
  }
}

/**
 * Whether this browser may hold a session for any user pool client: an access token stored under
 * Amplify's prefix. Known before /api/config names the pool, so a visitor who never logged in
 * (none stored) sends the page's first calls at once instead of waiting for /config to learn
 * they are a guest. When storage cannot be read (or there is none, as in the build-time render),
 * answers true.
 */
export function mayHaveStoredSession(): boolean {
  try {
    const storage = window.localStorage;
    for (let index = 0; index < storage.length; index += 1) {
      const key = storage.key(index);
      if (key?.startsWith(`${STORAGE_PREFIX}.`) && key.endsWith('.accessToken')) return true;
    }
    return false;
  } catch {
    return true;
  }
}
