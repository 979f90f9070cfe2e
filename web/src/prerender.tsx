/**
 * The build-time render of the public pages (web/prerender.ts runs it after the client build):
 * each page as a guest sees it before any data arrives, with the critical CSS of what it shows.
 * The browser paints this markup at once and the client hydrates it (main.tsx), so a first visit
 * shows the page before the JavaScript has downloaded.
 */
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import createEmotionServer from '@emotion/server/create-instance';
import { renderToString } from 'react-dom/server';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { AppProviders, createQueryClient } from './app/providers';
import { AppRoutes } from './app/routes';

export interface RenderedPage {
  /** The markup of #root. */
  html: string;
  /** `<style data-emotion>` tags for the head: the styles the markup uses. */
  styles: string;
}

async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

/** Renders the page at `pathname` as a guest on a first visit: every lazy page chunk resolved. */
export async function renderPage(pathname: string): Promise<RenderedPage> {
  // The client's default cache key: hydration finds these styles and does not insert them again.
  const cache = createCache({ key: 'css' });
  const { extractCriticalToChunks, constructStyleTagsFromChunks } = createEmotionServer(cache);
  const app = () => (
    <CacheProvider value={cache}>
      <AppProviders queryClient={createQueryClient()}>
        <StaticRouter location={pathname}>
          <AppRoutes />
        </StaticRouter>
      </AppProviders>
    </CacheProvider>
  );
  // The first pass loads every lazy page chunk the page shows; the second renders with them
  // resolved, so the markup is complete and carries no streaming script (the CSP allows none).
  await text((await prerender(app())).prelude);
  cache.inserted = {};
  cache.registered = {};
  const html = renderToString(app());
  if (html.includes('<script'))
    throw new Error(`${pathname} rendered a script: a page still suspends`);
  return { html, styles: constructStyleTagsFromChunks(extractCriticalToChunks(html)) };
}
