import { DomainError } from '../core/errors';
import { PAGE_SIZE } from '../../shared/constants/limits';
import type {
  Copy,
  History,
  ItemDetail,
  ItemPage,
  ItemSummary,
  MyProductsBody,
  UserLimits,
} from '../../shared/schemas/items';
import { parseNftUniqueId } from './items.keys';
import {
  FILE_LINK_EXPIRES_SECONDS,
  itemNotFound,
  summaryOf,
  toDetail,
  toSummary,
  type CopyRecord,
  type CreatorLimits,
  type HoldingRecord,
  type ItemRecord,
} from './items';
import type { ItemFilesStore, ItemsRepo } from './items.repo';
import { verifyHistory } from './provenance';

/** The reads of the items domain: lists, detail, copies, provenance, limits, the file link. */
export interface QueriesDeps {
  repo: ItemsRepo;
  users: { userIdByNick(nick: string): Promise<string | undefined> };
  files: Pick<ItemFilesStore, 'signedGet'>;
  imagesBaseUrl: string;
  limits: CreatorLimits;
}

const holdingSummary = (holding: HoldingRecord, imagesBaseUrl: string, own: boolean) =>
  toSummary(holding.summary, imagesBaseUrl, {
    owned: holding.count,
    visible: own ? holding.visible : true,
  });

/** POST users/{id}/token/getmyproducts: holdings (default, tickets) or creations (onlyMint). */
export async function getMyProducts(
  deps: QueriesDeps,
  input: { userId: string; body: MyProductsBody },
): Promise<ItemPage> {
  const { body } = input;
  const limit = body.limit ?? PAGE_SIZE.large;
  const cursor = body.last ?? undefined;
  if (body.onlyMint === true || body.tokenType === 'creations') {
    const page = await deps.repo.listMints(input.userId, cursor, limit, body.productType);
    return {
      items: page.items.map((item) => toSummary(summaryOf(item), deps.imagesBaseUrl, null)),
      nextCursor: page.next,
    };
  }
  const productType = body.tokenType === 'tickets' ? 'ticket' : body.productType;
  const page = await deps.repo.listHoldings(input.userId, cursor, limit, productType);
  return {
    items: page.items.map((holding) => holdingSummary(holding, deps.imagesBaseUrl, true)),
    nextCursor: page.next,
  };
}

/** The finalised items of a collection, newest first (the collections domain's getcollection). */
export async function listCollectionItems(
  deps: Pick<QueriesDeps, 'repo' | 'imagesBaseUrl'>,
  input: { collectionId: string; cursor: string | undefined; limit: number },
): Promise<{ items: ItemSummary[]; nextCursor: string | null }> {
  const page = await deps.repo.listCollectionItems(input.collectionId, input.cursor, input.limit);
  return {
    items: page.items.map((item) => toSummary(summaryOf(item), deps.imagesBaseUrl, null)),
    nextCursor: page.next,
  };
}

/** POST users/{id}/token/getpublicproducts: the visible holdings of `sourceUserNick`. */
export async function getPublicProducts(
  deps: Pick<QueriesDeps, 'repo' | 'users' | 'imagesBaseUrl'>,
  input: { nick: string; last: string | undefined; limit: number | undefined },
): Promise<ItemPage> {
  const ownerId = await deps.users.userIdByNick(input.nick);
  if (ownerId === undefined) {
    throw new DomainError('users.errors.not_found', { message: 'This user could not be found.' });
  }
  const page = await deps.repo.listPublicHoldings(
    ownerId,
    input.last,
    input.limit ?? PAGE_SIZE.large,
  );
  return {
    items: page.items.map((holding) => holdingSummary(holding, deps.imagesBaseUrl, false)),
    nextCursor: page.next,
  };
}

function toCopy(copy: CopyRecord): Copy {
  return {
    nftuniqueid: copy.nftuniqueid,
    index: copy.serial,
    owner_id: copy.owner_id,
    owner_nick: copy.owner_nick,
    owner_since: copy.owner_since,
    status: copy.status,
  };
}

async function doneItem(deps: Pick<QueriesDeps, 'repo'>, itemId: string): Promise<ItemRecord> {
  const item = await deps.repo.getItem(itemId);
  if (item === undefined || item.status !== 'done') throw itemNotFound();
  return item;
}

async function mayDownload(
  deps: Pick<QueriesDeps, 'repo'>,
  item: ItemRecord,
  callerId: string | null,
): Promise<boolean> {
  if (callerId === null) return false;
  if (callerId === item.creator_id) return true;
  const holding = await deps.repo.getHolding(callerId, item.id);
  return holding !== undefined && holding.count > 0;
}

/** POST users/{id}/token/getproductbyid/{itemId}: 404 until the creation is done. */
export async function getProductById(
  deps: QueriesDeps,
  input: { itemId: string; callerId: string | null },
): Promise<ItemDetail> {
  const item = await doneItem(deps, input.itemId);
  const [copies, canDownload] = await Promise.all([
    deps.repo.listCopies(item.id, undefined, PAGE_SIZE.large),
    mayDownload(deps, item, input.callerId),
  ]);
  return toDetail(item, deps.imagesBaseUrl, {
    can_download: canDownload && item.file !== null,
    copies_page: { items: copies.items.map(toCopy), nextCursor: copies.next },
  });
}

/** GET users/{id}/token/{itemId}/copies?cursor=: 50 per page, serial order. */
export async function listCopies(
  deps: QueriesDeps,
  input: { itemId: string; cursor: string | undefined },
): Promise<{ items: Copy[]; nextCursor: string | null }> {
  const item = await doneItem(deps, input.itemId);
  const page = await deps.repo.listCopies(item.id, input.cursor, PAGE_SIZE.large);
  return { items: page.items.map(toCopy), nextCursor: page.next };
}

/** GET users/{id}/token/gethistoric/{nftuniqueid}: the chain, verified against the copy's head. */
export async function getHistory(
  deps: QueriesDeps,
  input: { nftuniqueid: string },
): Promise<History> {
  const parsed = parseNftUniqueId(input.nftuniqueid);
  if (parsed === null) throw itemNotFound();
  await doneItem(deps, parsed.itemId);
  const copy = await deps.repo.getCopy(parsed.itemId, parsed.serial);
  if (copy === undefined) throw itemNotFound();
  const records = await deps.repo.getHistory(copy.nftuniqueid);
  const verdict = verifyHistory(copy.nftuniqueid, records, copy.head);
  return {
    nftuniqueid: copy.nftuniqueid,
    records: records.map((record) => ({
      seq: record.seq,
      event: record.event,
      from_id: record.from_id,
      from_nick: record.from_nick,
      to_id: record.to_id,
      to_nick: record.to_nick,
      at: record.at,
      ref: record.ref,
      price: record.price ?? null,
      prev_hash: record.prev_hash,
      hash: record.hash,
    })),
    head: copy.head,
    verified: verdict.ok,
  };
}

/** POST users/{id}/token/switch-visibility: shows or hides a holding on the public profile. */
export async function switchVisibility(
  deps: Pick<QueriesDeps, 'repo'>,
  input: { userId: string; itemId: string; visible: boolean },
): Promise<{ item_id: string; visible: boolean }> {
  if (!(await deps.repo.setVisibility(input.userId, input.itemId, input.visible))) {
    throw itemNotFound();
  }
  return { item_id: input.itemId, visible: input.visible };
}

/** GET users/{id}/get-user-limits (spec 001 §3). */
export async function getUserLimits(
  deps: Pick<QueriesDeps, 'repo' | 'limits'>,
  input: { userId: string },
): Promise<UserLimits> {
  const used = await deps.repo.getLimits(input.userId);
  const { capacity, maxMints, enabled } = deps.limits;
  return {
    limitCapacity: capacity,
    overlay: used.file_bytes,
    firestore: used.image_bytes,
    mints: { used: used.mints_used, limit: maxMints },
    reached: enabled && (used.mints_used >= maxMints || used.bytes_used >= capacity),
  };
}

/** GET users/{id}/token/{itemId}/file: a 5-minute presigned GET for the creator and holders. */
export async function getFileLink(
  deps: QueriesDeps,
  input: { userId: string; itemId: string },
  now: Date,
): Promise<{ url: string; expires_at: string }> {
  const item = await doneItem(deps, input.itemId);
  if (item.file === null) throw itemNotFound();
  if (!(await mayDownload(deps, item, input.userId))) {
    throw new DomainError('forbidden', { message: 'Only owners can download this file.' });
  }
  return {
    url: await deps.files.signedGet(item.file.key, item.file.name, FILE_LINK_EXPIRES_SECONDS),
    expires_at: new Date(now.getTime() + FILE_LINK_EXPIRES_SECONDS * 1000).toISOString(),
  };
}
