import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, Outlet } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RouteBoundary } from '../app/Root';
import { renderRoute } from '../test/utils';
import { ScrollRestoration } from './navigation';

function Page({ name }: { name: string }) {
  return (
    <>
      <h1>{name}</h1>
      <Link to="/a">to a</Link>
      <Link to="/b">to b</Link>
      <Link to="/b#reviews">to b reviews</Link>
      <p id="reviews">Reviews</p>
    </>
  );
}

const scrollRoutes = [
  {
    element: (
      <>
        <ScrollRestoration />
        <Outlet />
      </>
    ),
    children: [
      { path: '/a', element: <Page name="A" /> },
      { path: '/b', element: <Page name="B" /> },
    ],
  },
];

function scrollUserTo(y: number) {
  Object.defineProperty(window, 'scrollY', { configurable: true, value: y });
  act(() => {
    window.dispatchEvent(new Event('scroll'));
  });
}

describe('ScrollRestoration', () => {
  afterEach(() => {
    Object.defineProperty(window, 'scrollY', { configurable: true, value: 0 });
    window.sessionStorage.clear();
  });

  it('opens a new page at its top and returns to where the user was on back', async () => {
    const scrollTo = vi.spyOn(window, 'scrollTo');
    const { router } = renderRoute('/a', { routes: scrollRoutes });
    scrollUserTo(640);
    await userEvent.click(screen.getByRole('link', { name: 'to b' }));
    expect(await screen.findByRole('heading', { name: 'B' })).toBeTruthy();
    expect(scrollTo).toHaveBeenLastCalledWith(0, 0);

    scrollUserTo(120);
    await router.go(-1);
    expect(await screen.findByRole('heading', { name: 'A' })).toBeTruthy();
    expect(scrollTo).toHaveBeenLastCalledWith(0, 640);
    await router.go(1);
    expect(await screen.findByRole('heading', { name: 'B' })).toBeTruthy();
    expect(scrollTo).toHaveBeenLastCalledWith(0, 120);
  });

  it('follows a page that grows until the restored position is reached, unless the user scrolls', async () => {
    // The page's content arrives after the back: at first the document is only 200 px tall.
    let reachable = 200;
    vi.spyOn(window, 'scrollTo').mockImplementation(((_x: number, y: number) => {
      Object.defineProperty(window, 'scrollY', {
        configurable: true,
        value: Math.min(y, reachable),
      });
    }) as typeof window.scrollTo);
    const observers: { grow: () => void; disconnected: boolean }[] = [];
    vi.stubGlobal(
      'ResizeObserver',
      class {
        private readonly entry: { grow: () => void; disconnected: boolean };
        constructor(callback: () => void) {
          this.entry = { grow: callback, disconnected: false };
          observers.push(this.entry);
        }
        observe() {}
        disconnect() {
          this.entry.disconnected = true;
        }
      },
    );
    try {
      const { router } = renderRoute('/a', { routes: scrollRoutes });
      scrollUserTo(640);
      await userEvent.click(screen.getByRole('link', { name: 'to b' }));
      await screen.findByRole('heading', { name: 'B' });
      await router.go(-1);
      await screen.findByRole('heading', { name: 'A' });
      expect(window.scrollY).toBe(200);
      reachable = 500;
      act(() => observers[0]?.grow());
      expect(window.scrollY).toBe(500);
      reachable = 2000;
      act(() => observers[0]?.grow());
      expect(window.scrollY).toBe(640);
      expect(observers[0]?.disconnected).toBe(true);

      // Forward, back again with a short page, and the user scrolls: the page is theirs.
      await router.go(1);
      await screen.findByRole('heading', { name: 'B' });
      reachable = 100;
      await router.go(-1);
      await screen.findByRole('heading', { name: 'A' });
      expect(window.scrollY).toBe(100);
      act(() => {
        window.dispatchEvent(new Event('wheel'));
      });
      expect(observers[1]?.disconnected).toBe(true);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("scrolls to the element a link's hash names", async () => {
    // jsdom has no scrollIntoView.
    const scrollIntoView = vi.fn();
    Element.prototype.scrollIntoView = scrollIntoView;
    try {
      renderRoute('/a', { routes: scrollRoutes });
      await userEvent.click(screen.getByRole('link', { name: 'to b reviews' }));
      expect(await screen.findByRole('heading', { name: 'B' })).toBeTruthy();
      expect(scrollIntoView).toHaveBeenCalledTimes(1);
      expect(scrollIntoView.mock.contexts[0]).toBe(document.getElementById('reviews'));
    } finally {
      Reflect.deleteProperty(Element.prototype, 'scrollIntoView');
    }
  });

  it('keeps the positions for a reload of the tab (sessionStorage, on pagehide)', async () => {
    const { router } = renderRoute('/a', { routes: scrollRoutes });
    scrollUserTo(300);
    act(() => {
      window.dispatchEvent(new Event('pagehide'));
    });
    const saved = JSON.parse(window.sessionStorage.getItem('scroll-positions') ?? '{}') as Record<
      string,
      number
    >;
    expect(Object.values(saved)).toContain(300);
    expect(router.state.location.pathname).toBe('/a');
  });
});

function Broken(): never {
  throw new Error('render failed');
}

describe('RouteBoundary', () => {
  it('shows the error page in place of a failing page, and the next page normally', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { router } = renderRoute('/broken', {
      routes: [
        {
          element: (
            <>
              <nav>
                <Link to="/fine">Fine page</Link>
              </nav>
              <RouteBoundary />
            </>
          ),
          children: [
            { path: '/broken', element: <Broken /> },
            { path: '/fine', element: <h1>Fine</h1> },
          ],
        },
      ],
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Something went wrong' }),
    ).toBeTruthy();
    // The layout around the page is still there, and usable.
    await userEvent.click(screen.getByRole('link', { name: 'Fine page' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Fine' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/fine');
    expect(consoleError).toHaveBeenCalled();
  });
});
