import {
  assignedTokensSchema,
  auctionViewSchema,
  myBidsPageSchema,
  type AssignedTokens,
  type AuctionView,
  type CreateBidBody,
  type MyBidsFilter,
  type MyBidsPage,
} from '@shared/schemas/bids';
import { apiGet, apiPost, newIdempotencyKey } from './api';

/**
 * The bids calls (spec 000 §7 bid/create, bid/cancel, bid/getbyofferingid,
 * offering/getassignedtokens, offering/getmybettedofferings; functions/bids/bids.routes.ts), shared by the item page's
 * auction panel and the market's My Bids tab: web features do not import each other, so the
 * client lives here. Answers: shared/schemas/bids.ts.
 */
const enc = encodeURIComponent;
const caller = (id: string | null | undefined) => (id ? id : '-');

export const bidKeys = {
  all: ['bids'] as const,
  /** An auction's lot as `viewer` sees it ('-' for a guest: no `mine`). */
  lot: (offeringId: string, viewer: string) => ['bids', 'lot', offeringId, viewer] as const,
  /** Every viewer's copy of a lot. */
  lots: (offeringId: string) => ['bids', 'lot', offeringId] as const,
  mine: (userId: string, status: MyBidsFilter) => ['bids', 'mine', userId, status] as const,
  allMine: (userId: string) => ['bids', 'mine', userId] as const,
  /** The copies `userId` won (or was offered) in an auction. */
  assigned: (offeringId: string, userId: string) =>
    ['bids', 'assigned', offeringId, userId] as const,
  /** Every viewer's copies of an auction. */
  allAssigned: (offeringId: string) => ['bids', 'assigned', offeringId] as const,
};

/**
 * GET users/{id|-}/bid/getbyofferingid/{offeringid}: the lot (public; with a token, the caller's
 * own bid in `mine`). 404 for a private one the caller may not see.
 */
export function getAuction(
  viewer: string | null,
  offeringId: string,
  signal?: AbortSignal,
): Promise<AuctionView> {
  return apiGet(`/users/${enc(caller(viewer))}/bid/getbyofferingid/${enc(offeringId)}`, {
    schema: auctionViewSchema,
    signal,
  });
}

/**
 * POST users/{id}/bid/create: bids (201, the lot as it stands). Refusals are
 * `market.bid.errors.*` (with `fields` naming bidprice, maxbid, quantity, payment_method or
 * postaladdress), `market.buy.errors.address_required` / `country`.
 */
export function createBid(
  userId: string,
  body: CreateBidBody,
  idempotencyKey: string = newIdempotencyKey(),
): Promise<AuctionView> {
  return apiPost(`/users/${enc(userId)}/bid/create`, body, {
    schema: auctionViewSchema,
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}

/** POST users/{id}/bid/cancel/{offeringid}: retracts the caller's bid; answers the lot. */
export function cancelBid(userId: string, offeringId: string): Promise<AuctionView> {
  return apiPost(`/users/${enc(userId)}/bid/cancel/${enc(offeringId)}`, undefined, {
    schema: auctionViewSchema,
  });
}

/** POST users/{id}/offering/getmybettedofferings {status, last}: My Bids, last bid first. */
export function getMyBids(
  userId: string,
  status: MyBidsFilter,
  last: string | null,
  signal?: AbortSignal,
): Promise<MyBidsPage> {
  return apiPost(
    `/users/${enc(userId)}/offering/getmybettedofferings`,
    { status, last },
    { schema: myBidsPageSchema, signal },
  );
}

/**
 * POST users/{id}/offering/getassignedtokens {offeringid}: the copies of an auction the caller won
 * or was offered as substitute, each with its serial, order, and paid or due by when (none: []).
 */
export function getAssignedTokens(
  userId: string,
  offeringId: string,
  signal?: AbortSignal,
): Promise<AssignedTokens> {
  return apiPost(
    `/users/${enc(userId)}/offering/getassignedtokens`,
    { offeringid: offeringId },
    { schema: assignedTokensSchema, signal },
  );
}
