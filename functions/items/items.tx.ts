import type { HoldingRecord, StoredSummary } from './items';
import {
  copyKey,
  historyKey,
  holdingKey,
  HISTORY_TYPE,
  HOLDING_TYPE,
  publicIndexKeys,
  uploadKey,
} from './items.keys';
import { appendRecord, type ProvenanceRecord } from './provenance';

/**
 * The items domain's transaction pieces that other domains join (collections: a new collection
 * claims a confirmed image upload inside its own transaction).
 *
 * The upload claim (read by items.repo.ts readClaimableImageUpload): the upload item
 * (`pk = USER#<ownerId>, sk = UPLOAD#<uploadId>`, written by items' store-token-images/confirm).
 * It assumes the attributes `user_id` (= owner), `kind` ('image'), `status` ('pending' |
 * 'confirmed' | 'used') and `image: { full, thumb }` (S3 keys of the re-encoded WebP images in
 * the images bucket), and a `ttl` that a used upload must lose. Claiming sets status 'used' and
 * `collection_id`, removes `ttl`, on condition status = 'confirmed' AND kind = 'image' AND
 * user_id = owner.
 */

export function claimImageUploadUpdate(
  TableName: string,
  ownerId: string,
  uploadId: string,
  collectionId: string,
) {
  return {
    TableName,
    Key: uploadKey(ownerId, uploadId),
    UpdateExpression: 'SET #status = :used, collection_id = :collection REMOVE #ttl',
    ConditionExpression: '#status = :confirmed AND #kind = :image AND user_id = :owner',
    ExpressionAttributeNames: { '#status': 'status', '#kind': 'kind', '#ttl': 'ttl' },
    ExpressionAttributeValues: {
      ':used': 'used',
      ':confirmed': 'confirmed',
      ':image': 'image',
      ':owner': ownerId,
      ':collection': collectionId,
    },
  };
}

/*
 * Copies bought (issue 12). A copy an offering holds (`status = blocked`, `offering_id`) is booked
 * for an order by setting `order_id` and `booked_until` (ISO-8601, compared as strings: every
 * timestamp here is `Date.toISOString()`); a booking whose time passed may be taken by another
 * order. The order's payment moves the copy to the buyer with its next provenance record; a
 * cancelled sale moves it back. Each piece is conditioned so that it applies exactly once.
 */

/** Books a copy of the offering for the order (free, expired, or already this order's). */
export function bookCopyUpdate(
  TableName: string,
  input: {
    itemId: string;
    serial: number;
    offeringId: string;
    orderId: string;
    until: string;
    now: string;
  },
) {
  return {
    TableName,
    Key: copyKey(input.itemId, input.serial),
    UpdateExpression: 'SET order_id = :order, booked_until = :until',
    ConditionExpression:
      '#status = :blocked AND offering_id = :offering AND (attribute_not_exists(order_id) OR booked_until < :now OR order_id = :order)',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ':blocked': 'blocked',
      ':offering': input.offeringId,
      ':order': input.orderId,
      ':until': input.until,
      ':now': input.now,
    },
  };
}

/**
 * Ends the order's booking of a copy. While the offering is on sale the copy stays in it;
 * `toSeller` (the offering is over) gives it back to the seller as available.
 */
export function releaseBookingUpdate(
  TableName: string,
  input: { itemId: string; serial: number; orderId: string; toSeller: boolean },
) {
  return {
    TableName,
    Key: copyKey(input.itemId, input.serial),
    UpdateExpression: input.toSeller
      ? 'SET #status = :available REMOVE order_id, booked_until, offering_id'
      : 'REMOVE order_id, booked_until',
    ConditionExpression: '#status = :blocked AND order_id = :order',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ':blocked': 'blocked',
      ':order': input.orderId,
      ...(input.toSeller ? { ':available': 'available' } : {}),
    },
  };
}

/**
 * A copy of an offering that is over, no longer booked, back to the seller (the offering's own
 * release skipped it while it was booked).
 */
export function returnUnbookedCopyUpdate(
  TableName: string,
  input: { itemId: string; serial: number; offeringId: string },
) {
  return {
    TableName,
    Key: copyKey(input.itemId, input.serial),
    UpdateExpression: 'SET #status = :available REMOVE offering_id',
    ConditionExpression:
      '#status = :blocked AND offering_id = :offering AND attribute_not_exists(order_id)',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ':blocked': 'blocked',
      ':available': 'available',
      ':offering': input.offeringId,
    },
  };
}

export interface OwnerChange {
  itemId: string;
  serial: number;
  nftuniqueid: string;
  from: { id: string; nick: string };
  to: { id: string; nick: string };
  /** The copy's newest provenance record (its hash is the copy's head). */
  previous: ProvenanceRecord;
  at: string;
  orderId: string;
  price: { amount: number; currency: string } | null;
}

/**
 * A sold copy: the copy changes owner (available to its new owner, out of the offering) and its
 * next provenance record (`sold`, with the price and the order) is appended. The copy must still
 * be the offering's and the seller's, booked by this order or free, with the head read.
 */
export function saleCopyPieces(
  TableName: string,
  input: OwnerChange & { offeringId: string; now: string },
) {
  const record = appendRecord(input.nftuniqueid, input.previous, {
    event: 'sold',
    from_id: input.from.id,
    from_nick: input.from.nick,
    to_id: input.to.id,
    to_nick: input.to.nick,
    at: input.at,
    ref: input.orderId,
    price: input.price,
  });
  return [
    {
      Update: {
        TableName,
        Key: copyKey(input.itemId, input.serial),
        UpdateExpression:
          'SET owner_id = :to, owner_nick = :toNick, owner_since = :at, #status = :available, head = :head REMOVE offering_id, order_id, booked_until',
        ConditionExpression:
          '#status = :blocked AND offering_id = :offering AND owner_id = :from AND head = :previous AND (attribute_not_exists(order_id) OR order_id = :order OR booked_until < :now)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':to': input.to.id,
          ':toNick': input.to.nick,
          ':at': input.at,
          ':available': 'available',
          ':head': record.hash,
          ':blocked': 'blocked',
          ':offering': input.offeringId,
          ':from': input.from.id,
          ':previous': input.previous.hash,
          ':order': input.orderId,
          ':now': input.now,
        },
      },
    },
    {
      Put: {
        TableName,
        Item: { ...historyKey(input.nftuniqueid, record.seq), type: HISTORY_TYPE, ...record },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ];
}

/**
 * A cancelled sale: the copy goes back from the buyer to the seller (available, unlisted) with a
 * `refunded` record. The buyer must still hold it, free, with the head read.
 */
export function refundCopyPieces(TableName: string, input: OwnerChange) {
  const record = appendRecord(input.nftuniqueid, input.previous, {
    event: 'refunded',
    from_id: input.from.id,
    from_nick: input.from.nick,
    to_id: input.to.id,
    to_nick: input.to.nick,
    at: input.at,
    ref: input.orderId,
    price: input.price,
  });
  return [
    {
      Update: {
        TableName,
        Key: copyKey(input.itemId, input.serial),
        UpdateExpression:
          'SET owner_id = :to, owner_nick = :toNick, owner_since = :at, head = :head',
        ConditionExpression: '#status = :available AND owner_id = :from AND head = :previous',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':to': input.to.id,
          ':toNick': input.to.nick,
          ':at': input.at,
          ':head': record.hash,
          ':available': 'available',
          ':from': input.from.id,
          ':previous': input.previous.hash,
        },
      },
    },
    {
      Put: {
        TableName,
        Item: { ...historyKey(input.nftuniqueid, record.seq), type: HISTORY_TYPE, ...record },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ];
}

/**
 * A holding's count after copies changed owner. `current` is the holding as read (undefined: the
 * user holds none yet). Going to zero deletes it (conditioned on the count read); otherwise the
 * count moves by `delta` conditioned on it, and a new holding is written whole.
 */
export function holdingChangePiece(
  TableName: string,
  input: {
    ownerId: string;
    itemId: string;
    delta: number;
    current: HoldingRecord | undefined;
    summary: StoredSummary;
  },
) {
  const key = holdingKey(input.ownerId, input.itemId);
  if (input.current === undefined) {
    if (input.delta <= 0) throw new RangeError('No holding to take copies from');
    const holding: HoldingRecord = {
      owner_id: input.ownerId,
      item_id: input.itemId,
      count: input.delta,
      visible: true,
      summary: input.summary,
    };
    return {
      Put: {
        TableName,
        Item: {
          ...key,
          type: HOLDING_TYPE,
          ...holding,
          product_type: input.summary.product_type,
          ...publicIndexKeys(input.ownerId, input.itemId),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
  }
  const count = input.current.count + input.delta;
  if (count < 0) throw new RangeError('A holding cannot go below zero');
  if (count === 0) {
    return {
      Delete: {
        TableName,
        Key: key,
        ConditionExpression: '#count = :count',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':count': input.current.count },
      },
    };
  }
  return {
    Update: {
      TableName,
      Key: key,
      UpdateExpression: 'SET #count = :next',
      ConditionExpression: '#count = :count',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':count': input.current.count, ':next': count },
    },
  };
}
