import { describe, expect, it } from 'vitest';
import { requirePathOwner } from '../core/http';
import { DomainError } from '../core/errors';
import { createCollectionBodySchema } from '../../shared/schemas/items';
import { fieldErrors } from '../core/http';
import {
  collectionName,
  countCollectionItems,
  createCollection,
  findCollections,
  getCollection,
  getOwnedCollection,
} from './collections';
import { fakeCollectionsRepo } from './collections.fake';

const NOW = new Date('2026-03-01T10:00:00Z');

function setup() {
  const fake = fakeCollectionsRepo();
  let counter = 0;
  const deps = {
    repo: fake.repo,
    items: fake.items,
    users: {
      nickOf: async (userId: string) => (userId === 'ghost' ? undefined : `nick-${userId}`),
    },
    imagesBaseUrl: '/media',
    newId: () => `C${String((counter += 1)).padStart(3, '0')}`,
  };
  return { fake, deps };
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

const input = (title: string, image: string, ownerId = 'u1') => ({
  ownerId,
  collection: { symbol: 'summer', title, image },
});

describe('collection use cases', () => {
  it('creates a collection, claims the image, lists it and shows it with no items', async () => {
    const { fake, deps } = setup();
    fake.uploads.confirmed('u1', 'up1');
    const created = await createCollection(deps, input('  Summer Drop ', 'up1'), NOW);
    expect(created).toEqual({
      id: 'C001',
      symbol: 'summer',
      title: 'Summer Drop',
      name: 'summer drop',
      image: { url: '/media/items/u1/up1-1600.webp', thumb: '/media/items/u1/up1-400.webp' },
      owner_id: 'u1',
      owner_nick: 'nick-u1',
      items_count: 0,
      created_at: NOW.toISOString(),
    });
    expect(fake.uploads.statusOf('u1', 'up1')).toBe('used');
    expect(await findCollections(deps, { ownerId: 'u1' })).toEqual({ items: [created] });
    expect(await findCollections(deps, { ownerId: 'u2' })).toEqual({ items: [] });
    expect(await getCollection(deps, { collectionId: 'C001', cursor: undefined })).toEqual({
      collection: created,
      items: [],
      nextCursor: null,
    });
  });

  it('keeps names unique per owner whatever the case, not across owners', async () => {
    const { fake, deps } = setup();
    for (const id of ['a', 'b', 'c']) fake.uploads.confirmed('u1', id);
    fake.uploads.confirmed('u2', 'd');
    await createCollection(deps, input('Summer', 'a'), NOW);
    const error = await refusal(createCollection(deps, input(' SUMMER ', 'b'), NOW));
    expect(error.code).toBe('market.list.errors.collection_exists');
    expect(error.status).toBe(409);
    expect(error.fields).toEqual({ 'collection.title': 'market.list.errors.collection_exists' });
    // The refused creation did not consume its upload.
    expect(fake.uploads.statusOf('u1', 'b')).toBe('confirmed');
    await createCollection(deps, input('Winter', 'b'), NOW);
    await createCollection(deps, input('Summer', 'd', 'u2'), NOW);
    expect(collectionName('  ÉTÉ ')).toBe('été');
  });

  it('refuses a missing, used, foreign or non-image upload on collection.image', async () => {
    const { fake, deps } = setup();
    fake.uploads.confirmed('u1', 'used');
    fake.uploads.confirmed('u2', 'theirs');
    fake.uploads.confirmed('u1', 'file', 'file');
    await createCollection(deps, input('One', 'used'), NOW);
    for (const upload of ['missing', 'used', 'theirs', 'file']) {
      const error = await refusal(createCollection(deps, input(`T ${upload}`, upload), NOW));
      expect(error.code).toBe('market.create_product.errors.image_upload');
      expect(error.status).toBe(400);
      expect(error.fields).toEqual({
        'collection.image': 'market.create_product.errors.image_upload',
      });
    }
  });

  it('lists newest first and pages items newest first', async () => {
    const { fake, deps } = setup();
    fake.uploads.confirmed('u1', 'a');
    fake.uploads.confirmed('u1', 'b');
    const first = await createCollection(deps, input('First', 'a'), NOW);
    const second = await createCollection(
      deps,
      input('Second', 'b'),
      new Date(NOW.getTime() + 1000),
    );
    expect((await findCollections(deps, { ownerId: 'u1' })).items.map((c) => c.id)).toEqual([
      second.id,
      first.id,
    ]);
    for (let index = 0; index < 51; index += 1) {
      fake.addItem(first.id, {
        id: `I${String(index).padStart(3, '0')}`,
        product_type: 'physical',
        title: `Item ${index}`,
        symbol: 'item',
        image: { full: 'items/u1/x-1600.webp', thumb: 'items/u1/x-400.webp' },
        copies: 1,
        issuer_id: 'u1',
        issuer_nick: 'nick-u1',
        collection_id: first.id,
        created_at: NOW.toISOString(),
      });
    }
    const page = await getCollection(deps, { collectionId: first.id, cursor: undefined });
    expect(page.items).toHaveLength(50);
    expect(page.items[0]).toMatchObject({ id: 'I050', status: 'available', owned: null });
    expect(page.nextCursor).not.toBeNull();
    const rest = await getCollection(deps, {
      collectionId: first.id,
      cursor: page.nextCursor ?? undefined,
    });
    expect(rest.items.map((item) => item.id)).toEqual(['I000']);
    expect(rest.nextCursor).toBeNull();
  });

  it('answers 404 market.collection.errors.not_found for an unknown collection', async () => {
    const { deps } = setup();
    const error = await refusal(getCollection(deps, { collectionId: 'nope', cursor: undefined }));
    expect([error.code, error.status]).toEqual(['market.collection.errors.not_found', 404]);
  });

  it('serves the items domain: owned collection and items count', async () => {
    const { fake, deps } = setup();
    fake.uploads.confirmed('u1', 'a');
    const created = await createCollection(deps, input('Mine', 'a'), NOW);
    expect(await getOwnedCollection(deps, 'u1', created.id)).toEqual(created);
    expect(await getOwnedCollection(deps, 'u2', created.id)).toBeUndefined();
    expect(await getOwnedCollection(deps, 'u1', 'nope')).toBeUndefined();
    expect(await countCollectionItems(deps, created.id, 2)).toBe(true);
    expect(await countCollectionItems(deps, 'nope', 1)).toBe(false);
    expect((await getOwnedCollection(deps, 'u1', created.id))?.items_count).toBe(2);
  });

  it('applies the path rule: 401 without a caller, 403 for another id', () => {
    const auth = { userId: 'u1', email: undefined, groups: [], claims: {} };
    expect(requirePathOwner(auth, 'u1')).toBe('u1');
    expect(() => requirePathOwner(null, 'u1')).toThrow(
      expect.objectContaining({ code: 'unauthenticated' }),
    );
    expect(() => requirePathOwner(auth, 'u2')).toThrow(
      expect.objectContaining({ code: 'forbidden' }),
    );
    expect(() => requirePathOwner(auth, '-')).toThrow(
      expect.objectContaining({ code: 'forbidden' }),
    );
  });
});

describe('createCollectionBodySchema', () => {
  it('names each failing field with its code', () => {
    const result = createCollectionBodySchema.safeParse({
      collection: { symbol: 'Not Valid', title: 'x'.repeat(21), image: '' },
    });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error.issues.find((issue) => issue.path[1] === 'symbol')?.message).toBe(
      'market.create_product.validation.symbol',
    );
    // The API answers the same registered code under the field.
    expect(fieldErrors(result.error)).toEqual({
      'collection.symbol': 'market.create_product.validation.symbol',
      'collection.title': 'forms.validation.too_big',
      'collection.image': 'forms.validation.invalid',
    });
    const missing = createCollectionBodySchema.safeParse({ collection: { title: '  ' } });
    expect(missing.success).toBe(false);
    if (missing.success) return;
    expect(fieldErrors(missing.error)).toEqual({
      'collection.symbol': 'forms.validation.required',
      'collection.title': 'forms.validation.required',
      'collection.image': 'forms.validation.required',
    });
  });
});
