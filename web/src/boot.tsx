/**
 * Starts the app (main.tsx imports this once the page has painted): hydrates a page rendered at
 * build time, or renders into the empty shell.
 */
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/App';
import { preloadPagesAt } from './app/routes';

/**
 * Both run as a transition: React renders in slices and yields to the browser between them, so
 * starting the app does not block a tap or a scroll for long. Not a top-level await: a page chunk
 * importing from this module's chunk would then wait for this module, which waits for the page.
 */
async function start(container: HTMLElement): Promise<void> {
  const app = (
    <StrictMode>
      <App />
    </StrictMode>
  );
  if (container.firstElementChild && !container.hasAttribute('data-frame')) {
    // A page rendered at build time (infra/lib/build-web.ts): already on screen; make it live
    // once its page chunks are here (see lazyPage).
    await preloadPagesAt(window.location.pathname);
    startTransition(() => {
      hydrateRoot(container, app);
    });
  } else {
    // The empty shell, or a page's frame (infra/lib/web-pages.ts PAGE_FRAMES): React replaces the
    // frame with the page when it commits. The page's chunks come first, so that commit shows the
    // page (or its loading state, which the frame already shows), never an empty area.
    if (container.firstElementChild) await preloadPagesAt(window.location.pathname);
    const root = createRoot(container);
    startTransition(() => {
      root.render(app);
    });
  }
}

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
void start(container);
