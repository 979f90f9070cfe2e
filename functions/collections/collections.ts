import { DomainError } from '../core/errors';
import type {
  Collection,
  CollectionPage,
  CreateCollectionBody,
  ItemSummary,
} from '../../shared/schemas/items';
import { imageUrls, type StoredImage } from '../images/index';
import type { CollectionsRepo } from './collections.repo';

/**
 * Collections (spec 000 §3 Collection: symbol, title, image, name; §5; §7 token/createcollection,
 * findcollections, getcollection; §8 "collection already exists").
 *
 * For other domains (call these, never the repo):
 * - `getOwnedCollection(deps, ownerId, collectionId)` → the collection when it exists and belongs
 *   to `ownerId`, else undefined. token/create (items) uses it to accept `collection_id`.
 * - `countCollectionItems(deps, collectionId, delta)` → adds `delta` to `items_count` (one
 *   UpdateItem, conditioned on the collection existing; false when it does not). An item that
 *   joins or leaves a collection calls it; a caller that would rather put the change in its own
 *   TransactWriteItems takes `itemsCountUpdate(tableName, collectionId, delta)` from
 *   collections.tx.ts (the same update as a transaction entry; items' finalising transaction).
 *
 * The name is the title trimmed and lower-cased: unique per owner through a guard item written in
 * the collection's transaction, so "Summer" and " summer " are the same collection (409
 * `market.list.errors.collection_exists`). The image is an image upload of the owner (items'
 * store-token-images + confirm), claimed (confirmed → used) in the same transaction.
 */
export interface CollectionsDeps {
  repo: CollectionsRepo;
  /** The items domain's list of a collection's items (items/queries.ts listCollectionItems). */
  items: {
    page(input: {
      collectionId: string;
      cursor: string | undefined;
      limit: number;
    }): Promise<{ items: ItemSummary[]; nextCursor: string | null }>;
  };
  users: { nickOf(userId: string): Promise<string | undefined> };
  /** Public base URL of the images bucket ('/media'). */
  imagesBaseUrl: string;
  newId(now: Date): string;
}

/** What the table holds for a collection (plus its keys and `type`). */
export interface CollectionRecord {
  id: string;
  symbol: string;
  title: string;
  name: string;
  image: StoredImage;
  owner_id: string;
  owner_nick: string;
  items_count: number;
  created_at: string;
  /** The claimed image upload (items' upload item, now status `used`). */
  upload_id: string;
}

/** Items per page of getcollection. */
export const COLLECTION_ITEMS_PAGE = 50;

/** The unique name of a title: trimmed, NFC, lower-cased. */
export function collectionName(title: string): string {
  return title.trim().normalize('NFC').toLowerCase();
}

export function toCollection(record: CollectionRecord, imagesBaseUrl: string): Collection {
  return {
    id: record.id,
    symbol: record.symbol,
    title: record.title,
    name: record.name,
    image: imageUrls(record.image, imagesBaseUrl),
    owner_id: record.owner_id,
    owner_nick: record.owner_nick,
    items_count: record.items_count,
    created_at: record.created_at,
  };
}

export function collectionNotFound(): DomainError {
  return new DomainError('market.collection.errors.not_found', {
    message: 'This collection could not be found.',
  });
}

function imageRefused(): DomainError {
  return new DomainError('market.create_product.errors.image_upload', {
    message: 'The image upload was not found or is already used; please upload the image again.',
    fields: { 'collection.image': 'market.create_product.errors.image_upload' },
  });
}

function collectionExists(): DomainError {
  return new DomainError('market.list.errors.collection_exists', {
    message: 'This collection already exists.',
    fields: { 'collection.title': 'market.list.errors.collection_exists' },
  });
}

/** users/{id}/token/createcollection {collection: {symbol, title, image}}. */
export async function createCollection(
  deps: CollectionsDeps,
  input: { ownerId: string; collection: CreateCollectionBody['collection'] },
  now: Date,
): Promise<Collection> {
  const { ownerId, collection } = input;
  const name = collectionName(collection.title);
  const [image, nick] = await Promise.all([
    deps.repo.readImageUpload(ownerId, collection.image),
    deps.users.nickOf(ownerId),
  ]);
  if (image === undefined) throw imageRefused();
  if (nick === undefined) {
    throw new DomainError('users.errors.not_found', { message: 'This user could not be found.' });
  }
  const record: CollectionRecord = {
    id: deps.newId(now),
    symbol: collection.symbol,
    title: collection.title.trim(),
    name,
    image,
    owner_id: ownerId,
    owner_nick: nick,
    items_count: 0,
    created_at: now.toISOString(),
    upload_id: collection.image,
  };
  const outcome = await deps.repo.create(record);
  if (outcome === 'exists') throw collectionExists();
  if (outcome === 'image') throw imageRefused();
  return toCollection(record, deps.imagesBaseUrl);
}

/** users/{id}/token/findcollections: the caller's collections, newest first. */
export async function findCollections(
  deps: Pick<CollectionsDeps, 'repo' | 'imagesBaseUrl'>,
  input: { ownerId: string },
): Promise<{ items: Collection[] }> {
  const records = await deps.repo.listByOwner(input.ownerId);
  return { items: records.map((record) => toCollection(record, deps.imagesBaseUrl)) };
}

/** users/{id|-}/token/getcollection/{collectionId}?cursor=: the collection and its items. */
export async function getCollection(
  deps: Pick<CollectionsDeps, 'repo' | 'items' | 'imagesBaseUrl'>,
  input: { collectionId: string; cursor: string | undefined },
): Promise<CollectionPage> {
  const record = await deps.repo.get(input.collectionId);
  if (record === undefined) throw collectionNotFound();
  const page = await deps.items.page({
    collectionId: input.collectionId,
    cursor: input.cursor,
    limit: COLLECTION_ITEMS_PAGE,
  });
  return { collection: toCollection(record, deps.imagesBaseUrl), ...page };
}

/** For items' token/create: the collection when it exists and `ownerId` owns it. */
export async function getOwnedCollection(
  deps: Pick<CollectionsDeps, 'repo' | 'imagesBaseUrl'>,
  ownerId: string,
  collectionId: string,
): Promise<Collection | undefined> {
  const record = await deps.repo.get(collectionId);
  if (record === undefined || record.owner_id !== ownerId) return undefined;
  return toCollection(record, deps.imagesBaseUrl);
}

/** Adds `delta` to a collection's items_count; false when the collection does not exist. */
export async function countCollectionItems(
  deps: Pick<CollectionsDeps, 'repo'>,
  collectionId: string,
  delta: number,
): Promise<boolean> {
  return deps.repo.incrementItemsCount(collectionId, delta);
}
