/**
 * Collections: key builders. Access patterns:
 *
 * | pattern                                   | key condition                                          | index |
 * |-------------------------------------------|--------------------------------------------------------|-------|
 * | collection by id                          | pk = COLLECTION#<id>, sk = COLLECTION                  | table |
 * | an owner's collections, newest first      | gsi1pk = COLLECTIONS#<ownerId>, gsi1sk = <created_at>#<id> | gsi1 |
 * | name guard (name unique per owner)        | pk = COLLNAME#<ownerId>#<name>, sk = GUARD             | table |
 *
 * A collection and its name guard are written in one TransactWriteItems (both attribute_not_exists),
 * together with the claim of the image upload (items' upload item, through items.tx.ts),
 * so two creations of the same name (any case) never both succeed. The items of a collection are
 * listed by the items domain (items/queries.ts listCollectionItems, its gsi3 keys).
 */

export const COLLECTION_TYPE = 'collection';
export const COLLECTION_NAME_GUARD_TYPE = 'collection_name';

export interface Key {
  pk: string;
  sk: string;
}

export function collectionKey(collectionId: string): Key {
  return { pk: `COLLECTION#${collectionId}`, sk: 'COLLECTION' };
}

export function ownerCollectionsPartition(ownerId: string): string {
  return `COLLECTIONS#${ownerId}`;
}

export function ownerCollectionsIndexKeys(
  ownerId: string,
  createdAt: string,
  collectionId: string,
): { gsi1pk: string; gsi1sk: string } {
  return { gsi1pk: ownerCollectionsPartition(ownerId), gsi1sk: `${createdAt}#${collectionId}` };
}

export function collectionNameGuardKey(ownerId: string, name: string): Key {
  return { pk: `COLLNAME#${ownerId}#${name}`, sk: 'GUARD' };
}
