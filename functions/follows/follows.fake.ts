import { nextCounter, type CounterState } from '../profiles/index';
import type { FollowsRepo, WriteOutcome } from './follows.repo';

/**
 * In-memory FollowsRepo with the DynamoDB repo's semantics: the edge and the counter change
 * together only when the counter still has the value read. `race(n)` makes the next n writes lose
 * to a concurrent follower (the counter moves by one before the write), as under contention.
 */
export function fakeFollowsRepo(profiles: Record<string, Partial<CounterState>> = {}) {
  const counters = new Map<string, CounterState>(
    Object.entries(profiles).map(([id, state]) => [
      id,
      { followers_counter: state.followers_counter ?? 0, is_seller: state.is_seller ?? false },
    ]),
  );
  const edges = new Set<string>();
  const calls: string[] = [];
  let pendingRaces = 0;
  const edge = (follower: string, followed: string) => `${follower}>${followed}`;

  const repo: FollowsRepo = {
    async getCounter(userId) {
      calls.push('getCounter');
      const state = counters.get(userId);
      return state === undefined ? undefined : { ...state };
    },
    async writeEdge({ followerId, followedId, follow, state }): Promise<WriteOutcome> {
      calls.push('writeEdge');
      const current = counters.get(followedId);
      if (current === undefined) return 'stale';
      if (pendingRaces > 0) {
        pendingRaces -= 1;
        current.followers_counter += 1;
        edges.add(edge(`racer${pendingRaces}`, followedId));
      }
      const key = edge(followerId, followedId);
      if (follow ? edges.has(key) : !edges.has(key)) return 'noop';
      if (current.followers_counter !== state.followers_counter) return 'stale';
      if (follow) edges.add(key);
      else edges.delete(key);
      current.followers_counter = nextCounter(state.followers_counter, follow ? 1 : -1);
      return 'done';
    },
    async isFollowing(followerId, followedId) {
      calls.push('isFollowing');
      return edges.has(edge(followerId, followedId));
    },
    async listFollowerIds(followedId, { cursor, limit }) {
      calls.push('listFollowerIds');
      // The cursor is the last follower id answered (the real one is opaque).
      const all = [...edges]
        .map((key) => key.split('>'))
        .filter(([, followed]) => followed === followedId)
        .map(([follower]) => follower as string)
        .sort();
      const from = cursor === undefined ? 0 : all.findIndex((id) => id > cursor);
      const ids = from < 0 ? [] : all.slice(from, from + limit);
      const more = from >= 0 && from + limit < all.length;
      return { ids, nextCursor: more ? (ids[ids.length - 1] ?? null) : null };
    },
  };
  return {
    repo,
    calls,
    edges,
    counters,
    race(times: number) {
      pendingRaces = times;
    },
  };
}
