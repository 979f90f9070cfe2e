/**
 * The app's router: React Router in declarative mode (a `<Router>` over a history of our own)
 * instead of the data router. The app uses no loaders, actions or fetchers, and the data router
 * is ~19 KiB gzip more on every first visit; what it gave us besides (holding a navigation while
 * a process runs, scroll restoration, route error boundaries) is here, small.
 *
 * Every in-app navigation goes through one navigator: links and `useNavigate` call its
 * `push`/`replace`, the browser's back and forward buttons reach it as a history POP. A
 * navigation guard (`useNavigationGuard`, used by lib/useLeaveGuard.ts) can hold any of them
 * until the user decides: a held push or replace is simply not made yet; a POP has already moved
 * the browser, so it is undone at once (`go(-delta)`) and redone (`go(delta)`) if the user leaves.
 */
import {
  createContext,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import {
  parsePath,
  Router,
  UNSAFE_createBrowserHistory as createBrowserHistory,
  UNSAFE_createMemoryHistory as createMemoryHistory,
  useLocation,
  useNavigationType,
  type Location,
  type Navigator,
  type Path,
  type To,
} from 'react-router';

/** The history the app's router runs on (React Router's own, with listeners told of every move). */
export type AppHistory = ReturnType<typeof createBrowserHistory>;

/** The address bar's history, for the browser. */
export function createAppBrowserHistory(): AppHistory {
  return createBrowserHistory({ v5Compat: true });
}

/** A history in memory, starting at `path` (tests). */
export function createAppMemoryHistory(path: string): AppHistory {
  return createMemoryHistory({ initialEntries: [path], v5Compat: true });
}

/** Decides whether leaving `current` for `next` must wait for the user. */
export type BlockerFunction = (args: { currentLocation: Path; nextLocation: Path }) => boolean;

/**
 * The held navigation of one router and the blockers that may hold one. A blocker is registered
 * by a mounted component; the first navigation any of them blocks is held until `proceed()` or
 * `reset()`. While one is held, another navigation is held in its place (the latest wins).
 */
export class NavigationGuard {
  private readonly blockers = new Set<BlockerFunction>();
  private held: (() => void) | null = null;
  private readonly listeners = new Set<() => void>();

  register(blocker: BlockerFunction): () => void {
    this.blockers.add(blocker);
    return () => {
      this.blockers.delete(blocker);
    };
  }

  /** True while a navigation waits for the user. */
  get blocked(): boolean {
    return this.held !== null;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** Whether the move must wait. */
  blocks(currentLocation: Path, nextLocation: Path): boolean {
    for (const blocker of this.blockers) {
      if (blocker({ currentLocation, nextLocation })) return true;
    }
    return false;
  }

  hold(redo: () => void): void {
    this.held = redo;
    this.notify();
  }

  /** Makes the held navigation (`redo` goes to the history itself, past the blockers). */
  proceed(): void {
    const redo = this.held;
    if (!redo) return;
    this.held = null;
    this.notify();
    redo();
  }

  /** Drops the held navigation: the user stays. */
  reset(): void {
    if (!this.held) return;
    this.held = null;
    this.notify();
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}

const GuardContext = createContext<NavigationGuard | null>(null);

function pathOf(to: To, from: Path): Path {
  const parsed = typeof to === 'string' ? parsePath(to) : to;
  return {
    pathname: parsed.pathname ?? from.pathname,
    search: parsed.search ?? '',
    hash: parsed.hash ?? '',
  };
}

/**
 * The app's `<Router>` over `history`. Location updates render in a transition (the page on
 * screen stays until the next one is ready, as BrowserRouter does); every navigation passes the
 * router's NavigationGuard first.
 */
export function AppRouter({ history, children }: { history: AppHistory; children: ReactNode }) {
  const [state, setState] = useState({ action: history.action, location: history.location });
  const guard = useMemo(() => new NavigationGuard(), []);
  // The location on screen, for the blockers (history.location has already moved on a POP).
  const current = useRef<Location>(history.location);

  useLayoutEffect(() => {
    // The POP that undoes a held one is not a navigation of its own; the one that redoes it
    // (the user chose to leave) passes the blockers.
    let undoing = false;
    let redoing = false;
    return history.listen(({ action, location, delta }) => {
      if (undoing) {
        undoing = false;
        return;
      }
      const redone = redoing;
      redoing = false;
      if (
        action === 'POP' &&
        delta !== null &&
        !redone &&
        guard.blocks(current.current, location)
      ) {
        undoing = true;
        history.go(-delta);
        guard.hold(() => {
          redoing = true;
          history.go(delta);
        });
        return;
      }
      current.current = location;
      startTransition(() => setState({ action, location }));
    });
  }, [history, guard]);

  const navigator = useMemo<Navigator>(
    () => ({
      createHref: (to) => history.createHref(to),
      createURL: (to) => history.createURL(to),
      encodeLocation: (to) => history.encodeLocation(to),
      go: (delta) => history.go(delta),
      push(to, state) {
        if (guard.blocks(current.current, pathOf(to, current.current))) {
          guard.hold(() => history.push(to, state));
          return;
        }
        history.push(to, state);
      },
      replace(to, state) {
        if (guard.blocks(current.current, pathOf(to, current.current))) {
          guard.hold(() => history.replace(to, state));
          return;
        }
        history.replace(to, state);
      },
    }),
    [history, guard],
  );

  return (
    <GuardContext.Provider value={guard}>
      <Router location={state.location} navigationType={state.action} navigator={navigator}>
        {children}
      </Router>
    </GuardContext.Provider>
  );
}

export interface HeldNavigation {
  /** True while a navigation the blocker held waits for the user. */
  blocked: boolean;
  /** Makes the held navigation. */
  proceed: () => void;
  /** Drops it: the user stays. */
  reset: () => void;
}

/**
 * Holds the in-app navigations `blocker` returns true for (links, navigate, back and forward)
 * while the calling component is mounted. Needs the app's router (AppRouter).
 */
export function useNavigationGuard(blocker: BlockerFunction): HeldNavigation {
  const guard = useContext(GuardContext);
  if (!guard) throw new Error('useNavigationGuard must be used inside <AppRouter>');
  useEffect(() => guard.register(blocker), [guard, blocker]);
  const blocked = useSyncExternalStore(
    guard.subscribe,
    () => guard.blocked,
    () => false,
  );
  const proceed = useCallback(() => guard.proceed(), [guard]);
  const reset = useCallback(() => guard.reset(), [guard]);
  return { blocked, proceed, reset };
}

const SCROLL_KEY = 'scroll-positions';

function savedPositions(): Map<string, number> {
  try {
    const saved: unknown = JSON.parse(window.sessionStorage.getItem(SCROLL_KEY) ?? '{}');
    return new Map(
      Object.entries(saved as Record<string, unknown>).filter(
        (entry): entry is [string, number] => typeof entry[1] === 'number',
      ),
    );
  } catch {
    return new Map();
  }
}

/** How long a restored position is followed while the page grows to reach it. */
const FOLLOW_MS = 3000;

/**
 * Scrolls to `y` now and, if the page is not yet tall enough (its data or images still
 * arriving), again each time it grows, until it is reached, the user scrolls themselves, or
 * FOLLOW_MS pass. Returns the function that stops following.
 */
function scrollToWhenReachable(y: number): () => void {
  window.scrollTo(0, y);
  if (Math.abs(window.scrollY - y) <= 1 || typeof ResizeObserver === 'undefined') return () => {};
  const intents = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;
  const observer = new ResizeObserver(() => {
    window.scrollTo(0, y);
    if (Math.abs(window.scrollY - y) <= 1) stop();
  });
  const timer = window.setTimeout(() => stop(), FOLLOW_MS);
  function stop() {
    observer.disconnect();
    window.clearTimeout(timer);
    for (const intent of intents) window.removeEventListener(intent, stop);
  }
  observer.observe(document.documentElement);
  for (const intent of intents) window.addEventListener(intent, stop, { passive: true });
  return stop;
}

/**
 * Scroll like a multi-page site: a new page (link, navigate) starts at its top, or at the element
 * its hash names; back and forward (and a reload) return to where the user was on that entry,
 * following the page as it grows if its content is still arriving. Positions are kept per history
 * entry and survive a reload in sessionStorage.
 *
 * A scroll is recorded for the entry on screen, which changes in the commit that shows the next
 * page (a layout effect), never later: a navigation renders in a transition, its passive effects
 * run after the browser may already have fired the scroll event of the new page's scrollTo.
 */
export function ScrollRestoration() {
  const location = useLocation();
  const action = useNavigationType();
  const saved = useRef<Map<string, number> | null>(null);
  const onScreen = useRef<string | null>(null);
  // Read from sessionStorage on first use, in an effect (never during render: hydration).
  const positions = useCallback(() => (saved.current ??= savedPositions()), []);

  useEffect(() => {
    const previous = window.history.scrollRestoration;
    window.history.scrollRestoration = 'manual';
    const onScroll = () => {
      if (onScreen.current !== null) positions().set(onScreen.current, window.scrollY);
    };
    const save = () => {
      try {
        window.sessionStorage.setItem(SCROLL_KEY, JSON.stringify(Object.fromEntries(positions())));
      } catch {
        // Storage full or refused: positions are then kept for this page's life only.
      }
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('pagehide', save);
    return () => {
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('pagehide', save);
      window.history.scrollRestoration = previous;
    };
  }, [positions]);

  useLayoutEffect(() => {
    onScreen.current = location.key;
    const position = positions().get(location.key);
    if (action === 'POP' && position !== undefined) return scrollToWhenReachable(position);
    if (location.hash) {
      const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
      if (target) {
        target.scrollIntoView();
        return;
      }
    }
    if (action !== 'POP') window.scrollTo(0, 0);
  }, [location.key, location.hash, action, positions]);

  return null;
}
