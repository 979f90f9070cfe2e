import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { editProfileModal } from '../lib/editProfileStore';
import { permissionPrompt } from '../lib/permission';
import { toasts } from '../lib/toast';
import { userCard } from '../lib/userCardStore';
import { DESKTOP_WIDTH, setViewportWidth } from './viewport';

// jsdom does not implement scrolling; ScrollRestoration calls it on every navigation.
window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;

// Tests render the desktop layout unless they choose a width (test/viewport.ts).
setViewportWidth(DESKTOP_WIDTH);

// No test globals in this repo, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  toasts.clear();
  // The app-wide modal stores outlive a test's render.
  userCard.close();
  permissionPrompt.close();
  editProfileModal.close();
  setViewportWidth(DESKTOP_WIDTH);
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
