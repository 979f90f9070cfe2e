import { useEffect, useState, type ComponentType, type ReactNode } from 'react';

/** A component whose module loads on demand, with `preload` to fetch it ahead of use. */
export type LazyOverlay<P> = ComponentType<P> & { preload: () => Promise<unknown> };

const overlays: Array<() => Promise<unknown>> = [];

export interface LazyOverlayOptions<P> {
  /**
   * Whether {@link preloadOverlaysWhenIdle} fetches it (default true). False for what only some
   * visitors ever see (the notifications bell, a signed-in user's): it loads when first rendered.
   */
  preloadWhenIdle?: boolean;
  /** What shows until the module is here (default nothing). */
  fallback?: (props: P) => ReactNode;
}

/**
 * A popup, dialog or banner that no first visit shows (menus, confirmations, toasts, the offline
 * warning): its module stays out of the entry chunk and loads when it is first rendered, or
 * earlier with {@link preloadOverlaysWhenIdle} once the page has loaded, so it is there when the user opens
 * it (no visible delay). Until loaded it renders nothing (or `fallback`), as these do while
 * closed. A failed load (offline, a new deployment) renders nothing and is tried again on the next
 * mount, instead of breaking the page around it as a rejected `React.lazy` would.
 */
export function lazyOverlay<P extends object>(
  load: () => Promise<ComponentType<P>>,
  options: LazyOverlayOptions<P> = {},
): LazyOverlay<P> {
  const { preloadWhenIdle = true, fallback } = options;
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
  if (preloadWhenIdle) overlays.push(preload);
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
    if (Component) return <Component {...props} />;
    return fallback ? fallback(props) : null;
  }
  return Object.assign(Overlay, { preload });
}

/** How long after the page's load event the overlays start to load (the page's data first). */
export const OVERLAY_PRELOAD_DELAY_MS = 3_000;

/**
 * Fetches every overlay's module once the page has loaded and the browser is idle (they are not
 * part of the initial download, and are cached before the user can open one or go offline): not
 * before the load event and a quiet moment after it, so they never compete with the page's own
 * data, images and fonts on a slow link; one module per idle period, so no single long task.
 */
export function preloadOverlaysWhenIdle(): () => void {
  let cancelled = false;
  let cancelStep: () => void = () => undefined;
  const whenIdle = (run: () => void) => {
    if (typeof window.requestIdleCallback === 'function') {
      const handle = window.requestIdleCallback(run, { timeout: 5_000 });
      cancelStep = () => window.cancelIdleCallback(handle);
    } else {
      const handle = window.setTimeout(run, 0);
      cancelStep = () => window.clearTimeout(handle);
    }
  };
  const next = (index: number) => {
    const preload = overlays[index];
    if (cancelled || !preload) return;
    whenIdle(() => {
      preload().catch(() => undefined);
      next(index + 1);
    });
  };
  const afterLoad = () => {
    const handle = window.setTimeout(() => next(0), OVERLAY_PRELOAD_DELAY_MS);
    cancelStep = () => window.clearTimeout(handle);
  };
  if (document.readyState === 'complete') afterLoad();
  else {
    window.addEventListener('load', afterLoad, { once: true });
    cancelStep = () => window.removeEventListener('load', afterLoad);
  }
  return () => {
    cancelled = true;
    cancelStep();
  };
}
