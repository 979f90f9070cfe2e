import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { vi } from 'vitest';
import type { LazyPage } from '../app/lazyPage';
import { AppProviders } from '../app/providers';
import { routes as appRoutes } from '../app/routes';
import { configFixture } from './fixtures';

export function createTestQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { retry: false, gcTime: Infinity }, mutations: { retry: false } },
  });
}

/** Renders the app (or the given routes) at `path` with every provider, on a memory router. */
export function renderRoute(path: string, options: { routes?: RouteObject[] } = {}) {
  const router = createMemoryRouter(options.routes ?? appRoutes, { initialEntries: [path] });
  const queryClient = createTestQueryClient();
  const view = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, queryClient };
}

/** Loads the module of every lazy page (lazyPage) of a route table. */
export async function preloadLazyRoutes(routes: RouteObject[]): Promise<void> {
  await Promise.all(
    routes.map(async (route) => {
      const component = route.Component as Partial<LazyPage> | null | undefined;
      if (component?.preload) await component.preload();
      if (route.children) await preloadLazyRoutes(route.children);
    }),
  );
}

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

type Handler = (url: URL, init?: RequestInit) => Response | Promise<Response>;

/**
 * Replaces fetch with a router of API paths → handlers. /api/config answers the deployment's
 * defaults unless a handler is given; any other unknown path answers 404 `not_found`.
 */
export function mockApi(handlers: Record<string, Handler>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input instanceof Request ? input.url : input), 'http://localhost');
    const handler = handlers[url.pathname];
    if (handler) return handler(url, init);
    if (url.pathname === '/api/config') return jsonResponse({ data: configFixture() });
    return jsonResponse(
      { error: { code: 'not_found', message: 'Not found', requestId: 't' } },
      404,
    );
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** A promise the test settles by hand, for observing loading states. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
