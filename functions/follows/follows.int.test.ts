import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTwinEnv } from '../../infra/local/test/twin-context';
import { dynamoDocumentClient } from '../core/clients';
import { readEnv } from '../core/env';
import { newId } from '../core/ids';
import type { FollowResult } from '../../shared/schemas/follows';
import type { SellerPage, SellerSummary } from '../../shared/schemas/profiles';
import { putSellers, sellerProfile } from '../profiles/testing/sellers';
import { profileItemKey as profileKey, type ProfileRecord } from '../profiles/index';
import { call, hasCognito, newUser, type TestUser } from '../accounts/testing/session';

/**
 * Follows through the local gateway with real access tokens from the twin's local Cognito: the
 * edge, the followed user's followers_counter and the sellers directory's order move together.
 */
const RUN = `f${Date.now().toString(36)}`;
let enabled = false;
let a: TestUser;
let b: TestUser;

const seller = (name: string, followers: number): ProfileRecord =>
  sellerProfile(`${RUN}${name}`, followers, name);

async function directory(): Promise<SellerSummary[]> {
  const items: SellerSummary[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
    const page = await call<SellerPage>('GET', `/api/users/sellers?limit=50${query}`);
    expect(page.status).toBe(200);
    items.push(...page.json.data.items);
    cursor = page.json.data.nextCursor;
  } while (cursor !== null);
  return items;
}

async function inBatches<T, R>(values: T[], size: number, run: (value: T) => Promise<R>) {
  const results: R[] = [];
  for (let index = 0; index < values.length; index += size) {
    results.push(...(await Promise.all(values.slice(index, index + size).map(run))));
  }
  return results;
}

const follow = (user: TestUser, uid: string, verb: 'follow' | 'unfollow' = 'follow') =>
  call<FollowResult>('POST', `/api/rels/${verb}`, { token: user.accessToken, body: { uid } });

beforeAll(async () => {
  useTwinEnv();
  enabled = hasCognito();
  if (!enabled) return;
  [a, b] = await Promise.all([newUser(RUN), newUser(RUN)]);
});

describe('rels/* (real tokens from the local Cognito endpoint)', () => {
  it('refuses guests with 401 (the web opens the login modal)', async () => {
    for (const path of ['/api/rels/follow', '/api/rels/unfollow', '/api/rels/check/is-following']) {
      const answer = await call('POST', path, { body: { uid: 'x', followed: 'x' } });
      expect(answer.status).toBe(401);
    }
  });

  it('follows, checks both ways and unfollows, counting each once', async (context) => {
    if (!enabled) context.skip();
    expect(await follow(a, b.id)).toMatchObject({
      status: 200,
      json: { data: { following: true, followers_counter: 1 } },
    });
    // A double follow is answered the same and is not counted twice.
    expect((await follow(a, b.id)).json.data).toEqual({ following: true, followers_counter: 1 });

    const check = (user: TestUser, path: string, body: unknown) =>
      call('POST', `/api/rels/check/${path}`, { token: user.accessToken, body });
    expect((await check(a, 'is-following', { followed: b.id })).json.data).toEqual({
      following: true,
    });
    expect((await check(b, 'is-following', { followed: a.id })).json.data).toEqual({
      following: false,
    });
    expect((await check(b, 'is-follower', { follower: a.id })).json.data).toEqual({
      follower: true,
    });
    expect((await check(a, 'is-follower', { follower: b.id })).json.data).toEqual({
      follower: false,
    });

    expect((await follow(a, b.id, 'unfollow')).json.data).toEqual({
      following: false,
      followers_counter: 0,
    });
    expect((await follow(a, b.id, 'unfollow')).json.data).toEqual({
      following: false,
      followers_counter: 0,
    });
    expect((await check(a, 'is-following', { followed: b.id })).json.data).toEqual({
      following: false,
    });
  });

  it('refuses following yourself (409), unknown users (404) and malformed bodies (400)', async (context) => {
    if (!enabled) context.skip();
    const self = await follow(a, a.id);
    expect(self.status).toBe(409);
    expect(self.json.error.code).toBe('follows.errors.self');
    const unknown = await follow(a, newId());
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe('users.errors.not_found');
    const bad = await call('POST', '/api/rels/follow', { token: a.accessToken, body: {} });
    expect(bad.status).toBe(400);
    expect(bad.json.error.fields).toEqual({ uid: 'forms.validation.required' });
  });

  it('reorders the sellers directory as followers_counter changes', async (context) => {
    if (!enabled) context.skip();
    const low = seller('low', 0);
    const high = seller('high', 1);
    await putSellers(low, high);
    const position = (items: SellerSummary[], id: string) =>
      items.findIndex((item) => item.id === id);

    let items = await directory();
    expect(position(items, high.id)).toBeLessThan(position(items, low.id));

    await follow(a, low.id);
    await follow(b, low.id);
    items = await directory();
    expect(items[position(items, low.id)]?.followers_counter).toBe(2);
    expect(position(items, low.id)).toBeLessThan(position(items, high.id));

    await follow(a, low.id, 'unfollow');
    await follow(b, low.id, 'unfollow');
    items = await directory();
    expect(items[position(items, low.id)]?.followers_counter).toBe(0);
    expect(position(items, high.id)).toBeLessThan(position(items, low.id));
  });

  it('counts 20 concurrent follows of one seller by 20 users exactly', async (context) => {
    if (!enabled) context.skip();
    const star = seller('star', 0);
    await putSellers(star);
    const users = await inBatches(
      Array.from({ length: 20 }, (_, index) => index),
      5,
      () => newUser(RUN),
    );

    const follows = await Promise.all(users.map((user) => follow(user, star.id)));
    expect(follows.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    expect(new Set(follows.map((answer) => answer.json.data.followers_counter)).size).toBe(20);

    const env = readEnv();
    const stored = await dynamoDocumentClient(env).send(
      new GetCommand({ TableName: env.tableName, Key: profileKey(star.id), ConsistentRead: true }),
    );
    expect(stored.Item).toMatchObject({
      followers_counter: 20,
      gsi1sk: `000000000020#${star.id}`,
    });
    const listed = (await directory()).find((item) => item.id === star.id);
    expect(listed?.followers_counter).toBe(20);

    // And back down, concurrently, never below 0.
    const unfollows = await Promise.all(users.map((user) => follow(user, star.id, 'unfollow')));
    expect(unfollows.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    const after = await dynamoDocumentClient(env).send(
      new GetCommand({ TableName: env.tableName, Key: profileKey(star.id), ConsistentRead: true }),
    );
    expect(after.Item).toMatchObject({ followers_counter: 0, gsi1sk: `000000000000#${star.id}` });
  });
});
