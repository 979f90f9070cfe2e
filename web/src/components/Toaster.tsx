import { useSyncExternalStore } from 'react';
import { lazyOverlay } from '../lib/lazyOverlay';
import { toasts, type Toast } from '../lib/toast';

/* The snackbar (and MUI's Snackbar and Alert) load on demand: no first visit shows a toast. */
const ToastSnackbar = lazyOverlay<{ current: Toast }>(
  async () => (await import('./ToastSnackbar')).ToastSnackbar,
);

/** Shows the toast queue one at a time (10 s each unless the toast says otherwise). */
export function Toaster() {
  const queue = useSyncExternalStore(toasts.subscribe, toasts.getQueue, toasts.getQueue);
  const current = queue[0];
  if (!current) return null;
  return <ToastSnackbar current={current} />;
}
