import Box from '@mui/material/Box';
import { lazy, Suspense, useState, type ComponentType } from 'react';

/** A page loaded on demand, with `preload` to fetch its chunk ahead of rendering. */
export type LazyPage = ComponentType & { preload: () => Promise<unknown> };

/**
 * While a page's chunk loads: an empty area a screen tall, so the footer stays below the fold
 * and the page appears into free space (nothing on screen moves). Navigations between pages run
 * in a transition, so the previous page stays until the next one is ready; this shows only on
 * the first page of a visit.
 */
function PageFallback() {
  return <Box aria-busy="true" sx={{ minHeight: '100vh' }} />;
}

/**
 * A route component whose module loads on demand (its own chunk): the first visit downloads the
 * shell (root, layouts, guards) and the page it opens, nothing else. `pick` names the export.
 * Once `preload` has fetched the module, the page renders at once (no suspense): boot.tsx
 * preloads the page a prerendered HTML shows before hydrating it, so hydration finishes in one
 * go and no update can reach a boundary still waiting for its chunk (React would then drop the
 * server markup and render it again).
 */
export function lazyPage<Module>(
  load: () => Promise<Module>,
  pick: (module: Module) => ComponentType,
): LazyPage {
  let loaded: ComponentType | undefined;
  const preload = () =>
    load().then((module) => {
      loaded ??= pick(module);
      return module;
    });
  const Lazy = lazy(async () => ({ default: pick(await preload()) }));
  function LazyRoute() {
    // Chosen once per mount: switching from the lazy wrapper to the loaded page would remount it.
    const [Page] = useState<ComponentType>(() => loaded ?? Lazy);
    return (
      <Suspense fallback={<PageFallback />}>
        <Page />
      </Suspense>
    );
  }
  return Object.assign(LazyRoute, { preload });
}
