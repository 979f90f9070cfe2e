import { beforeAll, describe, expect, it } from 'vitest';
import { gatewayFetch, useTwinEnv } from '../../infra/local/test/twin-context';
import { dynamoDocumentClient } from '../core/clients';
import { readEnv } from '../core/env';
import { newId } from '../core/ids';
import type { SellerPage, SellerSummary } from '../../shared/schemas/profiles';
import type { PublicConfig } from '../../shared/schemas/system';
import type { ErrorBody } from '../../shared/errors/registry';

type Answer<T> = { data: T; error: ErrorBody['error'] };
import { createProfilesRepo, type ProfileRecord } from './profiles.repo';

/** The sellers directory through the local gateway, against DynamoDB Local. */
const RUN = `t${Date.now().toString(36)}`;
const SELLERS = 120;

function record(index: number, overrides: Partial<ProfileRecord> = {}): ProfileRecord {
  return {
    id: newId(),
    nick: `${RUN}seller${index}`,
    name: `Seller ${index}`,
    surname: 'Test',
    entity_name: null,
    user_option: 'individual',
    title: null,
    slogan: null,
    summary: null,
    profile_image: index % 2 === 0 ? `avatars/${RUN}/${index}.webp` : null,
    header_image: null,
    // Some equal counters on purpose: ties must still paginate without loss or repetition.
    followers_counter: Math.floor((index * 7919) % 1000) * 3 + (index % 3 === 0 ? 0 : 1),
    is_verified: index % 5 === 0,
    is_seller: true,
    created_at: new Date().toISOString(),
    ...overrides,
  };
}

async function getPage(query: string) {
  const response = await gatewayFetch(`/api/users/sellers${query}`);
  return {
    status: response.status,
    headers: response.headers,
    json: (await response.json()) as Answer<SellerPage>,
  };
}

async function allPages(limit: number): Promise<{ items: SellerSummary[]; pages: number }> {
  const items: SellerSummary[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page = await getPage(
      `?limit=${limit}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
    );
    expect(page.status).toBe(200);
    expect(page.json.data.items.length).toBeLessThanOrEqual(limit);
    items.push(...page.json.data.items);
    cursor = page.json.data.nextCursor;
    pages += 1;
  } while (cursor !== null && pages < 100);
  return { items, pages };
}

describe('GET /api/users/sellers', () => {
  const seeded: ProfileRecord[] = [];

  beforeAll(async () => {
    useTwinEnv();
    const env = readEnv();
    const repo = createProfilesRepo({ doc: dynamoDocumentClient(env), tableName: env.tableName });
    for (let index = 0; index < SELLERS; index += 1) seeded.push(record(index));
    const buyers = [0, 1, 2].map((index) =>
      record(1000 + index, {
        is_seller: false,
        followers_counter: 1_000_000 + index,
        nick: `${RUN}buyer${index}`,
      }),
    );
    await Promise.all([...seeded, ...buyers].map((profile) => repo.putProfile(profile)));
  });

  it('lists only sellers, by followers_counter descending, in pages of at most 50 by default', async () => {
    const first = await getPage('');
    expect(first.status).toBe(200);
    expect(first.json.data.items).toHaveLength(50);
    expect(typeof first.json.data.nextCursor).toBe('string');
    expect(first.headers.get('x-request-id')).toBeTruthy();

    const { items } = await allPages(50);
    const counters = items.map((item) => item.followers_counter);
    expect(counters).toEqual([...counters].sort((a, b) => b - a));
    const nicks = items.map((item) => item.nick);
    expect(new Set(nicks).size).toBe(nicks.length);
    expect(nicks.filter((nick) => nick.startsWith(`${RUN}buyer`))).toEqual([]);
    expect(nicks.filter((nick) => nick.startsWith(`${RUN}seller`))).toHaveLength(SELLERS);
  });

  it('walks every seller exactly once with a small page size, the last page without a cursor', async () => {
    const { items, pages } = await allPages(7);
    const mine = items.filter((item) => item.nick.startsWith(`${RUN}seller`));
    expect(mine).toHaveLength(SELLERS);
    expect(pages).toBeGreaterThanOrEqual(Math.ceil(SELLERS / 7));
  });

  it('answers the public fields with avatar URLs under /media', async () => {
    const { items } = await allPages(50);
    const withAvatar = items.find((item) => item.nick === `${RUN}seller2`);
    expect(withAvatar).toMatchObject({
      name: 'Seller 2 Test',
      user_option: 'individual',
      profile_image: `/media/avatars/${RUN}/2.webp`,
      is_verified: false,
    });
    expect(Object.keys(withAvatar ?? {}).sort()).toEqual(
      [
        'followers_counter',
        'id',
        'is_verified',
        'name',
        'nick',
        'profile_image',
        'title',
        'user_option',
      ].sort(),
    );
    expect(items.find((item) => item.nick === `${RUN}seller1`)?.profile_image).toBeNull();
  });

  it.each([
    ['?limit=0', 'limit', 'forms.validation.too_small'],
    ['?limit=51', 'limit', 'forms.validation.too_big'],
    ['?limit=abc', 'limit', 'forms.validation.invalid'],
    ['?limit=2.5', 'limit', 'forms.validation.invalid'],
    ['?cursor=not-a-cursor', 'cursor', 'forms.validation.cursor'],
    [
      `?cursor=${Buffer.from('{"s":"items","k":{}}').toString('base64url')}`,
      'cursor',
      'forms.validation.cursor',
    ],
  ])('refuses %s with 400 naming the field', async (query, field, code) => {
    const page = await getPage(query);
    expect(page.status).toBe(400);
    expect(page.json.error).toMatchObject({ code: 'invalid_request', fields: { [field]: code } });
    expect(typeof page.json.error.requestId).toBe('string');
  });
});

describe('system calls through the gateway', () => {
  it('answers health, config and the OpenAPI document', async () => {
    const health = await gatewayFetch('/api/health');
    expect(health.status).toBe(200);
    expect(((await health.json()) as { data: unknown }).data).toMatchObject({
      status: 'ok',
      stage: 'local',
    });

    const config = ((await (await gatewayFetch('/api/config')).json()) as Answer<PublicConfig>)
      .data;
    expect(config.switches).toMatchObject({
      fiat: true,
      sats: false,
      faq: false,
      mintableTypes: ['physical'],
    });
    expect(config.currencies.map((currency: { iso: string }) => currency.iso)).toEqual([
      'USD',
      'EUR',
      'GBP',
    ]);
    expect(config.imagesBaseUrl).toBe('/media');

    const openapi = (await (await gatewayFetch('/api/openapi.json')).json()) as {
      openapi: string;
      paths: Record<string, unknown>;
    };
    expect(openapi.openapi).toBe('3.1.0');
    expect(Object.keys(openapi.paths)).toContain('/api/users/sellers');
  });

  it.each([
    ['GET', '/api/nope'],
    ['POST', '/api/users/sellers'],
    ['DELETE', '/api/health'],
    ['GET', '/api/users/sellers/extra/segments'],
  ])('answers %s %s with 404 not_found JSON and a request id', async (method, path) => {
    const response = await gatewayFetch(path, {
      method,
      headers: { 'content-type': 'application/json' },
      body: method === 'GET' ? undefined : '{"broken":',
    });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    const body = (await response.json()) as Answer<never>;
    expect(body.error).toMatchObject({ code: 'not_found' });
    expect(body.error.requestId).toBeTruthy();
  });
});
