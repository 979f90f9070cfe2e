import { useCallback, useEffect } from 'react';
import { useNavigationGuard } from './navigation';

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
 * Needs the app's router (lib/navigation.tsx AppRouter).
 */
export function useLeaveGuard(active: boolean): LeaveGuard {
  const blocker = useNavigationGuard(
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
    if (!active && blocker.blocked) blocker.proceed();
  }, [active, blocker]);

  return { blocked: blocker.blocked, leave: blocker.proceed, stay: blocker.reset };
}
