import { isProfileNick, PROFILE_NICK, RESERVED_SEGMENTS } from '../../shared/profilePaths';

/**
 * The pages rendered at build time (web/src/prerender.tsx, infra/lib/build-web.ts): each public
 * page a guest may open first, by path, with the file of the web build that holds its markup.
 * Pages whose content is a named record (profiles) get a frame instead (PAGE_FRAMES). Every other
 * client route gets the plain shell, index.html. The local gateway and the CloudFront
 * viewer-request function both serve from these tables, so the twin and AWS answer the same file
 * for the same path.
 */
export interface PrerenderedPage {
  /** The file in the web build, relative to its root. */
  file: string;
}

export const PRERENDERED_PAGES: Readonly<Record<string, PrerenderedPage>> = {
  '/': { file: 'pages/home.html' },
  '/sellers': { file: 'pages/sellers.html' },
};

/**
 * A page whose content is a record named in its path: its frame (the bars, the footer and the
 * page's loading state, the same for every record) is rendered at build time once, at `sample`,
 * and the app replaces it with the record's page (main.tsx: rendered, not hydrated). A first
 * visit sees the page's layout at once instead of a blank screen until the app has run.
 */
export interface PageFrame {
  file: string;
  /** The path the frame is rendered at: any path of the pattern (the frame shows no record). */
  sample: string;
}

/** `/:usernick`, a public profile: the first segment alone, a nick and not a reserved word. */
export const PROFILE_FRAME: PageFrame = {
  file: 'pages/profile.html',
  sample: '/aaa',
};

export const PAGE_FRAMES: readonly PageFrame[] = [PROFILE_FRAME];

/** What the CDN's routing needs to recognise a profile path (its function cannot import). */
export const PROFILE_PATH = { nick: PROFILE_NICK.source, reserved: [...RESERVED_SEGMENTS] };

/** The shell every other client route loads. */
export const SPA_SHELL = 'index.html';

/** The file of the web build that answers a client route (a path whose last segment has no dot). */
export function webFileOf(pathname: string): string {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const page = PRERENDERED_PAGES[trimmed];
  if (page) return page.file;
  const segments = trimmed.split('/').filter((segment) => segment !== '');
  if (segments.length === 1 && isProfileNick(segments[0] ?? '')) return PROFILE_FRAME.file;
  return SPA_SHELL;
}
