import { createContext, useContext, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';

/** The signed-in user as the shell needs it (filled in by the accounts feature). */
export interface SessionUser {
  id: string;
  nick: string;
  name: string;
  avatar: string | null;
  /** Whether the user has passed verification (shows Verify or Market in the bars). */
  verified: boolean;
  /** Redeem space access: a number when the user is a redeemer (spec 001 §2), else null. */
  redeemer: number | null;
  /** Guest-flagged users do not see notifications. */
  guest: boolean;
}

export interface AuthState {
  status: 'guest' | 'authenticated';
  user: SessionUser | null;
  /** Starts the login flow, coming back to `returnTo` (default: the current page) afterwards. */
  openLogin: (returnTo?: string) => void;
}

export const LOGIN_PATH = '/session/login';

export const AuthContext = createContext<AuthState | null>(null);

/**
 * Session state. Sign-in arrives with the accounts feature; until then every visitor is a guest
 * and `openLogin` goes to the spec's login route.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const location = useLocation();
  const here = useRef('/');
  const current = `${location.pathname}${location.search}`;
  useEffect(() => {
    here.current = current;
  }, [current]);
  const value = useMemo<AuthState>(
    () => ({
      status: 'guest',
      user: null,
      openLogin: (returnTo?: string) => {
        void navigate(LOGIN_PATH, { state: { returnTo: returnTo ?? here.current } });
      },
    }),
    [navigate],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const state = useContext(AuthContext);
  if (!state) throw new Error('useAuth must be used inside <AuthProvider>');
  return state;
}
