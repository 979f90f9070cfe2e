import { PAGE_SIZE } from '../../shared/constants/limits';
import type { Order, OrderPage } from '../../shared/schemas/orders';
import { orderNotFound } from './apply';
import { toOrder, type OrderRecord } from './orders';
import { buyerPartition, offeringOrdersPartition, sellerPartition } from './orders.keys';
import type { OrdersDeps } from './ports';

/**
 * The order lists and the order page (spec 000 §7 order/retrieve*; issue 12 §6). Each list is one
 * Query of an index (the buyer's, the seller's, the offering's), or for the caller's market
 * activity one Query of their activity lines and one BatchGetItem of the orders, so every status
 * shown is the order's own.
 */
const LIMIT = PAGE_SIZE.small;

function page(
  deps: OrdersDeps,
  records: readonly OrderRecord[],
  viewerId: string,
  next: string | null,
  now: Date,
): OrderPage {
  return {
    items: records.map((record) => toOrder(record, viewerId, deps.imagesBaseUrl, now)),
    nextCursor: next,
  };
}

/** `POST order/retrievebyid {order_id}`: the buyer's or the seller's order; 404 for anyone else. */
export async function retrieveById(
  deps: OrdersDeps,
  input: { callerId: string; orderId: string; support?: boolean },
  now: Date,
): Promise<Order> {
  const record = await deps.repo.get(input.orderId);
  if (record === undefined) throw orderNotFound();
  if (record.buyer.id !== input.callerId && record.seller.id !== input.callerId) {
    if (input.support !== true) throw orderNotFound();
    // Support (a disputed payment, a finding of reconciliation): the seller's view, read-only.
    return { ...toOrder(record, record.seller.id, deps.imagesBaseUrl, now), actions: [] };
  }
  return toOrder(record, input.callerId, deps.imagesBaseUrl, now);
}

/** `POST order/retrievebycustomeruser {last}`: what the caller bought (bookings included). */
export async function retrieveByCustomer(
  deps: OrdersDeps,
  input: { callerId: string; cursor: string | undefined },
  now: Date,
): Promise<OrderPage> {
  const result = await deps.repo.queryIndex(
    'orders-bought',
    'gsi1',
    buyerPartition(input.callerId),
    input.cursor,
    LIMIT,
  );
  return page(deps, result.items, input.callerId, result.next, now);
}

/** `POST order/retrievebyselleruser {last}`: what the caller sold (paid for and after). */
export async function retrieveBySeller(
  deps: OrdersDeps,
  input: { callerId: string; cursor: string | undefined },
  now: Date,
): Promise<OrderPage> {
  const result = await deps.repo.queryIndex(
    'orders-sold',
    'gsi2',
    sellerPartition(input.callerId),
    input.cursor,
    LIMIT,
  );
  return page(deps, result.items, input.callerId, result.next, now);
}

/**
 * `POST order/retrievebyofferinguser {offeringid, customerNick}`: an offering's paid orders, for
 * its seller (optionally one buyer's); a buyer gets their own orders of it.
 */
export async function retrieveByOffering(
  deps: OrdersDeps,
  input: {
    callerId: string;
    offeringId: string;
    customerNick: string | undefined;
    cursor: string | undefined;
  },
  now: Date,
): Promise<OrderPage> {
  const offering = await deps.offerings.get(input.offeringId);
  if (offering === undefined) return { items: [], nextCursor: null };
  if (offering.seller_id === input.callerId) {
    const result = await deps.repo.queryIndex(
      `orders-offering:${input.offeringId}`,
      'gsi3',
      offeringOrdersPartition(input.offeringId),
      input.cursor,
      PAGE_SIZE.large,
    );
    const items =
      input.customerNick === undefined
        ? result.items
        : result.items.filter((record) => record.buyer.nick === input.customerNick);
    return page(deps, items, input.callerId, result.next, now);
  }
  // A buyer: their own orders of this offering, from their list.
  const result = await deps.repo.queryIndex(
    'orders-bought',
    'gsi1',
    buyerPartition(input.callerId),
    input.cursor,
    PAGE_SIZE.large,
  );
  return page(
    deps,
    result.items.filter((record) => record.offering_id === input.offeringId),
    input.callerId,
    result.next,
    now,
  );
}

/** `GET order/retrievemarket`: the caller's market activity, bought and sold, newest first. */
export async function retrieveMarket(
  deps: OrdersDeps,
  input: { callerId: string; cursor: string | undefined },
  now: Date,
): Promise<OrderPage> {
  const lines = await deps.repo.listActivity(input.callerId, input.cursor, LIMIT);
  const records = await deps.repo.getMany(lines.items);
  return page(deps, records, input.callerId, lines.next, now);
}

/** `GET payment-gateway/activity`: the caller's payments, refunds, payouts and reversals. */
export async function walletActivity(
  deps: OrdersDeps,
  input: { callerId: string; cursor: string | undefined },
) {
  const result = await deps.repo.listWallet(input.callerId, input.cursor, PAGE_SIZE.large);
  return { items: result.items, nextCursor: result.next };
}
