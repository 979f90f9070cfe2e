import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll, vi } from 'vitest';
import { editProfileModal } from '../lib/editProfileStore';
import { permissionPrompt } from '../lib/permission';
import { toasts } from '../lib/toast';
import { userCard } from '../lib/userCardStore';
import { preloadLazyRoutes } from './utils';

// jsdom does not implement scrolling; ScrollRestoration calls it on every navigation.
window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;

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
  window.localStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
