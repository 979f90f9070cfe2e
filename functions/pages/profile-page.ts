import type { ItemPage } from '../../shared/schemas/items';
import type { PublicProfile } from '../../shared/schemas/profiles';
import { HtmlReply } from '../core/http';
import { DomainError, isDomainError } from '../core/errors';

/** The web's server render (the web build's `render.mjs`, read by renderer.ts). */
export interface PageRenderer {
  /** The whole document of the profile page at `url` (`<web origin>/<nick>`), from its data. */
  renderProfile(url: string, data: { profile: PublicProfile; items: ItemPage }): Promise<string>;
  /** The profile's frame (bars, footer, its loading state): the app renders the page over it. */
  readonly frame: string;
}

export interface PagesDeps {
  /** The public profile of `nick` (profiles); throws 404 `users.errors.not_found`. */
  profile(nick: string): Promise<PublicProfile>;
  /** The first page of the items `nick` shows on the profile (items' getpublicproducts). */
  publicItems(nick: string): Promise<ItemPage>;
  renderer(): Promise<PageRenderer>;
  webOrigin: string;
  /** A failure the visitor does not see (they get the frame, and the app loads the page). */
  reportFailure(message: string, error: unknown): void;
}

/**
 * A rendered profile is cached by the CDN for a minute (a change shows to new visitors within
 * it; the app refreshes data older than its 30 s freshness after hydrating) and by browsers not at
 * all: a reload asks again.
 */
export const RENDERED_CACHE = 'public, max-age=0, s-maxage=60';
/** An unknown nick: the same, so a burst of requests for it does not reach the table each time. */
export const NOT_FOUND_CACHE = 'public, max-age=0, s-maxage=60';
/** The frame after a failure: never kept, the next request tries again. */
export const FALLBACK_CACHE = 'no-store';

function frame(renderer: PageRenderer, status: number, cache: string): HtmlReply {
  return new HtmlReply(status, renderer.frame, { 'cache-control': cache });
}

/**
 * GET /api/pages/profile/{nick}: the profile's page rendered with its data. An unknown nick gets
 * the frame with 404 (the app shows its not-found page); if the data or the render fails, the
 * frame with 200, uncached, and the app loads the profile itself, as it would without this call.
 * Without the web build there is no page at all: 503 `unavailable`.
 */
export async function profilePage(deps: PagesDeps, nick: string): Promise<HtmlReply> {
  let renderer: PageRenderer;
  try {
    renderer = await deps.renderer();
  } catch (error) {
    // No web build beside the call (a deploy made without `npm run build:web`): nothing to serve.
    deps.reportFailure('profile page: the web build cannot be read', error);
    throw new DomainError('unavailable', { message: 'This page cannot be shown right now.' });
  }
  let data: { profile: PublicProfile; items: ItemPage };
  try {
    const [profile, items] = await Promise.all([deps.profile(nick), deps.publicItems(nick)]);
    data = { profile, items };
  } catch (error) {
    if (isDomainError(error) && error.status === 404) {
      return frame(renderer, 404, NOT_FOUND_CACHE);
    }
    deps.reportFailure('profile page: its data could not be read; the frame is served', error);
    return frame(renderer, 200, FALLBACK_CACHE);
  }
  try {
    const html = await renderer.renderProfile(`${deps.webOrigin}/${nick}`, data);
    return new HtmlReply(200, html, { 'cache-control': RENDERED_CACHE });
  } catch (error) {
    deps.reportFailure('profile page: the render failed; the frame is served', error);
    return frame(renderer, 200, FALLBACK_CACHE);
  }
}
