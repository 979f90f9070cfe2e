import { lazyOverlay } from '../lib/lazyOverlay';
import { useOnline } from '../lib/useOnline';

/*
 * The banner loads on demand, but early: preloadOverlaysWhenIdle fetches it while the browser is
 * still online, so it can show when the connection drops.
 */
const OfflineBanner = lazyOverlay(async () => (await import('./OfflineBanner')).OfflineBanner);

/** A banner shown while the browser is offline. */
export function OfflineWarning() {
  const online = useOnline();
  if (online) return null;
  return <OfflineBanner />;
}
