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

/**
 * The page call that renders a public profile on request (functions/pages): the CDN and the local
 * gateway send a profile's path to it, the rest of the web build answers from files.
 */
export const PROFILE_PAGE_CALL = '/api/pages/profile/';

/** The page call answering `pathname`, when it is a public profile's path; else undefined. */
export function pageCallOf(pathname: string): string | undefined {
  return webFileOf(pathname) === PROFILE_FRAME.file
    ? `${PROFILE_PAGE_CALL}${pathname.replace(/\/+$/, '').slice(1)}`
    : undefined;
}

/**
 * Where the server build of the web build in `outDir` goes (dist/web → dist/web-render), with
 * what the page call needs besides (functions/pages/renderer.ts RENDER_FILES): index.html as
 * Vite wrote it (the template of a page rendered on request) and the profile's frame (its answer
 * when the render cannot be made). Not uploaded to the CDN.
 */
export function renderDirOf(outDir: string): string {
  return `${outDir.replace(/[/\\]+$/, '')}-render`;
}

/** The file of the web build that answers a client route (a path whose last segment has no dot). */
export function webFileOf(pathname: string): string {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const page = PRERENDERED_PAGES[trimmed];
  if (page) return page.file;
  const segments = trimmed.split('/').filter((segment) => segment !== '');
  if (segments.length === 1 && isProfileNick(segments[0] ?? '')) return PROFILE_FRAME.file;
  return SPA_SHELL;
}
