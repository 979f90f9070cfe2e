import {
  createContext,
  useCallback,
  useContext,
  useDeferredValue,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useTranslation } from './i18n';
import { useLocation, useNavigate } from 'react-router';
import { apiPost, holdApiCalls, setApiSession, type ApiSession } from './api';
import {
  configureAuth,
  currentAccessToken,
  endSession,
  hasStoredSession,
  mayHaveStoredSession,
  readSession,
  refreshAccessToken,
  watchTokenRefresh,
  type SessionClaims,
} from './authClient';
import { useConfig } from './config';
import { toasts } from './toast';

/** The signed-in user as the shell needs it. */
export interface SessionUser {
  /** Our user id (the Cognito username). */
  id: string;
  email: string;
  /** Empty until known (the token or the sign-up answer names it). */
  nick: string;
  name: string;
  avatar: string | null;
  /** Whether the user has passed verification (e-mail and phone verified). */
  verified: boolean;
  /** Redeem space access: a number when the user is a redeemer (spec 001 §2), else null. */
  redeemer: number | null;
  /** Guest-flagged users do not see notifications. */
  guest: boolean;
}

export type AuthStatus = 'guest' | 'loading' | 'user';

export interface AuthState {
  status: AuthStatus;
  user: SessionUser | null;
  /** Whether login can work at all (the deployment has a user pool and /api/config answered). */
  available: boolean;
  /** Opens the login modal, coming back to `returnTo` (default: the current page) afterwards. */
  openLogin: (returnTo?: string) => void;
  closeLogin: () => void;
  /** The login modal's state: null while closed. */
  loginModal: { returnTo: string } | null;
  /**
   * Called when Cognito answered DONE: loads the session, then goes to `returnTo` unless it
   * contains `session`, else home with `loggedForFirstTime=true`.
   */
  finishLogin: (returnTo: string, hint?: { nick?: string }) => Promise<void>;
  /**
   * Where a login that just finished on a session page is heading (the guest-only pages send the
   * new user there rather than to /); null otherwise.
   */
  landing: string | null;
  /** Signs out everywhere (the refresh token is revoked), then goes home. */
  logout: () => Promise<void>;
}

export const LOGIN_PATH = '/session/login';
export const FIRST_LOGIN_PATH = '/?loggedForFirstTime=true';

/** Where to go after a login started from `returnTo` (spec 001 §2). */
export function afterLoginPath(returnTo: string | null | undefined): string {
  if (!returnTo || returnTo.includes('session')) return FIRST_LOGIN_PATH;
  return returnTo;
}

export const AuthContext = createContext<AuthState | null>(null);

function userFrom(claims: SessionClaims, nick?: string): SessionUser {
  return {
    id: claims.userId,
    email: claims.email,
    nick: claims.nick ?? nick ?? '',
    name: '',
    avatar: null,
    // Logging in takes both the e-mail and the phone pin.
    verified: true,
    redeemer: null,
    guest: false,
  };
}

/**
 * The session, backed by Amplify Auth against the deployment's Cognito user pool (GET /api/config
 * `auth`). Without a user pool every visitor stays a guest and login reports it is unavailable.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  // Deferred: the answer re-renders the shell in a transition, in slices, not in one long task.
  const config = useDeferredValue(useConfig());
  const settings = config.data?.auth ?? null;
  const configLoading = config.isPending;

  const [session, setSession] = useState<{ status: AuthStatus; user: SessionUser | null }>(() => {
    // Until the stored session is read, calls wait for it rather than go out without a token
    // (a reload of a logged-in page would otherwise answer 401 and show an error). With no
    // token stored at all there is nothing to wait for: the visitor is a guest.
    if (mayHaveStoredSession()) holdApiCalls();
    return { status: 'loading', user: null };
  });
  // Without a user pool (or without /api/config) everyone is a guest.
  const status: AuthStatus = configLoading ? 'loading' : settings ? session.status : 'guest';
  const user = status === 'user' ? session.user : null;
  const [loginModal, setLoginModal] = useState<{ returnTo: string } | null>(null);
  const [landing, setLanding] = useState<string | null>(null);

  const here = useRef('/');
  const current = `${location.pathname}${location.search}`;
  useEffect(() => {
    here.current = current;
  }, [current]);
  // Once off the session pages, a finished login has landed.
  const onSessionPage = location.pathname.includes('session');
  if (landing !== null && !onSessionPage) setLanding(null);

  const statusRef = useRef<AuthStatus>('loading');
  useEffect(() => {
    statusRef.current = status;
  }, [status]);

  /** A session that was there is gone: tell the user and become a guest. */
  const expire = useCallback(() => {
    if (statusRef.current !== 'user') return;
    statusRef.current = 'guest';
    setApiSession(null);
    setSession({ status: 'guest', user: null });
    toasts.show({ severity: 'warning', message: t('session.expired') });
    void endSession(false);
  }, [t]);
  const expireRef = useRef(expire);
  useEffect(() => {
    expireRef.current = expire;
  }, [expire]);

  /**
   * What the API client authenticates with while logged in. It is installed before the status
   * becomes 'user', so no page's first call can go out without the token.
   */
  const apiSession = useMemo<ApiSession>(
    () => ({
      accessToken: async () => {
        try {
          const token = await currentAccessToken();
          if (!token) expireRef.current();
          return token;
        } catch {
          expireRef.current();
          return undefined;
        }
      },
      refreshAccessToken: () => refreshAccessToken().catch(() => undefined),
      onUnauthorized: () => expireRef.current(),
    }),
    [],
  );

  // Without a user pool, or when /api/config failed, there is no session to wait for.
  useEffect(() => {
    if (!configLoading && !settings) setApiSession(null);
  }, [configLoading, settings]);

  // Configure Amplify once /api/config answers, then restore a stored session (Amplify loads only
  // when the browser holds one).
  useEffect(() => {
    if (configLoading || !settings) return;
    let active = true;
    const become = (claims: SessionClaims | null) => {
      if (!active) return;
      setApiSession(claims ? apiSession : null);
      setSession(claims ? { status: 'user', user: userFrom(claims) } : guest());
    };
    configureAuth(settings)
      .then(() => (hasStoredSession(settings) ? readSession() : null))
      .then(become)
      .catch(() => become(null));
    return () => {
      active = false;
    };
  }, [configLoading, settings, apiSession]);

  // While logged in, a refresh token Amplify can no longer use ends the session.
  const loggedIn = status === 'user';
  useEffect(() => {
    if (!loggedIn) return;
    let stop: (() => void) | undefined;
    let active = true;
    void watchTokenRefresh(expire).then((unsubscribe) => {
      if (active) stop = unsubscribe;
      else unsubscribe();
    });
    return () => {
      active = false;
      stop?.();
    };
  }, [loggedIn, expire]);

  const openLogin = useCallback((returnTo?: string) => {
    setLoginModal({ returnTo: returnTo ?? here.current });
  }, []);
  const closeLogin = useCallback(() => setLoginModal(null), []);

  const finishLogin = useCallback(
    async (returnTo: string, hint?: { nick?: string }) => {
      const claims = await readSession();
      if (!claims) throw new Error('No session after login');
      const target = afterLoginPath(returnTo);
      statusRef.current = 'user';
      // The guest-only pages redirect a user; `landing` sends the new one to the same target.
      if (here.current.includes('session')) setLanding(target);
      setApiSession(apiSession);
      setSession({ status: 'user', user: userFrom(claims, hint?.nick) });
      setLoginModal(null);
      await navigate(target, { replace: returnTo.includes('session') });
    },
    [navigate, apiSession],
  );

  const logout = useCallback(async () => {
    // Revoke every session of the user on our side first (the API then refuses tokens issued
    // before now, which API Gateway's JWT check alone would accept until they expire). A 401 means
    // the session was already over; nothing else stops the logout.
    await apiPost('/session/logout', {}).catch(() => undefined);
    // Stop using the session, so calls in flight during sign-out do not "expire" it.
    statusRef.current = 'guest';
    setApiSession(null);
    await endSession(true);
    setSession(guest());
    await navigate('/');
  }, [navigate]);

  const value = useMemo<AuthState>(
    () => ({
      status,
      user,
      available: settings !== null,
      openLogin,
      closeLogin,
      loginModal,
      landing,
      finishLogin,
      logout,
    }),
    [status, user, settings, openLogin, closeLogin, loginModal, landing, finishLogin, logout],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

function guest(): { status: AuthStatus; user: SessionUser | null } {
  return { status: 'guest', user: null };
}

export function useAuth(): AuthState {
  const state = useContext(AuthContext);
  if (!state) throw new Error('useAuth must be used inside <AuthProvider>');
  return state;
}
