import type { Registered } from '../../shared/schemas/accounts';
import { logIn as logInTokens } from '../accounts/testing/session';

/**
 * Kept for tests that imported it before the shared helper existed: everything now comes from
 * functions/accounts/testing/session.ts (sign-up and the real login through the twin's local
 * Cognito). Only `logIn` differs: it answers the access token alone. New tests should import the
 * shared helper directly.
 */
export { call, hasCognito, newUser, signUp, type TestUser } from '../accounts/testing/session';

export async function logIn(user: Pick<Registered, 'email' | 'phone'>): Promise<string> {
  return (await logInTokens(user)).accessToken;
}
