import { describe, expect, it } from 'vitest';
import { DomainError } from '../core/errors';
import {
  backoffMs,
  callerIdOf,
  isFollower,
  isFollowing,
  listFollowerIds,
  MAX_ATTEMPTS,
  MAX_FOLLOWERS_PAGE,
  setFollow,
} from './follows';
import { fakeFollowsRepo } from './follows.fake';

const NOW = new Date('2026-01-01T00:00:00Z');
const noSleep = async () => {};

async function refused(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a DomainError');
}

describe('setFollow', () => {
  it('follows once: edge + counter, a second follow is a no-op answered the same', async () => {
    const fake = fakeFollowsRepo({ seller: { followers_counter: 4, is_seller: true } });
    const deps = { repo: fake.repo, sleep: noSleep };
    const input = { callerId: 'me', uid: 'seller', follow: true };
    expect(await setFollow(deps, input, NOW)).toEqual({ following: true, followers_counter: 5 });
    expect(await setFollow(deps, input, NOW)).toEqual({ following: true, followers_counter: 5 });
    expect(fake.counters.get('seller')?.followers_counter).toBe(5);
    expect(fake.edges.has('me>seller')).toBe(true);
  });

  it('unfollows once; a second unfollow changes nothing', async () => {
    const fake = fakeFollowsRepo({ seller: { followers_counter: 0 } });
    const deps = { repo: fake.repo, sleep: noSleep };
    await setFollow(deps, { callerId: 'me', uid: 'seller', follow: true }, NOW);
    const unfollow = { callerId: 'me', uid: 'seller', follow: false };
    expect(await setFollow(deps, unfollow, NOW)).toEqual({
      following: false,
      followers_counter: 0,
    });
    expect(await setFollow(deps, unfollow, NOW)).toEqual({
      following: false,
      followers_counter: 0,
    });
    expect(fake.counters.get('seller')?.followers_counter).toBe(0);
  });

  it('retries after lost races and never loses an increment', async () => {
    const fake = fakeFollowsRepo({ seller: { followers_counter: 10 } });
    fake.race(3);
    const result = await setFollow(
      { repo: fake.repo, sleep: noSleep },
      { callerId: 'me', uid: 'seller', follow: true },
      NOW,
    );
    // Three racers got in first: 10 + 3 + me.
    expect(result).toEqual({ following: true, followers_counter: 14 });
    expect(fake.calls.filter((call) => call === 'writeEdge')).toHaveLength(4);
  });

  it('gives up with unavailable after MAX_ATTEMPTS lost races', async () => {
    const fake = fakeFollowsRepo({ seller: {} });
    fake.race(MAX_ATTEMPTS);
    const error = await refused(
      setFollow(
        { repo: fake.repo, sleep: noSleep },
        { callerId: 'me', uid: 'seller', follow: true },
        NOW,
      ),
    );
    expect(error.code).toBe('unavailable');
  });

  it.each([
    ['self', { callerId: 'me', uid: 'me' }, 'follows.errors.self', 409],
    ['unknown user', { callerId: 'me', uid: 'ghost' }, 'users.errors.not_found', 404],
  ] as const)('refuses %s', async (_name, input, code, status) => {
    const fake = fakeFollowsRepo({ me: {} });
    for (const follow of [true, false]) {
      const error = await refused(setFollow({ repo: fake.repo }, { ...input, follow }, NOW));
      expect(error.code).toBe(code);
      expect(error.status).toBe(status);
    }
    expect(fake.calls.filter((call) => call === 'writeEdge')).toHaveLength(0);
  });
});

describe('checks', () => {
  it('answers is-following and is-follower from the edge, both ways', async () => {
    const fake = fakeFollowsRepo({ a: {}, b: {} });
    await setFollow({ repo: fake.repo }, { callerId: 'a', uid: 'b', follow: true }, NOW);
    const deps = { repo: fake.repo };
    expect(await isFollowing(deps, { callerId: 'a', followed: 'b' })).toEqual({ following: true });
    expect(await isFollowing(deps, { callerId: 'b', followed: 'a' })).toEqual({ following: false });
    expect(await isFollower(deps, { callerId: 'b', follower: 'a' })).toEqual({ follower: true });
    expect(await isFollower(deps, { callerId: 'a', follower: 'b' })).toEqual({ follower: false });
    expect(await isFollowing(deps, { callerId: 'a', followed: 'a' })).toEqual({ following: false });
  });
});

describe('helpers', () => {
  it('refuses a missing caller with 401', () => {
    expect(() => callerIdOf(null)).toThrow(DomainError);
    expect(callerIdOf({ userId: 'u', email: undefined, groups: [], claims: {} })).toBe('u');
  });

  it.each([
    [0, 1, 5],
    [3, 1, 40],
    [10, 1, 100],
    [10, 0, 0],
  ])('backoff after attempt %i with random %f is %i ms', (attempt, random, ms) => {
    expect(backoffMs(attempt, () => random)).toBe(ms);
  });
});

describe('listFollowerIds', () => {
  it('pages the followers in id order until nextCursor is null', async () => {
    const fake = fakeFollowsRepo({ seller: {}, other: {} });
    const deps = { repo: fake.repo, sleep: noSleep };
    for (const callerId of ['c', 'a', 'e', 'b', 'd']) {
      await setFollow(deps, { callerId, uid: 'seller', follow: true }, NOW);
    }
    await setFollow(deps, { callerId: 'z', uid: 'other', follow: true }, NOW);
    const first = await listFollowerIds('seller', { limit: 2 }, deps);
    expect(first.ids).toEqual(['a', 'b']);
    const second = await listFollowerIds(
      'seller',
      { cursor: first.nextCursor ?? '', limit: 2 },
      deps,
    );
    expect(second.ids).toEqual(['c', 'd']);
    const last = await listFollowerIds(
      'seller',
      { cursor: second.nextCursor ?? '', limit: 2 },
      deps,
    );
    expect(last).toEqual({ ids: ['e'], nextCursor: null });
    expect(await listFollowerIds('nobody', {}, deps)).toEqual({ ids: [], nextCursor: null });
  });

  it('reads pages of 1 to MAX_FOLLOWERS_PAGE (the default)', async () => {
    const fake = fakeFollowsRepo();
    const seen: number[] = [];
    const repo = {
      listFollowerIds: async (_id: string, page: { limit: number }) => {
        seen.push(page.limit);
        return fake.repo.listFollowerIds('x', { cursor: undefined, limit: page.limit });
      },
    };
    await listFollowerIds('x', {}, { repo });
    expect(seen).toEqual([MAX_FOLLOWERS_PAGE]);
    for (const limit of [0, MAX_FOLLOWERS_PAGE + 1, 1.5]) {
      await expect(listFollowerIds('x', { limit }, { repo })).rejects.toThrow(RangeError);
    }
  });
});
