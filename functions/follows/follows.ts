import type { AuthContext } from '../core/auth';
import { DomainError } from '../core/errors';
import type { FollowResult } from '../../shared/schemas/follows';
import { followsRepo } from './follows.deps';
import type { FollowsRepo } from './follows.repo';

export interface FollowsDeps {
  repo: FollowsRepo;
  /** Waits between retries after a lost race (injected so unit tests do not sleep). */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

/** The caller's id on a 'user' route (the middleware already refused guests with 401). */
export function callerIdOf(auth: AuthContext | null): string {
  if (auth === null) {
    throw new DomainError('unauthenticated', { message: 'Session Expired or not logged in' });
  }
  return auth.userId;
}

/** Enough for dozens of concurrent follows of one user: each round lets at least one through. */
export const MAX_ATTEMPTS = 60;

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Backoff after the n-th lost race: grows to ~100 ms, jittered so racers spread out. */
export function backoffMs(attempt: number, random: () => number): number {
  return Math.round(random() * Math.min(100, 5 * 2 ** Math.min(attempt, 5)));
}

/**
 * Follow (`follow` true) or unfollow one user (spec 001 §7 rels/follow, rels/unfollow). The edge
 * and the followed user's followers_counter (with the sellers directory's sort key) change in one
 * transaction conditioned on the counter value read; a lost race re-reads and retries. Following
 * or unfollowing twice is answered like the first time and counts once.
 */
export async function setFollow(
  deps: FollowsDeps,
  input: { callerId: string; uid: string; follow: boolean },
  now: Date,
): Promise<FollowResult> {
  const { callerId, uid, follow } = input;
  if (uid === callerId) {
    throw new DomainError('follows.errors.self', { message: 'You cannot follow yourself.' });
  }
  const sleep = deps.sleep ?? defaultSleep;
  const random = deps.random ?? Math.random;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    const state = await deps.repo.getCounter(uid);
    if (state === undefined) {
      throw new DomainError('users.errors.not_found', { message: 'This user could not be found.' });
    }
    const outcome = await deps.repo.writeEdge({
      followerId: callerId,
      followedId: uid,
      follow,
      state,
      now,
    });
    if (outcome === 'noop') {
      return { following: follow, followers_counter: state.followers_counter };
    }
    if (outcome === 'done') {
      return {
        following: follow,
        followers_counter: Math.max(0, state.followers_counter + (follow ? 1 : -1)),
      };
    }
    await sleep(backoffMs(attempt, random));
  }
  throw new DomainError('unavailable', {
    message: 'Too many concurrent changes to this user; please try again.',
  });
}

/** rels/check/is-following: does the caller follow `followed`? */
export async function isFollowing(
  deps: { repo: FollowsRepo },
  input: { callerId: string; followed: string },
): Promise<{ following: boolean }> {
  if (input.followed === input.callerId) return { following: false };
  return { following: await deps.repo.isFollowing(input.callerId, input.followed) };
}

/** rels/check/is-follower: does `follower` follow the caller? */
export async function isFollower(
  deps: { repo: FollowsRepo },
  input: { callerId: string; follower: string },
): Promise<{ follower: boolean }> {
  if (input.follower === input.callerId) return { follower: false };
  return { follower: await deps.repo.isFollowing(input.follower, input.callerId) };
}

/** The largest page of followers one read returns (one Query of gsi2, ~200 KB of items). */
export const MAX_FOLLOWERS_PAGE = 1000;

/**
 * One page of a user's followers' ids, for the domains that reach every follower (the
 * notifications' fan-out of a new offering): in follower-id order, `nextCursor` null after the
 * last page. Eventually consistent (gsi2): a follow made a moment ago may be missing.
 */
export async function listFollowerIds(
  userId: string,
  page: { cursor?: string | undefined; limit?: number } = {},
  deps: { repo: Pick<FollowsRepo, 'listFollowerIds'> } = { repo: followsRepo() },
): Promise<{ ids: string[]; nextCursor: string | null }> {
  const limit = page.limit ?? MAX_FOLLOWERS_PAGE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_FOLLOWERS_PAGE) {
    throw new RangeError(`listFollowerIds: limit must be 1..${MAX_FOLLOWERS_PAGE}, not ${limit}`);
  }
  return deps.repo.listFollowerIds(userId, { cursor: page.cursor, limit });
}
