import { useEffect } from 'react';
import {
  Navigate,
  Outlet,
  ScrollRestoration,
  isRouteErrorResponse,
  useLocation,
  useRouteError,
} from 'react-router';
import { ErrorPage } from '../components/ErrorPage';
import { LoginModal } from '../features/accounts/components/LoginModal';
import { EditProfileHost } from '../features/profiles/components/EditProfileHost';
import { UserCardHost } from '../features/profiles/components/UserCardHost';
import { PermissionPromptHost } from '../components/PermissionPromptHost';
import { AuthProvider } from '../lib/auth';
import { preloadOverlaysWhenIdle } from '../lib/lazyOverlay';

/** Any route containing `rooms` redirects home (spec 000 §2: the rooms feature is not offered). */
export function isRoomsPath(pathname: string): boolean {
  return pathname.toLowerCase().includes('rooms');
}

/**
 * The root route: session state, the login, edit-profile, user-card and permission modals, scroll
 * restoration, the rooms redirect.
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
    </AuthProvider>
  );
}

/** Error boundary of the routes: a thrown 404 shows 'page not found', anything else the generic error. */
export function RouteError() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  if (!isRouteErrorResponse(error)) console.error(error);
  return <ErrorPage status={status} />;
}
