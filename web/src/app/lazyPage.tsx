import Box from '@mui/material/Box';
import { lazy, Suspense, type ComponentType } from 'react';

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
 */
export function lazyPage<Module>(
  load: () => Promise<Module>,
  pick: (module: Module) => ComponentType,
): LazyPage {
  const preload = () => load();
  const Page = lazy(async () => ({ default: pick(await load()) }));
  function LazyRoute() {
    return (
      <Suspense fallback={<PageFallback />}>
        <Page />
      </Suspense>
    );
  }
  return Object.assign(LazyRoute, { preload });
}
