import { idempotencyRecordKey } from '../core/idempotency';

/**
 * Orders (issue 12): key builders. Access patterns:
 *
 * | pattern                                             | key condition                                          | index |
 * |-----------------------------------------------------|--------------------------------------------------------|-------|
 * | order by id                                         | pk = ORDER#<orderId>, sk = ORDER                       | table |
 * | a buyer's orders, newest first (retrievebycustomer) | gsi1pk = BUYS#<buyerId>, gsi1sk = <orderId>            | gsi1  |
 * | a seller's sales, newest first (retrievebyseller)   | gsi2pk = SALES#<sellerId>, gsi2sk = <orderId>          | gsi2  |
 * | an offering's paid orders (retrievebyoffering)      | gsi3pk = OFFORDERS#<offeringId>, gsi3sk = <orderId>    | gsi3  |
 * | a user's market activity (retrievemarket)           | pk = USER#<userId>, begins_with(sk, 'ORDERACT#')       | table |
 * | a user's wallet activity (payments, payouts)        | pk = USER#<userId>, begins_with(sk, 'WALLET#')         | table |
 * | booking replay by Idempotency-Key                   | pk = IDEMPOTENCY#preorder#<userId>#<key>, sk = RESULT  | table |
 * | a user's payouts waiting for a payout account       | pk = USER#<userId>, begins_with(sk, 'WAITPAY#')        | table |
 * | orders due for the sweeper, oldest first (8 shards)  | gsi4pk = ORDERDUE#<0-7>, gsi4sk < <time>               | gsi4  |
 * | orders whose payment is disputed, soonest deadline  | gsi5pk = DISPUTES#OPEN, gsi5sk = <due_by>#<orderId>    | gsi5  |
 * | what a user's payout account owes, per currency      | pk = USER#<userId>, sk = OWED#<currency>               | table |
 * | every account owing something (support)             | gsi1pk = OWED#ALL, gsi1sk = <userId>#<currency>        | gsi1  |
 * | how a user's debt came and went (refused reversals,  | pk = USER#<userId>, begins_with(sk, 'OWEDLINE#')       | table |
 * |   shares netted)                                    |                                                        |       |
 *
 * Order ids are `oR` + a ULID, so every list sorts by creation time. A seller's and an offering's
 * lists show an order once it is paid for (the index keys follow the status: orders.ts
 * `indexKeysOf`); a booking that expired stays in its buyer's list only.
 */
export const ORDER_TYPE = 'order';
export const ORDER_ACTIVITY_TYPE = 'order_activity';
export const WALLET_ENTRY_TYPE = 'wallet_entry';
export const WAITING_PAYOUT_TYPE = 'waiting_payout';
export const OWED_TYPE = 'owed';
export const OWED_LINE_TYPE = 'owed_line';

export interface Key {
  pk: string;
  sk: string;
}

export function orderKey(orderId: string): Key {
  return { pk: `ORDER#${orderId}`, sk: 'ORDER' };
}

export function buyerPartition(userId: string): string {
  return `BUYS#${userId}`;
}

export function sellerPartition(userId: string): string {
  return `SALES#${userId}`;
}

export function offeringOrdersPartition(offeringId: string): string {
  return `OFFORDERS#${offeringId}`;
}

export const ACTIVITY_PREFIX = 'ORDERACT#';

export function activityKey(userId: string, orderId: string): Key {
  return { pk: `USER#${userId}`, sk: `${ACTIVITY_PREFIX}${orderId}` };
}

export const WALLET_PREFIX = 'WALLET#';

/** A wallet line: its time first (newest-first lists), then what made it (a payment, a transfer). */
export function walletKey(userId: string, at: string, ref: string): Key {
  return { pk: `USER#${userId}`, sk: `${WALLET_PREFIX}${at}#${ref}` };
}

export function userPartition(userId: string): string {
  return `USER#${userId}`;
}

export function preorderIdempotencyScope(userId: string): string {
  return `preorder#${userId}`;
}

export function preorderIdempotencyKey(userId: string, key: string): Key {
  return idempotencyRecordKey(preorderIdempotencyScope(userId), key);
}

export const WAITING_PREFIX = 'WAITPAY#';

/** An order that owes the user a share they cannot receive yet (no payout account). */
export function waitingPayoutKey(userId: string, orderId: string): Key {
  return { pk: `USER#${userId}`, sk: `${WAITING_PREFIX}${orderId}` };
}

/** What a user's payout account owes the platform in one currency (refused transfer reversals). */
export function owedKey(userId: string, currency: string): Key {
  return { pk: `USER#${userId}`, sk: `OWED#${currency}` };
}

/** The index partition listing every account that owes (support's list). */
export const OWED_INDEX_PARTITION = 'OWED#ALL';

export function owedIndexSort(userId: string, currency: string): string {
  return `${userId}#${currency}`;
}

export const OWED_LINE_PREFIX = 'OWEDLINE#';

/**
 * One movement of a debt, written once: `reversal#<transferId>` (a reversal Stripe refused: owed)
 * or `net#<orderId>#<party>#<chargeId>` (a later share kept back: paid off).
 */
export function owedLineKey(userId: string, ref: string): Key {
  return { pk: `USER#${userId}`, sk: `${OWED_LINE_PREFIX}${ref}` };
}

/**
 * The sweeper's index of orders due (orders.ts `dueAtOf`), spread over 8 partitions by order id so
 * the index's writes (every booking and most order writes) never heat one partition; the sweeper
 * reads the 8.
 */
export const ORDER_DUE_SHARDS = 8;

export function orderDuePartition(orderId: string): string {
  let hash = 0;
  for (const char of orderId) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return `ORDERDUE#${hash % ORDER_DUE_SHARDS}`;
}

export function orderDueShards(): string[] {
  return Array.from({ length: ORDER_DUE_SHARDS }, (_, shard) => `ORDERDUE#${shard}`);
}

/** The index's sort key: when the order is due, then the order (ISO times sort as strings). */
export function orderDueSort(dueAt: string, orderId: string): string {
  return `${dueAt}#${orderId}`;
}

/** The index partition of orders with an open dispute (support's list, soonest deadline first). */
export const OPEN_DISPUTES_PARTITION = 'DISPUTES#OPEN';

export function openDisputeSort(dueBy: string, orderId: string): string {
  return `${dueBy}#${orderId}`;
}
