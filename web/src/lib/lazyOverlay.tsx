import { useEffect, useState, type ComponentType } from 'react';

/** A component whose module loads on demand, with `preload` to fetch it ahead of use. */
export type LazyOverlay<P> = ComponentType<P> & { preload: () => Promise<unknown> };

const overlays: Array<() => Promise<unknown>> = [];

/**
 * A popup, dialog or banner that no first visit shows (menus, confirmations, toasts, the offline
 * warning): its module stays out of the entry chunk and loads when it is first rendered, or
 * earlier with {@link preloadOverlays} once the page is idle, so it is there when the user opens
 * it (no visible delay). Until loaded it renders nothing, as these do while closed. A failed load
 * (offline, a new deployment) renders nothing and is tried again on the next mount, instead of
 * breaking the page around it as a rejected `React.lazy` would.
 */
export function lazyOverlay<P extends object>(
  load: () => Promise<ComponentType<P>>,
): LazyOverlay<P> {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<ComponentType<P>> | null = null;
  const preload = () => {
    pending ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        pending = null;
        throw error;
      },
    );
    return pending;
  };
  overlays.push(preload);
  function Overlay(props: P) {
    const [Component, setComponent] = useState<ComponentType<P> | null>(() => loaded);
    useEffect(() => {
      if (Component) return;
      let live = true;
      preload().then(
        (component) => {
          if (live) setComponent(() => component);
        },
        () => undefined,
      );
      return () => {
        live = false;
      };
    }, [Component]);
    return Component ? <Component {...props} /> : null;
  }
  return Object.assign(Overlay, { preload });
}

/**
 * Fetches every overlay's module once the browser is idle after the first page rendered (they are
 * not part of the initial download, and are cached before the user can open one or go offline).
 */
export function preloadOverlaysWhenIdle(): () => void {
  const run = () => {
    for (const preload of overlays) preload().catch(() => undefined);
  };
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(run, { timeout: 5_000 });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = window.setTimeout(run, 2_000);
  return () => window.clearTimeout(handle);
}
