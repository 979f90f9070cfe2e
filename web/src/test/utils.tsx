import { QueryClient } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import { useLayoutEffect, type ReactNode } from 'react';
import { useNavigate, useRoutes, type NavigateFunction, type RouteObject } from 'react-router';
import { vi } from 'vitest';
import type { LazyPage } from '../app/lazyPage';
import { AppProviders } from '../app/providers';
import { routes as appRoutes } from '../app/routes';
import { AppRouter, createAppMemoryHistory } from '../lib/navigation';
import { configFixture } from './fixtures';

export function createTestQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { retry: false, gcTime: Infinity }, mutations: { retry: false } },
  });
}

/** What a test reads of the router and does with it: where it is, and a navigation as a link makes. */
export interface TestRouter {
  state: { readonly location: { pathname: string; search: string; hash: string } };
  navigate: (to: string) => Promise<void>;
  /** The browser's back (-1) or forward (1) button. */
  go: (delta: number) => Promise<void>;
}

/** Hands the router's navigate function to the test. */
function NavigateProbe({ onNavigate }: { onNavigate: (navigate: NavigateFunction) => void }) {
  const navigate = useNavigate();
  useLayoutEffect(() => onNavigate(navigate), [navigate, onNavigate]);
  return null;
}

function Routes({ routes }: { routes: RouteObject[] }) {
  return useRoutes(routes);
}

/**
 * Renders `children` in the app's router (lib/navigation.tsx) on a history in memory at `path`;
 * the router answers where it is and navigates as the app does (through the navigation guard).
 */
export function renderInRouter(
  path: string,
  children: ReactNode,
  wrap: (router: ReactNode) => ReactNode = (router) => router,
) {
  const history = createAppMemoryHistory(path);
  let navigate: NavigateFunction | null = null;
  const onNavigate = (next: NavigateFunction) => {
    navigate = next;
  };
  const view = render(
    wrap(
      <AppRouter history={history}>
        <NavigateProbe onNavigate={onNavigate} />
        {children}
      </AppRouter>,
    ),
  );
  const router: TestRouter = {
    state: {
      get location() {
        return history.location;
      },
    },
    navigate: async (to) => {
      await act(async () => {
        await navigate?.(to);
      });
    },
    go: async (delta) => {
      await act(async () => {
        history.go(delta);
      });
    },
  };
  return { ...view, router };
}

/** Renders the app (or the given routes) at `path` with every provider, on a memory history. */
export function renderRoute(path: string, options: { routes?: RouteObject[] } = {}) {
  const queryClient = createTestQueryClient();
  const { router, ...view } = renderInRouter(
    path,
    <Routes routes={options.routes ?? appRoutes} />,
    (inner) => <AppProviders queryClient={queryClient}>{inner}</AppProviders>,
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
