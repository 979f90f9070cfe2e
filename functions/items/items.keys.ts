import { idempotencyRecordKey } from '../core/idempotency';
/**
 * Items (token series), their numbered copies, provenance, uploads and creator limits: key
 * builders. Access patterns:
 *
 * | pattern                                        | key condition                                                 | index |
 * |------------------------------------------------|---------------------------------------------------------------|-------|
 * | item by id                                     | pk = ITEM#<itemId>, sk = ITEM                                 | table |
 * | copies of an item, by serial                   | pk = ITEM#<itemId>, begins_with(sk, 'COPY#')                  | table |
 * | copy by nftuniqueid (`<itemId>-<serial 3>`)    | pk = ITEM#<itemId>, sk = COPY#<serial 3 digits>               | table |
 * | history of a copy, oldest first                | pk = HIST#<nftuniqueid>, sk = <seq 6 digits>                  | table |
 * | a creator's items, newest first (mymints)      | gsi1pk = MINTS#<creatorId>, gsi1sk = <created_at>#<itemId>    | gsi1  |
 * | a user's holdings (mytokens), newest first     | pk = USER#<ownerId>, begins_with(sk, 'HOLDING#')              | table |
 * | a user's public holdings (profile)             | gsi2pk = PUBLIC#<ownerId>, gsi2sk = <itemId>                  | gsi2  |
 * | items of a collection, newest first            | gsi3pk = COLLITEMS#<collectionId>, gsi3sk = <itemId>          | gsi3  |
 * | a user's creator limits                        | pk = USER#<id>, sk = LIMITS                                   | table |
 * | an upload (image or attached file) of a user   | pk = USER#<id>, sk = UPLOAD#<uploadId>                        | table |
 * | token/create replay by Idempotency-Key         | pk = IDEMPOTENCY#create#<userId>#<key>, sk = RESULT           | table |
 *
 * Visibility is made by keys: an item being created has no gsi keys and no holding, so no list
 * shows it; the finalising transaction adds them all at once. Item ids are ULIDs, so `HOLDING#`,
 * `gsi2sk` and `gsi3sk` sort by creation time.
 */
export const ITEM_TYPE = 'item';
export const COPY_TYPE = 'copy';
export const HISTORY_TYPE = 'history';
export const HOLDING_TYPE = 'holding';
export const LIMITS_TYPE = 'limits';
export const UPLOAD_TYPE = 'upload';

export interface Key {
  pk: string;
  sk: string;
}

const SERIAL_DIGITS = 3;
const SEQ_DIGITS = 6;

export function itemKey(itemId: string): Key {
  return { pk: `ITEM#${itemId}`, sk: 'ITEM' };
}

export const COPY_PREFIX = 'COPY#';

export function serialPart(serial: number): string {
  if (!Number.isInteger(serial) || serial < 1 || serial > 999) {
    throw new RangeError(`serial must be an integer in 1..999, got ${serial}`);
  }
  return String(serial).padStart(SERIAL_DIGITS, '0');
}

export function copyKey(itemId: string, serial: number): Key {
  return { pk: `ITEM#${itemId}`, sk: `${COPY_PREFIX}${serialPart(serial)}` };
}

/** A copy's unique id: its item and its serial, so the copy is one GetItem away. */
export function nftUniqueId(itemId: string, serial: number): string {
  return `${itemId}-${serialPart(serial)}`;
}

export function parseNftUniqueId(value: string): { itemId: string; serial: number } | null {
  const match = /^([0-9A-HJKMNP-TV-Z]{26})-(\d{3})$/.exec(value);
  if (match === null) return null;
  const serial = Number(match[2]);
  if (serial < 1) return null;
  return { itemId: match[1] as string, serial };
}

export function historyKey(nftuniqueid: string, seq: number): Key {
  return { pk: `HIST#${nftuniqueid}`, sk: String(seq).padStart(SEQ_DIGITS, '0') };
}

export function historyPartition(nftuniqueid: string): string {
  return `HIST#${nftuniqueid}`;
}

export function mintsIndexKeys(
  creatorId: string,
  createdAt: string,
  itemId: string,
): { gsi1pk: string; gsi1sk: string } {
  return { gsi1pk: `MINTS#${creatorId}`, gsi1sk: `${createdAt}#${itemId}` };
}

export function mintsPartition(creatorId: string): string {
  return `MINTS#${creatorId}`;
}

export const HOLDING_PREFIX = 'HOLDING#';

export function holdingKey(ownerId: string, itemId: string): Key {
  return { pk: `USER#${ownerId}`, sk: `${HOLDING_PREFIX}${itemId}` };
}

export function publicIndexKeys(
  ownerId: string,
  itemId: string,
): { gsi2pk: string; gsi2sk: string } {
  return { gsi2pk: `PUBLIC#${ownerId}`, gsi2sk: itemId };
}

export function publicPartition(ownerId: string): string {
  return `PUBLIC#${ownerId}`;
}

export function collectionItemsIndexKeys(
  collectionId: string,
  itemId: string,
): { gsi3pk: string; gsi3sk: string } {
  return { gsi3pk: `COLLITEMS#${collectionId}`, gsi3sk: itemId };
}

export function collectionItemsPartition(collectionId: string): string {
  return `COLLITEMS#${collectionId}`;
}

export function limitsKey(userId: string): Key {
  return { pk: `USER#${userId}`, sk: 'LIMITS' };
}

export function uploadKey(userId: string, uploadId: string): Key {
  return { pk: `USER#${userId}`, sk: `UPLOAD#${uploadId}` };
}

/** The scope of a creator's token/create replay records (core/idempotency.ts owns their keys). */
export function createIdempotencyScope(userId: string): string {
  return `create#${userId}`;
}

export function createIdempotencyKey(userId: string, idempotencyKey: string): Key {
  return idempotencyRecordKey(createIdempotencyScope(userId), idempotencyKey);
}
