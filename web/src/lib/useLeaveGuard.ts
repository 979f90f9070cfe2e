import { useCallback, useEffect } from 'react';
import { useBlocker } from 'react-router';

export interface LeaveGuard {
  /** True while an in-app navigation is held back waiting for the user's answer. */
  blocked: boolean;
  /** Continue the held navigation. */
  leave: () => void;
  /** Cancel the held navigation and stay. */
  stay: () => void;
}

/**
 * Warns before leaving while a process is in progress (spec 000 §2): the browser's own prompt on
 * reload, close or external navigation (beforeunload), and a held in-app navigation the caller
 * confirms with `leave()` or cancels with `stay()` (see components/LeaveGuardDialog).
 * Needs a data router (createBrowserRouter / createMemoryRouter).
 */
export function useLeaveGuard(active: boolean): LeaveGuard {
  const blocker = useBlocker(
    useCallback(
      ({ currentLocation, nextLocation }) =>
        active &&
        (currentLocation.pathname !== nextLocation.pathname ||
          currentLocation.search !== nextLocation.search),
      [active],
    ),
  );

  useEffect(() => {
    if (!active) return undefined;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers need returnValue set to show the prompt.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [active]);

  // A navigation held while active must not stay pending once the process has finished.
  useEffect(() => {
    if (!active && blocker.state === 'blocked') blocker.proceed();
  }, [active, blocker]);

  const leave = useCallback(() => {
    if (blocker.state === 'blocked') blocker.proceed();
  }, [blocker]);
  const stay = useCallback(() => {
    if (blocker.state === 'blocked') blocker.reset();
  }, [blocker]);

  return { blocked: blocker.state === 'blocked', leave, stay };
}
