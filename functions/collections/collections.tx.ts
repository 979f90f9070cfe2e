import { collectionKey } from './collections.keys';

/**
 * The collections domain's part of another domain's transaction (as profiles/profiles.tx.ts
 * gives accounts the profile item): the `items_count` update of a collection, as a
 * TransactWriteItems `Update` entry. Items put it in the transaction that makes an item visible
 * in its collection, so the count and the list move together.
 */
export function itemsCountUpdate(TableName: string, collectionId: string, delta: number) {
  return {
    TableName,
    Key: collectionKey(collectionId),
    UpdateExpression: 'ADD items_count :delta',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':delta': delta },
  };
}
