import { useSyncExternalStore } from 'react';
import type { Action } from '@shared/permissions';

type Listener = () => void;

/** The become-minter modal's request: open, and the guarded action that asked for it, if any. */
export interface BecomeMinterRequest {
  /** The action the permission guard held back (null: opened from a menu or a page). */
  action: Action | null;
}

/**
 * Whether the become-minter (seller onboarding) modal is open (spec 001 §2, §4). Any feature
 * opens it (the account menu, the settings page, the Stripe return pages, the permission guard
 * through `onboardingRegistry`); the payments feature mounts it once at the root.
 */
function createBecomeMinterStore() {
  let request: BecomeMinterRequest | null = null;
  const listeners = new Set<Listener>();
  const set = (next: BecomeMinterRequest | null) => {
    if (request === next) return;
    request = next;
    listeners.forEach((listener) => listener());
  };
  return {
    open: (action: Action | null = null) => set({ action }),
    close: () => set(null),
    current: () => request,
    subscribe(listener: Listener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export const becomeMinterModal = createBecomeMinterStore();

export function useBecomeMinterRequest(): BecomeMinterRequest | null {
  return useSyncExternalStore(
    becomeMinterModal.subscribe,
    becomeMinterModal.current,
    becomeMinterModal.current,
  );
}
