import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { toasts } from '../lib/toast';

// jsdom does not implement scrolling; ScrollRestoration calls it on every navigation.
window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;

// No test globals in this repo, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  toasts.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
