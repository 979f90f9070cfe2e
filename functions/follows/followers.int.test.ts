import { beforeAll, describe, expect, it } from 'vitest';
import { useTwinEnv } from '../../infra/local/test/twin-context';
import { DomainError } from '../core/errors';
import { newId } from '../core/ids';
import { listFollowerIds } from './follows';
import { putFollowEdges } from './testing/followers';

/** A user's followers paged through gsi2 on DynamoDB Local (the fan-out's read). */
beforeAll(() => {
  useTwinEnv();
});

describe('listFollowerIds on the twin', () => {
  it('pages every follower once, in id order, and only those of that user', async () => {
    const seller = newId();
    const other = newId();
    const followers = Array.from({ length: 230 }, () => newId()).sort();
    await putFollowEdges(seller, followers);
    await putFollowEdges(other, [newId(), newId()]);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await listFollowerIds(seller, { cursor, limit: 100 });
      seen.push(...page.ids);
      cursor = page.nextCursor ?? undefined;
      pages += 1;
    } while (cursor !== undefined);
    expect(seen).toEqual(followers);
    expect(pages).toBe(3);
    expect(await listFollowerIds(newId())).toEqual({ ids: [], nextCursor: null });
  });

  it("refuses another user's cursor and a forged one", async () => {
    const [a, b] = [newId(), newId()];
    await putFollowEdges(a, [newId(), newId(), newId()]);
    const page = await listFollowerIds(a, { limit: 1 });
    expect(page.nextCursor).not.toBeNull();
    for (const cursor of [page.nextCursor ?? '', 'eyJzIjoiZm9sbG93ZXJzIn0']) {
      const error = await listFollowerIds(b, { cursor, limit: 1 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).code).toBe('invalid_request');
    }
  });
});
