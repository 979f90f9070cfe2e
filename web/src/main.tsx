// English only: the Latin subset of Roboto, bundled (no font CDN).
import '@fontsource/roboto/latin-400.css';
import '@fontsource/roboto/latin-500.css';
import '@fontsource/roboto/latin-600.css';
import '@fontsource/roboto/latin-700.css';
import '@fontsource/roboto/latin-800.css';

/*
 * A page rendered at build time is painted before any of the app's JavaScript is fetched or run:
 * its text, styles and fonts get the connection and the main thread first, and a phone that has
 * the JavaScript cached does not spend a second evaluating it before the page shows. The empty
 * shell has nothing to paint and starts at once (its HTML preloads the app's modules).
 */
const prerendered = Boolean(document.getElementById('root')?.firstElementChild);

function nextFrame(): Promise<void> {
  // A tab opened in the background paints nothing (and runs no animation frame) until shown.
  if (document.visibilityState === 'hidden') return Promise.resolve();
  return new Promise((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
  });
}

function yieldToBrowser(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/*
 * Until the app is live, a tap on a prerendered button would do nothing (its handler is not
 * attached yet): the last one is held and replayed on the same button (hydration keeps the DOM
 * nodes) once the app says it is live. Links need no help: they navigate as links do.
 */
const LIVE_EVENT = 'app:live';
let heldButton: HTMLElement | null = null;

function holdClick(event: MouseEvent): void {
  const target = event.target instanceof Element ? event.target : null;
  const button = target?.closest<HTMLElement>('button, [role="button"]');
  if (!button || !document.getElementById('root')?.contains(button)) return;
  event.preventDefault();
  event.stopPropagation();
  heldButton = button;
}

if (prerendered) {
  document.addEventListener('click', holdClick, true);
  window.addEventListener(
    LIVE_EVENT,
    () => {
      document.removeEventListener('click', holdClick, true);
      if (heldButton?.isConnected) heldButton.click();
      heldButton = null;
    },
    { once: true },
  );
}

async function start(): Promise<void> {
  if (prerendered) await nextFrame();
  // Each import runs the modules it adds in one task: React first, then the app, with a break
  // between them for input and paint.
  await import('react-dom/client');
  await yieldToBrowser();
  await import('./boot');
}

void start();
