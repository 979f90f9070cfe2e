import { DomainError } from '../core/errors';
import { PAGE_SIZE } from '../../shared/constants/limits';
import type { Collection } from '../../shared/schemas/items';
import type {
  GetOfferingsBody,
  MyOfferingFilter,
  OfferingCard,
  OfferingDetail,
  OfferingPage,
} from '../../shared/schemas/offerings';
import { offeringNotFound } from './listing';
import {
  collectionOfferingsPartition,
  endedPartition,
  itemOfferingsPartition,
  marketPartition,
  sellerGroupPartition,
  sellerPartition,
  typesKey,
} from './offerings.keys';
import { cardOf, detailOf, storedCardOf, type OfferingRecord } from './offerings';
import type { Page } from './offerings.repo';
import type { OfferingsDeps } from './ports';

/**
 * The market's reads (issue 11 §4–§6): every list is one Query of one partition (the market
 * entries, or an index the offering's state puts it under), except the lists of ids kept per user
 * (favourites, invitations), which read their page of offerings with one BatchGetItem.
 */

/** Whether `viewer` may see the offering at all (private: its seller and invitees only). */
async function maySee(
  deps: OfferingsDeps,
  record: OfferingRecord,
  viewer: string | null,
): Promise<boolean> {
  if (viewer === record.seller_id) return true;
  // Offerings still being created, or refused, are their seller's business only.
  if (record.status === 'creating' || record.status === 'confirm') return false;
  if (record.status === 'error' || record.status === 'cancelled') return false;
  if (record.status === 'pending' || record.status === 'not_validated') return false;
  if (record.access === 'public') return true;
  return viewer !== null && deps.repo.isInvited(record.id, viewer);
}

/** POST users/{id|-}/offering/getofferingbyid/{offeringId}: 404 for what the viewer may not see. */
export async function getOfferingById(
  deps: OfferingsDeps,
  viewer: string | null,
  offeringId: string,
  now: Date,
): Promise<OfferingDetail> {
  const record = await deps.repo.get(offeringId);
  if (record === undefined || !(await maySee(deps, record, viewer))) throw offeringNotFound();
  const favorite = viewer === null ? false : await deps.repo.isFavorite(viewer, offeringId);
  return detailOf(record, { id: viewer, favorite }, deps.imagesBaseUrl, now);
}

function cardsOf(
  deps: OfferingsDeps,
  records: readonly OfferingRecord[],
  next: string | null,
  now: Date,
): OfferingPage {
  return {
    items: records.map((record) => cardOf(storedCardOf(record), deps.imagesBaseUrl, now)),
    nextCursor: next,
  };
}

/** The cards of offerings by id (another domain's lists: My Bids), in no particular order. */
export async function getOfferingCards(
  deps: Pick<OfferingsDeps, 'repo' | 'imagesBaseUrl'>,
  offeringIds: readonly string[],
  now: Date,
): Promise<OfferingCard[]> {
  const records = await deps.repo.getMany(offeringIds);
  return records.map((record) => cardOf(storedCardOf(record), deps.imagesBaseUrl, now));
}

/** POST users/{id|-}/offering/getofferings: one of the lists, by what the body asks. */
export async function getOfferings(
  deps: OfferingsDeps,
  viewer: string | null,
  body: GetOfferingsBody,
  now: Date,
): Promise<OfferingPage> {
  const limit = body.limit;
  if (body.invited === true) {
    if (viewer === null) {
      throw new DomainError('unauthenticated', { message: 'Log in to see your invitations.' });
    }
    const ids = await deps.repo.listInvited(viewer, body.last, limit);
    return cardsOf(deps, await deps.repo.getMany(ids.items), ids.next, now);
  }
  let page: Page<OfferingRecord>;
  if (body.collectionid !== undefined) {
    page = await deps.repo.queryIndex(
      'collection',
      'gsi5',
      collectionOfferingsPartition(body.collectionid),
      { cursor: body.last, limit },
    );
  } else if (body.item_id !== undefined) {
    page = await deps.repo.queryIndex('item', 'gsi3', itemOfferingsPartition(body.item_id), {
      cursor: body.last,
      limit,
    });
  } else if (body.ownernick !== undefined) {
    if (body.status !== 'closed') {
      throw new DomainError('invalid_request', {
        message: "A seller's offerings are listed with status closed (their ended offerings).",
        fields: { status: 'forms.validation.enum' },
      });
    }
    const sellerId = await deps.userIdByNick(body.ownernick);
    if (sellerId === undefined) {
      throw new DomainError('users.errors.not_found', { message: 'This user could not be found.' });
    }
    page = await deps.repo.queryIndex('ended', 'gsi4', endedPartition(sellerId), {
      cursor: body.last,
      limit,
    });
  } else {
    const partition = marketPartition(typesKey(body.types), body.category, body.offer);
    const entries = await deps.repo.queryMarket(partition, body.last, limit);
    return {
      items: entries.items.map((entry) => cardOf(entry.card, deps.imagesBaseUrl, now)),
      nextCursor: entries.next,
    };
  }
  return cardsOf(deps, page.items, page.next, now);
}

/** POST users/{id}/offering/getmyofferings {status, last}: the seller's own, newest first. */
export async function getMyOfferings(
  deps: OfferingsDeps,
  callerId: string,
  status: MyOfferingFilter,
  last: string | undefined,
  now: Date,
): Promise<OfferingPage> {
  const page =
    status === 'any'
      ? await deps.repo.queryIndex('mine', 'gsi1', sellerPartition(callerId), {
          cursor: last,
          limit: PAGE_SIZE.large,
        })
      : await deps.repo.queryIndex(
          `mine-${status}`,
          'gsi2',
          sellerGroupPartition(callerId, status),
          { cursor: last, limit: PAGE_SIZE.large },
        );
  return cardsOf(deps, page.items, page.next, now);
}

/** GET users/{id}/favorites?cursor: the caller's favourites (Query + one BatchGetItem). */
export async function getFavorites(
  deps: OfferingsDeps,
  callerId: string,
  cursor: string | undefined,
  now: Date,
): Promise<OfferingPage> {
  const ids = await deps.repo.listFavorites(callerId, cursor, PAGE_SIZE.large);
  const records = await deps.repo.getMany(ids.items);
  const visible: OfferingRecord[] = [];
  for (const record of records) {
    // A private offering the user is no longer invited to is not shown (nor its existence).
    if (await maySee(deps, record, callerId)) visible.push(record);
  }
  return cardsOf(deps, visible, ids.next, now);
}

/** Collections of an owner (the market's Collections tab; getownercollections by nick). */
export async function getOwnerCollections(
  deps: OfferingsDeps,
  nick: string,
): Promise<{ items: Collection[] }> {
  const ownerId = await deps.userIdByNick(nick);
  if (ownerId === undefined) {
    throw new DomainError('users.errors.not_found', { message: 'This user could not be found.' });
  }
  return { items: await deps.collectionsOf(ownerId) };
}

export async function getMyOwnerCollections(
  deps: OfferingsDeps,
  callerId: string,
): Promise<{ items: Collection[] }> {
  return { items: await deps.collectionsOf(callerId) };
}
