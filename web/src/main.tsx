// Roboto as one variable font: every weight the theme uses (400 to 800) in one file of ~42 KB,
// not one file of ~22 KB per weight. Bundled (no font CDN); of its subsets the browser fetches
// only those the page's text needs (unicode-range): Latin for English.
import '@fontsource-variable/roboto/wght.css';
import { earlyStart } from './app/earlyStart';
import { PAGE_DATA_ID } from './lib/pageData';

// The page's first calls go out now (none of a guest's when the page came rendered with its data:
// lib/pageData.ts); its chunks with the app's modules (app/earlyStart.ts).
const loadPage = earlyStart(window.location.pathname, {
  withData: document.getElementById(PAGE_DATA_ID) !== null,
});

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

/*
 * Until the app is live, a tap on a prerendered button would do nothing (its handler is not
 * attached yet): the last one is held and replayed once the app says it is live. Hydration keeps
 * the DOM nodes, so the same button is clicked; over a frame (rendered, not hydrated: see
 * boot.tsx) the app's own button with the same label at the same place is. Links need no help:
 * they navigate as links do.
 */
const LIVE_EVENT = 'app:live';
let held: { button: HTMLElement; label: string; x: number; y: number } | null = null;

function labelOf(element: Element): string {
  return element.getAttribute('aria-label') ?? element.textContent ?? '';
}

function holdClick(event: MouseEvent): void {
  const target = event.target instanceof Element ? event.target : null;
  const button = target?.closest<HTMLElement>('button, [role="button"]');
  if (!button || !document.getElementById('root')?.contains(button)) return;
  event.preventDefault();
  event.stopPropagation();
  held = { button, label: labelOf(button), x: event.clientX, y: event.clientY };
}

function replayHeldClick(): void {
  document.removeEventListener('click', holdClick, true);
  if (!held) return;
  const { button, label, x, y } = held;
  held = null;
  if (button.isConnected) {
    button.click();
    return;
  }
  const now = document.elementFromPoint(x, y)?.closest<HTMLElement>('button, [role="button"]');
  if (now && labelOf(now) === label) now.click();
}

if (prerendered) {
  document.addEventListener('click', holdClick, true);
  window.addEventListener(LIVE_EVENT, replayHeldClick, { once: true });
}

async function start(): Promise<void> {
  if (prerendered) await nextFrame();
  loadPage();
  // Both requested now; React runs first (its chunk is one of the app's), in a task of its own,
  // and the app's modules once all of theirs have arrived: a break between them for input and
  // paint, and no wait for one download before the next starts.
  const react = import('react-dom/client');
  const app = import('./boot');
  await react;
  await app;
}

void start();
