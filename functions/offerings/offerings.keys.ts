import { idempotencyRecordKey } from '../core/idempotency';
import { PRODUCT_TYPES, type ProductType } from '../../shared/switches';

/**
 * Offerings (listings of an item's copies), their market index entries, invitations and
 * favourites: key builders. Access patterns:
 *
 * | pattern                                             | key condition                                                   | index |
 * |-----------------------------------------------------|-----------------------------------------------------------------|-------|
 * | offering by id (listing state, version, token)      | pk = OFFERING#<id>, sk = OFFERING                               | table |
 * | a seller's offerings, newest first (any)            | gsi1pk = SELLEROFF#<seller>, gsi1sk = <created_at>#<id>         | gsi1  |
 * | a seller's offerings in a group (active/sold/closed)| gsi2pk = SELLEROFF#<seller>#<group>, gsi2sk = <created_at>#<id> | gsi2  |
 * | an item's published public offerings, newest first  | gsi3pk = ITEMOFF#<itemId>, gsi3sk = <published_at>#<id>         | gsi3  |
 * | support's pending queue, oldest first               | gsi4pk = PENDINGOFF, gsi4sk = <submitted_at>#<id>               | gsi4  |
 * | a seller's ended public offerings (user card)       | gsi4pk = ENDEDOFF#<seller>, gsi4sk = <ended_at>#<id>            | gsi4  |
 * | a collection's published public offerings           | gsi5pk = COLLOFF#<collection>, gsi5sk = <published_at>#<id>     | gsi5  |
 * | the market with filters, newest first               | pk = MARKET#<types>#<category>#<offer>, sk = <published_at>#<id>| table |
 * | is a user invited to an offering                    | pk = OFFERING#<id>, sk = INVITE#<userId>                        | table |
 * | the offerings a user is invited to, newest first    | gsi1pk = INVITED#<userId>, gsi1sk = <offeringId>                | gsi1  |
 * | who favourited an offering (auction reminders)      | gsi1pk = FAVOF#<offeringId>, gsi1sk = <userId>                  | gsi1  |
 * | is an offering a user's favourite / their favourites| pk = USER#<userId>, sk = FAV#<offeringId>                       | table |
 * | offering/create replay by Idempotency-Key           | pk = IDEMPOTENCY#offering#<userId>#<key>, sk = RESULT           | table |
 *
 * gsi4 holds an offering twice in its life, never at once: in the pending queue while support
 * decides, in its seller's ended list after it closed. The market entries are copies of the card
 * (one per filter combination the offering matches, written when it is published and deleted
 * when it leaves the market), so each market page is one Query of one partition.
 */
export const OFFERING_TYPE = 'offering';
export const MARKET_ENTRY_TYPE = 'market_entry';
export const INVITE_TYPE = 'offering_invite';
export const FAVORITE_TYPE = 'favorite';

export interface Key {
  pk: string;
  sk: string;
}

export function offeringKey(offeringId: string): Key {
  return { pk: `OFFERING#${offeringId}`, sk: 'OFFERING' };
}

export function sellerPartition(sellerId: string): string {
  return `SELLEROFF#${sellerId}`;
}

export function sellerGroupPartition(sellerId: string, group: string): string {
  return `SELLEROFF#${sellerId}#${group}`;
}

export function itemOfferingsPartition(itemId: string): string {
  return `ITEMOFF#${itemId}`;
}

export const PENDING_PARTITION = 'PENDINGOFF';

export function endedPartition(sellerId: string): string {
  return `ENDEDOFF#${sellerId}`;
}

export function collectionOfferingsPartition(collectionId: string): string {
  return `COLLOFF#${collectionId}`;
}

/** `<time>#<id>`: time-ordered sort keys (ids are ULIDs, so ties order by creation). */
export function timeSort(at: string, offeringId: string): string {
  return `${at}#${offeringId}`;
}

/** The market filter key of a set of product types: 'any' for none or all of them. */
export function typesKey(types: readonly ProductType[]): string {
  const set = [...new Set(types)].sort();
  if (set.length === 0 || set.length === PRODUCT_TYPES.length) return 'any';
  return set.join('+');
}

export function marketPartition(types: string, category: string, offer: string): string {
  return `MARKET#${types}#${category}#${offer}`;
}

export function inviteKey(offeringId: string, userId: string): Key {
  return { pk: `OFFERING#${offeringId}`, sk: `INVITE#${userId}` };
}

export function invitedPartition(userId: string): string {
  return `INVITED#${userId}`;
}

export const INVITE_PREFIX = 'INVITE#';
export const FAVORITE_PREFIX = 'FAV#';

export function favoriteKey(userId: string, offeringId: string): Key {
  return { pk: `USER#${userId}`, sk: `${FAVORITE_PREFIX}${offeringId}` };
}

/** Who favourited an offering (gsi1 of the favourite records). */
export function offeringFavoritesPartition(offeringId: string): string {
  return `FAVOF#${offeringId}`;
}

export function favoritesPartition(userId: string): string {
  return `USER#${userId}`;
}

export function createIdempotencyScope(userId: string): string {
  return `offering#${userId}`;
}

export function createIdempotencyKey(userId: string, key: string): Key {
  return idempotencyRecordKey(createIdempotencyScope(userId), key);
}
