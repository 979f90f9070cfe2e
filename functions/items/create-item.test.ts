import { describe, expect, it } from 'vitest';
import { monotonicFactory } from 'ulid';
import { DomainError } from '../core/errors';
import type { CreateItemContract, CreationProgress } from '../../shared/schemas/items';
import { abandonCreation, createItem, type CreateItemDeps } from './create-item';
import { confirmedImage, createFakeCreationRepo, failingOnBatch } from './items.fake';
import type { CreationRepo } from './items.repo';
import { verifyHistory } from './provenance';
import { mintLimitFromEnv, MINT_LIMITS } from './items';

const NOW = new Date('2026-03-01T10:00:00.000Z');
const USER = 'U1';

function contract(overrides: Partial<CreateItemContract> = {}): CreateItemContract {
  return {
    product_type: 'physical',
    title: 'Cup',
    description: 'A hand-made cup.',
    copies: 120,
    symbol: 'cup',
    images: ['img1', 'img2'],
    file: null,
    collection_id: null,
    shipping: { mode: 'delivery', countries: ['ES'] },
    legal_terms: 'None',
    transferable: true,
    royalty: null,
    beneficiary: null,
    ticket: null,
    contact_email: 'maker@example.com',
    issuer: {
      legal_form: 'SL',
      organisation: 'Cups',
      country: 'ES',
      email: 'maker@example.com',
      governing_law: 'Spain',
      jurisdiction: 'Madrid',
    },
    ...overrides,
  } as CreateItemContract;
}

function setup(options: { maxMints?: number; capacity?: number; enabled?: boolean } = {}) {
  const repo = createFakeCreationRepo();
  for (const id of ['img1', 'img2', 'img3', 'img4']) {
    repo.uploads.set(`${USER}/${id}`, confirmedImage(USER, id, 1000));
  }
  const published: CreationProgress[] = [];
  const ulid = monotonicFactory();
  const deps = (override: Partial<CreateItemDeps> = {}): CreateItemDeps => ({
    repo,
    users: {
      userIdByNick: async (nick) => (nick === 'bob' ? 'U2' : undefined),
      nickOf: async (userId) => (userId === USER ? 'alice' : undefined),
    },
    collections: { isOwnedBy: async (owner, id) => owner === USER && id === 'C1' },
    publish: async (_userId, progress) => {
      published.push(progress);
    },
    newId: (now) => ulid(now.getTime()),
    limits: {
      enabled: options.enabled ?? true,
      maxMints: options.maxMints ?? 50,
      capacity: options.capacity ?? 1_000_000,
    },
    ...override,
  });
  return { repo, deps, published };
}

async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('createItem', () => {
  it('writes N copies with serials, one verified minted record each, and a holding', async () => {
    const { repo, deps, published } = setup();
    const done = await createItem(
      deps(),
      { userId: USER, idempotencyKey: 'key-0001', contract: contract() },
      NOW,
    );
    expect(done).toMatchObject({ status: 'done', written: 120, total: 120, error: null });
    expect(repo.copies.size).toBe(120);
    expect(repo.batches).toBe(3);
    const serials = [...repo.copies.values()].map((copy) => copy.serial).sort((a, b) => a - b);
    expect(serials).toEqual(Array.from({ length: 120 }, (_, index) => index + 1));
    for (const copy of repo.copies.values()) {
      const record = repo.history.get(`${copy.nftuniqueid}/1`);
      expect(record?.event).toBe('minted');
      expect(
        verifyHistory(copy.nftuniqueid, record === undefined ? [] : [record], copy.head).ok,
      ).toBe(true);
    }
    expect(repo.holdings.get(`${USER}/${done.item_id}`)).toMatchObject({
      count: 120,
      visible: true,
    });
    expect(repo.limits.get(USER)).toMatchObject({
      mints_used: 1,
      bytes_used: 2000,
      image_bytes: 2000,
    });
    expect([...repo.uploads.values()].filter((upload) => upload.status === 'used')).toHaveLength(2);
    expect(published.map((progress) => progress.status)).toEqual([
      'checking',
      'uploading-token',
      'uploading-token',
      'uploading-token',
      'uploading-token',
      'done',
    ]);
  });

  it('replays the same key and body without new copies or a second count', async () => {
    const { repo, deps } = setup();
    const input = { userId: USER, idempotencyKey: 'key-0002', contract: contract() };
    const first = await createItem(deps(), input, NOW);
    const batches = repo.batches;
    const second = await createItem(deps(), input, new Date(NOW.getTime() + 60_000));
    expect(second).toEqual(first);
    expect(repo.batches).toBe(batches);
    expect(repo.items.size).toBe(1);
    expect(repo.limits.get(USER)?.mints_used).toBe(1);
    const other = await refusal(
      createItem(deps(), { ...input, contract: contract({ title: 'Other cup' }) }, NOW),
    );
    expect(other.code).toBe('idempotency.key_reused');
    expect(other.status).toBe(409);
  });

  it('a failure at batch k leaves nothing visible; the retry converges once', async () => {
    const { repo, deps, published } = setup();
    const input = { userId: USER, idempotencyKey: 'key-0003', contract: contract({ copies: 200 }) };
    const failing = failingOnBatch<CreationRepo>(repo, 3);
    const failed = await refusal(createItem(deps({ repo: failing }), input, NOW));
    expect(failed.code).toBe('market.create_product.errors.chunks');
    expect(failed.status).toBe(503);
    const [item] = [...repo.items.values()];
    expect(item).toMatchObject({ status: 'error', written: 100, total: 200 });
    expect(repo.holdings.size).toBe(0);
    expect(published.at(-1)).toMatchObject({
      status: 'error',
      error: 'market.create_product.errors.chunks',
    });

    const done = await createItem(deps(), input, NOW);
    expect(done).toMatchObject({ status: 'done', written: 200, item_id: item?.id });
    expect(repo.copies.size).toBe(200);
    expect(repo.items.size).toBe(1);
    expect(repo.limits.get(USER)?.mints_used).toBe(1);
    expect(repo.holdings.get(`${USER}/${item?.id}`)?.count).toBe(200);
  });

  it('a failure to publish never fails the creation', async () => {
    const { deps } = setup();
    const done = await createItem(
      deps({
        publish: async () => {
          throw new Error('socket down');
        },
      }),
      { userId: USER, idempotencyKey: 'key-0004', contract: contract({ copies: 3 }) },
      NOW,
    );
    expect(done.status).toBe('done');
  });

  it('limits: the mint count and the byte capacity, 403; switch off disables', async () => {
    const atMints = setup({ maxMints: 2 });
    for (const [index, images] of [['img1'], ['img2']].entries()) {
      await createItem(
        atMints.deps(),
        {
          userId: USER,
          idempotencyKey: `mint-000${index}`,
          contract: contract({ copies: 1, images }),
        },
        NOW,
      );
    }
    const third = await refusal(
      createItem(
        atMints.deps(),
        {
          userId: USER,
          idempotencyKey: 'mint-0003',
          contract: contract({ copies: 1, images: ['img3'] }),
        },
        NOW,
      ),
    );
    expect(third.code).toBe('market.create_product.errors.limit');
    expect(third.status).toBe(403);
    expect(atMints.repo.limits.get(USER)?.mints_used).toBe(2);
    expect(atMints.repo.uploads.get(`${USER}/img3`)?.status).toBe('confirmed');

    const atBytes = setup({ capacity: 2500 });
    await createItem(
      atBytes.deps(),
      {
        userId: USER,
        idempotencyKey: 'byte-0001',
        contract: contract({ copies: 1, images: ['img1', 'img2'] }),
      },
      NOW,
    );
    const over = await refusal(
      createItem(
        atBytes.deps(),
        {
          userId: USER,
          idempotencyKey: 'byte-0002',
          contract: contract({ copies: 1, images: ['img3'] }),
        },
        NOW,
      ),
    );
    expect(over.code).toBe('market.create_product.errors.limit');
    const exact = setup({ capacity: 3000 });
    for (const [index, images] of [['img1', 'img2'], ['img3']].entries()) {
      const done = await createItem(
        exact.deps(),
        {
          userId: USER,
          idempotencyKey: `exact-00${index}`,
          contract: contract({ copies: 1, images }),
        },
        NOW,
      );
      expect(done.status).toBe('done');
    }

    const off = setup({ maxMints: 0, enabled: false });
    const free = await createItem(
      off.deps(),
      { userId: USER, idempotencyKey: 'free-0001', contract: contract({ copies: 1 }) },
      NOW,
    );
    expect(free.status).toBe('done');
    expect(off.repo.limits.get(USER)?.mints_used).toBe(1);
  });

  it('refuses used or unknown uploads, unknown nicks and foreign collections on their fields', async () => {
    const { deps } = setup();
    await createItem(
      deps(),
      {
        userId: USER,
        idempotencyKey: 'used-0001',
        contract: contract({ copies: 1, images: ['img1'] }),
      },
      NOW,
    );
    const refused = await refusal(
      createItem(
        deps(),
        {
          userId: USER,
          idempotencyKey: 'used-0002',
          contract: contract({
            copies: 1,
            images: ['img2', 'img1', 'nope'],
            collection_id: 'C2',
            product_type: 'ticket',
            shipping: null,
            ticket: { redeemer: 'nobody', expires_at: '2027-01-01T00:00:00Z' },
          }),
        },
        NOW,
      ),
    );
    expect(refused.status).toBe(400);
    expect(refused.fields).toEqual({
      'images.1': 'market.create_product.errors.image_upload',
      'images.2': 'market.create_product.errors.image_upload',
      'ticket.redeemer': 'users.errors.not_found',
      collection_id: 'forms.validation.invalid',
    });
  });

  it('abandon releases limits and uploads and deletes everything; done items cannot be abandoned', async () => {
    const { repo, deps } = setup();
    const input = {
      userId: USER,
      idempotencyKey: 'drop-0001',
      contract: contract({ copies: 120 }),
    };
    await refusal(createItem(deps({ repo: failingOnBatch<CreationRepo>(repo, 2) }), input, NOW));
    const [item] = [...repo.items.values()];
    expect(repo.copies.size).toBe(50);
    expect(repo.limits.get(USER)?.mints_used).toBe(1);
    const other = await refusal(abandonCreation(deps(), { userId: 'U2', itemId: item?.id ?? '' }));
    expect(other.status).toBe(404);
    await abandonCreation(deps(), { userId: USER, itemId: item?.id ?? '' });
    expect(repo.items.size).toBe(0);
    expect(repo.copies.size).toBe(0);
    expect(repo.history.size).toBe(0);
    expect(repo.idempotency.size).toBe(0);
    expect(repo.limits.get(USER)).toEqual({
      mints_used: 0,
      bytes_used: 0,
      image_bytes: 0,
      file_bytes: 0,
    });
    expect(repo.uploads.get(`${USER}/img1`)?.status).toBe('confirmed');
    // The same key now starts a fresh creation.
    const again = await createItem(deps(), input, NOW);
    expect(again.status).toBe('done');
    const late = await refusal(abandonCreation(deps(), { userId: USER, itemId: again.item_id }));
    expect(late.code).toBe('market.create_product.errors.done');
  });
});

describe('mint limit configuration', () => {
  it('defaults to MINT_LIMITS and reads MINT_LIMIT_ITEMS', () => {
    expect(mintLimitFromEnv({})).toBe(MINT_LIMITS.maxItemsPerUser);
    expect(mintLimitFromEnv({ MINT_LIMIT_ITEMS: '3' })).toBe(3);
    expect(mintLimitFromEnv({ MINT_LIMIT_ITEMS: 'x' })).toBe(MINT_LIMITS.maxItemsPerUser);
  });
});
