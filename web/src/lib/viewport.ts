import { useTheme } from '@mui/material/styles';
import { useSyncExternalStore } from 'react';

export interface Viewport {
  /** Below 768 px: the phone layout (bottom bar for logged-in users). */
  phone: boolean;
  /**
   * From 1265 px: the permanent side bar instead of the drawer. `null` while prerendered markup
   * is being hydrated (the width was unknown when the page was rendered at build time): the bars
   * then render both variants and CSS shows the one that fits, so nothing moves.
   */
  wide: boolean | null;
}

function mediaStore(query: string) {
  const subscribe = (onChange: () => void) => {
    const list = window.matchMedia(query);
    list.addEventListener('change', onChange);
    return () => list.removeEventListener('change', onChange);
  };
  const read = () => window.matchMedia(query).matches;
  return { subscribe, read };
}

const stores = new Map<string, ReturnType<typeof mediaStore>>();

function useMedia(query: string, whileHydrating: boolean | null): boolean | null {
  const key = query.replace(/^@media( ?)/m, '');
  let store = stores.get(key);
  if (!store) {
    store = mediaStore(key);
    stores.set(key, store);
  }
  // Read synchronously on a client render (the bars never render for the wrong width and then
  // move); the server snapshot applies only to the build-time render and its hydration.
  return useSyncExternalStore(store.subscribe, store.read, () => whileHydrating);
}

/** The layout's breakpoints (spec 001 §2: 768, 960, 1265 px). */
export function useViewport(): Viewport {
  const theme = useTheme();
  // Prerendered pages are rendered for guests, who have no phone-only bar: `phone` is false then.
  const phone = useMedia(theme.breakpoints.down('sm'), false) ?? false;
  const wide = useMedia(theme.breakpoints.up('lg'), null);
  return { phone, wide };
}
