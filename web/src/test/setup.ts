import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeAll, vi } from 'vitest';
import { setApiSession } from '../lib/api';
import { becomeMinterModal } from '../lib/becomeMinterStore';
import { editProfileModal } from '../lib/editProfileStore';
import { permissionPrompt } from '../lib/permission';
import { toasts } from '../lib/toast';
import { userCard } from '../lib/userCardStore';
import { preloadLazyRoutes } from './utils';
import { DESKTOP_WIDTH, setViewportWidth } from './viewport';

// findBy*/waitFor poll for up to 5 s (the default 1 s is too short on a loaded 2-core CI machine,
// where a page's first render alone can take longer; what they wait for is unchanged).
configure({ asyncUtilTimeout: 5_000 });

// jsdom does not implement scrolling; ScrollRestoration (lib/navigation.tsx) calls it on navigation.
window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;

// Tests render the desktop layout unless they choose a width (test/viewport.ts).
setViewportWidth(DESKTOP_WIDTH);

/*
 * The app's pages and modals are lazy modules (their own chunks in the build). Loading each one
 * here, before the tests (and after the test file's vi.mock calls), keeps Vite's first transform of
 * a page out of the tests' waits: a test then sees a lazy page as soon as the router would in a
 * browser with the chunk cached.
 */
beforeAll(async () => {
  const { routes } = await import('../app/routes');
  await preloadLazyRoutes(routes);
  await Promise.all([
    import('../features/accounts/components/LoginDialog'),
    import('../features/profiles/components/EditProfileModal'),
    import('../features/profiles/components/UserCardModal'),
    import('../features/payments/components/BecomeMinterModal'),
  ]);
});

// No test globals in this repo, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  toasts.clear();
  // The app-wide modal stores outlive a test's render.
  userCard.close();
  permissionPrompt.close();
  editProfileModal.close();
  becomeMinterModal.close();
  // The API client's session (and a hold left by an AuthProvider that never settled).
  setApiSession(null);
  setViewportWidth(DESKTOP_WIDTH);
  window.localStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
