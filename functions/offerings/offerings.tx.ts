import { indexKeysOf, type OfferingRecord } from './offerings';
import { OFFERING_TYPE, offeringKey } from './offerings.keys';

/**
 * The offerings domain's transaction pieces other domains join (orders: a paid order writes the
 * offering's new copies left in the same transaction that moves the copies), and the item the
 * repo writes for an offering. Pure: they return entries; the joining repo sends them.
 */

/** The stored item of an offering: its keys, its fields and the index keys its state implies. */
export function offeringItem({ type, ...record }: OfferingRecord): Record<string, unknown> {
  return {
    ...offeringKey(record.id),
    ...record,
    type: OFFERING_TYPE,
    offering_type: type,
    ...indexKeysOf({ ...record, type }),
  };
}

/** The offering written whole, on condition it is still the version read. */
export function offeringPutPiece(TableName: string, record: OfferingRecord, expected: number) {
  return {
    Put: {
      TableName,
      Item: offeringItem(record),
      ConditionExpression: 'version = :expected',
      ExpressionAttributeValues: { ':expected': expected },
    },
  };
}
