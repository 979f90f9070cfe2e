/**
 * The pages rendered at build time (web/src/prerender.tsx, infra/lib/build-web.ts): each public
 * page a guest may open first, by path, with the file of the web build that holds its markup.
 * Pages whose content is the visitor's own or a named record (profiles, items) are not among
 * them: their first paint needs the API. Every other client route gets the plain shell,
 * index.html. The local gateway and the CloudFront viewer-request function both serve from this
 * table, so the twin and AWS answer the same file for the same path.
 */
export interface PrerenderedPage {
  /** The file in the web build, relative to its root. */
  file: string;
}

export const PRERENDERED_PAGES: Readonly<Record<string, PrerenderedPage>> = {
  '/': { file: 'pages/home.html' },
  '/sellers': { file: 'pages/sellers.html' },
};

/** The shell every other client route loads. */
export const SPA_SHELL = 'index.html';

/** The file of the web build that answers a client route (a path whose last segment has no dot). */
export function webFileOf(pathname: string): string {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return PRERENDERED_PAGES[trimmed]?.file ?? SPA_SHELL;
}
