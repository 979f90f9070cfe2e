import { useSyncExternalStore } from 'react';

type Listener = () => void;

/**
 * Which user's full card (spec 001 §2, "User full card modal") is open, by nick; null while
 * closed. Any feature opens it (the sellers directory, later notifications); the profiles feature
 * mounts the modal once at the root.
 */
function createUserCardStore() {
  let nick: string | null = null;
  const listeners = new Set<Listener>();
  const set = (next: string | null) => {
    if (nick === next) return;
    nick = next;
    listeners.forEach((listener) => listener());
  };
  return {
    open: (target: string) => set(target),
    close: () => set(null),
    current: () => nick,
    subscribe(listener: Listener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export const userCard = createUserCardStore();

export function useUserCardNick(): string | null {
  return useSyncExternalStore(userCard.subscribe, userCard.current, userCard.current);
}
