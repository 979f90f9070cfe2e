import { Component, useEffect, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { ErrorPage } from '../components/ErrorPage';
import { LoginModal } from '../features/accounts/components/LoginModal';
import { EditProfileHost } from '../features/profiles/components/EditProfileHost';
import { UserCardHost } from '../features/profiles/components/UserCardHost';
import { PermissionPromptHost } from '../components/PermissionPromptHost';
import { AuthProvider } from '../lib/auth';
import { lazyOverlay, preloadOverlaysWhenIdle } from '../lib/lazyOverlay';
import { ScrollRestoration } from '../lib/navigation';

/*
 * The become-minter host (and its store) is not in the first download: a guest's first page never
 * needs it; it is fetched once idle like the other overlays, and only shows for a signed-in user.
 */
const BecomeMinterHost = lazyOverlay<object>(
  async () => (await import('../features/payments/components/BecomeMinterHost')).BecomeMinterHost,
);

/** Any route containing `rooms` redirects home (spec 000 §2: the rooms feature is not offered). */
export function isRoomsPath(pathname: string): boolean {
  return pathname.toLowerCase().includes('rooms');
}

/**
 * The root route: session state, the login, edit-profile, user-card, permission and become-minter
 * modals, scroll restoration, the rooms redirect.
 */
export function Root() {
  const { pathname } = useLocation();
  // Menus, dialogs, toasts and the offline banner are not in the first download: fetched once idle.
  useEffect(() => preloadOverlaysWhenIdle(), []);
  // The page answers input from here on (a prerendered page is on screen before this; main.tsx
  // replays a tap it held until now).
  useEffect(() => {
    document.documentElement.dataset.app = 'live';
    window.dispatchEvent(new Event('app:live'));
  }, []);
  if (isRoomsPath(pathname)) return <Navigate to="/" replace />;
  return (
    <AuthProvider>
      <ScrollRestoration />
      <Outlet />
      <LoginModal />
      <EditProfileHost />
      <UserCardHost />
      <PermissionPromptHost />
      <BecomeMinterHost />
    </AuthProvider>
  );
}

interface ErrorBoundaryProps {
  /** The page the boundary guards: a new one clears the error. */
  resetKey: string;
  children: ReactNode;
}

/**
 * Catches what a page throws while rendering (a chunk that failed to load, a defect): the generic
 * error page in its place, with the layout around it kept, until the user goes to another page.
 */
class ErrorBoundary extends Component<ErrorBoundaryProps, { failed: boolean; resetKey: string }> {
  override state = { failed: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(): Partial<{ failed: boolean }> {
    return { failed: true };
  }

  static getDerivedStateFromProps(
    props: ErrorBoundaryProps,
    state: { failed: boolean; resetKey: string },
  ) {
    return props.resetKey === state.resetKey ? null : { failed: false, resetKey: props.resetKey };
  }

  override componentDidCatch(error: unknown): void {
    console.error(error);
  }

  override render() {
    return this.state.failed ? <ErrorPage status={500} /> : this.props.children;
  }
}

/** A route around a group of pages: an error in one shows the error page inside the layout. */
export function RouteBoundary() {
  const { pathname } = useLocation();
  return (
    <ErrorBoundary resetKey={pathname}>
      <Outlet />
    </ErrorBoundary>
  );
}
