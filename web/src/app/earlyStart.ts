import { DIRECTORY_PAGE_SIZE, TOP_SELLERS_LIMIT } from '../features/sellers/sizes';
import { isProfileNick } from '@shared/profilePaths';
import { sendEarlyCall, type EarlyCall } from '../lib/earlyCalls';
import { mayHaveStoredSession } from '../lib/storedSession';

/*
 * What the entry (main.tsx) starts for the page being opened, before the app's JavaScript has
 * arrived: the page's chunks and a guest's first calls (lib/earlyCalls.ts). The URLs are those the
 * pages' own calls build (lib/api.ts apiUrl); `earlyStart.test.ts` checks each against the call
 * the page makes, so a change on one side cannot silently leave the other sending a wasted call.
 */

export interface EarlyStart {
  /** Calls the page makes first for any visitor (anonymous ones), sent now. */
  calls: EarlyCall[];
  /** Calls a guest's page makes first, sent now for a visitor without a stored session. */
  guestCalls: EarlyCall[];
  /** Loads the page's module (and its chunks) now, or undefined for pages started by the app. */
  page?: () => Promise<unknown>;
}

/** Every page reads the deployment's configuration first (anonymous: it never waits for a session). */
const CONFIG_CALL: EarlyCall = { method: 'GET', url: '/api/config' };

/** What to start at `pathname` (the location's path, not decoded). */
export function earlyStartFor(pathname: string): EarlyStart {
  const segments = pathname.split('/').filter((segment) => segment !== '');
  if (segments.length === 0) {
    return {
      calls: [CONFIG_CALL],
      guestCalls: [{ method: 'GET', url: `/api/users/sellers?limit=${TOP_SELLERS_LIMIT}` }],
    };
  }
  if (segments.length === 1 && segments[0] === 'sellers') {
    return {
      calls: [CONFIG_CALL],
      guestCalls: [{ method: 'GET', url: `/api/users/sellers?limit=${DIRECTORY_PAGE_SIZE}` }],
    };
  }
  const [nick] = segments;
  if (segments.length === 1 && nick !== undefined && isProfileNick(nick)) {
    // The public profile is not rendered at build time: its HTML is the empty shell, so its chunks
    // are fetched now, alongside the app's, rather than once the app has run.
    return {
      calls: [CONFIG_CALL],
      guestCalls: [
        { method: 'GET', url: `/api/users/get-by-nickname/${nick}` },
        // A guest calls as `-` (features/items/api/items.ts callerId).
        {
          method: 'POST',
          url: '/api/users/-/token/getpublicproducts',
          body: { sourceUserNick: nick },
        },
      ],
      page: () => import('./ProfileRoute'),
    };
  }
  return { calls: [CONFIG_CALL], guestCalls: [] };
}

/**
 * Sends the first calls of the page at `pathname` (a guest's too, for a visitor who has never
 * logged in on this browser: every call of theirs goes without a token; none of a guest's when the
 * page came `withData`, rendered on request with the answers in it) and returns what loads the
 * page's chunks, for the entry to start when it starts the app.
 */
export function earlyStart(pathname: string, { withData = false } = {}): () => void {
  const start = earlyStartFor(pathname);
  for (const call of start.calls) void sendEarlyCall(call);
  if (!withData && !mayHaveStoredSession()) {
    for (const call of start.guestCalls) void sendEarlyCall(call);
  }
  // A failed load is reported by the page's own import (lazyPage), which retries it.
  return () => void start.page?.().catch(() => undefined);
}
