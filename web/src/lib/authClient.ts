import type { ConfirmSignInOutput, SignInOutput } from 'aws-amplify/auth';
import type { PublicConfig } from '@shared/schemas/system';

/** The Cognito settings of GET /api/config (null: this deployment has no user pool). */
export type AuthSettings = NonNullable<PublicConfig['auth']>;

/*
 * Amplify is loaded on demand (its own chunk), by the first call that needs it: restoring a stored
 * session, logging in, signing out. A visitor without a stored session never downloads it.
 */
let settings: AuthSettings | null = null;
let configuredFor: string | null = null;

/**
 * Records the deployment's user pool; Amplify is configured with it when it loads. `endpoint` is
 * the twin's local Cognito-compatible endpoint (null in AWS, where Amplify derives it from the
 * region).
 */
export async function configureAuth(next: AuthSettings): Promise<void> {
  settings = next;
}

/** Amplify Auth, loaded and configured for the recorded user pool. */
async function auth() {
  const [{ Amplify }, module] = await Promise.all([
    import('aws-amplify'),
    import('aws-amplify/auth'),
  ]);
  const key = settings ? JSON.stringify(settings) : null;
  if (settings && configuredFor !== key) {
    Amplify.configure({
      Auth: {
        Cognito: {
          userPoolId: settings.userPoolId,
          userPoolClientId: settings.userPoolClientId,
          ...(settings.endpoint ? { userPoolEndpoint: settings.endpoint } : {}),
        },
      },
    });
    configuredFor = key;
  }
  return module;
}

export { hasStoredSession, mayHaveStoredSession } from './storedSession';

/** Who is signed in, read from the ID token's claims. */
export interface SessionClaims {
  userId: string;
  email: string;
  /** The nick, when the pool puts it in the token. */
  nick: string | null;
}

function claim(payload: Record<string, unknown>, ...names: string[]): string | null {
  for (const name of names) {
    const value = payload[name];
    if (typeof value === 'string' && value !== '') return value;
  }
  return null;
}

/**
 * The stored session (refreshing the access token when it has expired), or null when there is
 * none. Throws when a refresh was needed and failed.
 */
export async function readSession(forceRefresh = false): Promise<SessionClaims | null> {
  const { fetchAuthSession } = await auth();
  const { tokens } = await fetchAuthSession({ forceRefresh });
  if (!tokens?.accessToken) return null;
  const payload = (tokens.idToken?.payload ?? tokens.accessToken.payload) as Record<
    string,
    unknown
  >;
  // Our user id is the Cognito username (the id token's `cognito:username`, the access token's
  // `username`); `sub` is a UUID Cognito generates and is never our id.
  const userId = claim(payload, 'cognito:username', 'username');
  if (!userId) return null;
  return {
    userId,
    email: claim(payload, 'email') ?? '',
    nick: claim(payload, 'nickname', 'custom:nick', 'preferred_username'),
  };
}

/** The current access token (Amplify refreshes it when it has expired), or undefined. */
export async function currentAccessToken(): Promise<string | undefined> {
  const { fetchAuthSession } = await auth();
  const { tokens } = await fetchAuthSession();
  return tokens?.accessToken.toString();
}

/**
 * A new access token from the refresh token, even if the current one has not expired (the API
 * refused it); undefined when there is no session or the refresh token is no longer valid.
 */
export async function refreshAccessToken(): Promise<string | undefined> {
  const { fetchAuthSession } = await auth();
  const { tokens } = await fetchAuthSession({ forceRefresh: true });
  return tokens?.accessToken.toString();
}

/** Step 0: starts the custom (pin) flow for an e-mail. */
export async function startPinSignIn(email: string): Promise<SignInOutput> {
  const { signIn } = await auth();
  return signIn({ username: email, options: { authFlowType: 'CUSTOM_WITHOUT_SRP' } });
}

/**
 * Step 0 while the passwordLogin switch is on: USER_PASSWORD_AUTH (the web client allows it only
 * then, in AWS and on the twin); Cognito answers tokens at once, no pins.
 */
export async function startPasswordSignIn(email: string, password: string): Promise<SignInOutput> {
  const { signIn } = await auth();
  return signIn({ username: email, password, options: { authFlowType: 'USER_PASSWORD_AUTH' } });
}

/** Steps 1 and 2: answers the current challenge (a pin, or RESEND for a new one). */
export async function answerChallenge(answer: string): Promise<ConfirmSignInOutput> {
  const { confirmSignIn } = await auth();
  return confirmSignIn({ challengeResponse: answer });
}

export const RESEND_ANSWER = 'RESEND';

/** Ends the session: `global` also revokes the refresh token on every device. */
export async function endSession(global: boolean): Promise<void> {
  const { signOut } = await auth();
  try {
    await signOut({ global });
  } catch {
    // A global sign-out that cannot reach Cognito still has to forget the local tokens.
    if (global) await signOut().catch(() => undefined);
  }
}

/** Calls `onFailure` when Amplify cannot refresh the tokens; returns the unsubscribe. */
export async function watchTokenRefresh(onFailure: () => void): Promise<() => void> {
  const { Hub } = await import('aws-amplify/utils');
  return Hub.listen('auth', ({ payload }) => {
    if (payload.event === 'tokenRefresh_failure') onFailure();
  });
}
