/**
 * The server render of the public pages, as a guest sees them, with the critical CSS of what they
 * show. The browser paints this markup at once and the client hydrates it (main.tsx, boot.tsx),
 * so a first visit shows the page before the JavaScript has downloaded.
 *  - At build time (infra/lib/build-web.ts): the pages without data of their own (`/`, `/sellers`)
 *    as they look before any data arrives, and the frames of the record pages.
 *  - On request (functions/pages, the page call): a public profile with its data, which the HTML
 *    carries for the app's query cache (lib/pageData.ts).
 */
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import createEmotionServer from '@emotion/server/create-instance';
import { publicProfileSchema } from '@shared/schemas/profiles';
import { itemPageSchema } from '@shared/schemas/items';
import { dehydrate, type QueryClient } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { AppProviders, createQueryClient } from './app/providers';
import { AppRoutes, preloadPagesAt } from './app/routes';
import { itemKeys } from './features/items/api/items';
import { profileKeys } from './features/profiles/api/profiles';
import { metaTags, PageMetaCollector, type PageMeta } from './lib/head';
import { pageDataScript } from './lib/pageData';

export interface RenderedPage {
  /** The markup of #root. */
  html: string;
  /** `<style data-emotion>` tags for the head: the styles the markup uses. */
  styles: string;
}

interface Rendered extends RenderedPage {
  /** What the page reported for the head (lib/head.ts usePageMeta), if it did. */
  meta: PageMeta | undefined;
}

/** Renders the page at `pathname` as a guest, from what `queryClient` holds: every chunk loaded. */
async function render(pathname: string, queryClient: QueryClient): Promise<Rendered> {
  // The client's default cache key: hydration finds these styles and does not insert them again.
  const cache = createCache({ key: 'css' });
  const { extractCriticalToChunks, constructStyleTagsFromChunks } = createEmotionServer(cache);
  let meta: PageMeta | undefined;
  const collect = (reported: PageMeta) => {
    meta = reported;
  };
  const app = () => (
    <CacheProvider value={cache}>
      <PageMetaCollector value={collect}>
        <AppProviders queryClient={queryClient}>
          <StaticRouter location={pathname}>
            <AppRoutes />
          </StaticRouter>
        </AppProviders>
      </PageMetaCollector>
    </CacheProvider>
  );
  // The page's chunks first, as boot.tsx loads them before hydrating: the one render then has
  // every page resolved, so the markup is complete (a page rendered on request pays one render).
  await preloadPagesAt(pathname);
  const html = renderToString(app());
  // A boundary that still suspended would leave its fallback to be rendered on the client.
  if (html.includes('<!--$!-->') || html.includes('<!--$?-->') || html.includes('<script'))
    throw new Error(`${pathname} rendered an unresolved Suspense boundary: a page still suspends`);
  return { html, styles: constructStyleTagsFromChunks(extractCriticalToChunks(html)), meta };
}

/** Renders the page at `pathname` as a guest on a first visit, before any data has arrived. */
export async function renderPage(pathname: string): Promise<RenderedPage> {
  const { html, styles } = await render(pathname, createQueryClient());
  return { html, styles };
}

/** The answers a public profile's page is rendered with, as its calls give them (`data`). */
export interface ProfilePageData {
  /** GET /api/users/get-by-nickname/{nick}. */
  profile: unknown;
  /** POST /api/users/-/token/getpublicproducts, the first page. */
  items: unknown;
}

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** `template` (index.html) with `meta`'s title and tags in place of the site's. */
function withMeta(template: string, meta: PageMeta, url: string): string {
  const tags = metaTags(meta, url)
    .filter(([, , content]) => content !== null)
    .map(
      ([attribute, key, content]) =>
        `<meta ${attribute}="${key}" content="${escapeAttribute(content ?? '')}">`,
    )
    .join('');
  const keys = new Set(metaTags(meta, url).map(([, key]) => key));
  return template
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeAttribute(meta.title)}</title>`)
    .replace(
      /<meta\s+(?:name|property)="([^"]+)"\s+content="[^"]*"\s*\/?>\s*/g,
      (tag, key: string) => (keys.has(key) ? '' : tag),
    )
    .replace('</head>', () => `${tags}</head>`);
}

/**
 * The whole document of the public profile at `url` (`https://<site>/<nick>`) from `template`
 * (index.html as the build wrote it): its markup hydrated as it is by the app, its head (title,
 * description, social preview), and its data for the app's query cache.
 */
export async function renderProfileDocument(
  template: string,
  url: string,
  data: ProfilePageData,
): Promise<string> {
  const { pathname } = new URL(url);
  const nick = decodeURIComponent(pathname.slice(1));
  const queryClient = createQueryClient();
  queryClient.setQueryData(profileKeys.byNick(nick), publicProfileSchema.parse(data.profile));
  queryClient.setQueryData(itemKeys.public(nick), {
    pages: [itemPageSchema.parse(data.items)],
    pageParams: [null],
  });
  const rendered = await render(pathname, queryClient);
  const root = '<div id="root"></div>';
  if (!template.includes(root)) throw new Error('index.html has no empty #root');
  const head = rendered.meta ? withMeta(template, rendered.meta, url) : template;
  // Replaced by functions: a `$&` in a user's text is text, not a replacement pattern.
  return head
    .replace('</head>', () => `${rendered.styles}</head>`)
    .replace(
      root,
      () => `<div id="root">${rendered.html}</div>${pageDataScript(dehydrate(queryClient))}`,
    );
}
