import { useSyncExternalStore } from 'react';

type Listener = () => void;

/** Whether the (non-first-login) edit-profile modal is open; usable from any component. */
function createEditProfileStore() {
  let open = false;
  const listeners = new Set<Listener>();
  const set = (next: boolean) => {
    if (open === next) return;
    open = next;
    listeners.forEach((listener) => listener());
  };
  return {
    open: () => set(true),
    close: () => set(false),
    isOpen: () => open,
    subscribe(listener: Listener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export const editProfileModal = createEditProfileStore();

export function useEditProfileOpen(): boolean {
  return useSyncExternalStore(
    editProfileModal.subscribe,
    editProfileModal.isOpen,
    editProfileModal.isOpen,
  );
}
