import { route, type StreamTrigger } from '../core/route';
import { LOT_TYPE } from './bids.keys';
import {
  assignedTokensBodySchema,
  assignedTokensSchema,
  auctionViewSchema,
  bidOfferingPathSchema,
  createBidBodySchema,
  myBidsBodySchema,
  myBidsPageSchema,
} from '../../shared/schemas/bids';
import { offeringsUserPathSchema } from '../../shared/schemas/offerings';

const TAGS = ['bids'] as const;

/**
 * The bids domain's HTTP calls (spec 000 §7 bid/create, bid/cancel, bid/getbyofferingid,
 * offering/getmybettedofferings; issue 13). Deviations (docs/api.md): bid/cancel is a POST (it
 * changes state); a saved card (`payment_method`) replaces the wallet's `paymentauths`; the seller
 * and the expiry are the server's, not the body's.
 */
export const bidsRoutes = {
  createBid: route({
    method: 'POST',
    path: '/api/users/{id}/bid/create',
    handler: 'bids/handlers/create-bid',
    auth: 'user',
    group: 'market',
    // Checks the bidder's card with Stripe; what others hear follows from the stream (bidEvents).
    stripe: true,
    idempotency: 'optional',
    replayAnswer: true,
    // Budget: the most an HTTP call may have. A bid checks the card with Stripe (8 s client
    // timeout), then on a hot lot waits in the lot's queue for a writer to decide it (place.ts);
    // it reads what is left of this budget from its context and stops 2 s before the end
    // (ANSWER_MARGIN_MS) to answer, 503 generic only if the table could not decide it by then.
    timeoutSeconds: 29,
    summary:
      "Bids on an auction (201, the lot as it stands): bidprice per copy, an optional secret maxbid (proxy), quantity, the saved card backing it; 400 market.bid.errors.too_low / amount / quantity / one_copy / rebid_quantity / not_higher, 409 beaten ('another user bid the same or higher') / ended / not_started, 402 no_card / payments ('Error creating payments for bids'), 403 own_offering / creator, 503 generic ('Error sending bid, please try again': the table could not decide it within the call's budget; retryable, never for a busy lot)",
    tags: TAGS,
    request: { path: offeringsUserPathSchema, body: createBidBodySchema },
    response: auctionViewSchema,
    status: 201,
    owner: 'id',
  }),
  cancelBid: route({
    method: 'POST',
    path: '/api/users/{id}/bid/cancel/{offeringid}',
    handler: 'bids/handlers/cancel-bid',
    auth: 'user',
    group: 'market',
    summary:
      "Retracts the caller's bid (a POST where the spec says GET): while more than 12 hours remain, or within an hour of bidding (409 market.bid.errors.retract_closed), 404 no_bid; answers the lot",
    tags: TAGS,
    request: { path: bidOfferingPathSchema },
    response: auctionViewSchema,
    owner: 'id',
  }),
  getBids: route({
    method: 'GET',
    path: '/api/users/{id}/bid/getbyofferingid/{offeringid}',
    handler: 'bids/handlers/get-bids',
    auth: 'public',
    group: 'market',
    access: { table: 'read' },
    summary:
      "Public: an auction's lot (end, minimum next bid, current price, reserve met, the bid list with statuses) and, with a bearer token, the caller's own bid; 404 for a private one the caller may not see",
    tags: TAGS,
    request: { path: bidOfferingPathSchema },
    response: auctionViewSchema,
  }),
  assignedTokens: route({
    method: 'POST',
    path: '/api/users/{id}/offering/getassignedtokens',
    handler: 'bids/handlers/assigned-tokens',
    auth: 'user',
    group: 'market',
    access: { table: 'read' },
    summary:
      "The copies of an auction the caller won or was offered as substitute (spec assignround), each with its order, price, whether it is paid or due by when, and a deposit auction's balance still due",
    tags: TAGS,
    request: { path: offeringsUserPathSchema, body: assignedTokensBodySchema },
    response: assignedTokensSchema,
    owner: 'id',
  }),
  myBids: route({
    method: 'POST',
    path: '/api/users/{id}/offering/getmybettedofferings',
    handler: 'bids/handlers/my-bids',
    auth: 'user',
    group: 'market',
    access: { table: 'read' },
    summary:
      "My Bids: the auctions the caller bid on, last bid first, with their bid's status; status any / active (still open) / closed, `last` = cursor",
    tags: TAGS,
    request: { path: offeringsUserPathSchema, body: myBidsBodySchema },
    response: myBidsPageSchema,
    owner: 'id',
  }),
};

/**
 * The bids domain's stream triggers (functions/routes.ts `streamTriggers`). `bidEvents`: carries
 * out what an accepted bid or cancellation leaves on its lot's record (its note): the log line,
 * the bidder's entry when the bid wrote the lot alone, and what follows (the watchers' live
 * events, the bidder's answer, the outbid bidders and the seller told, the offering's counters).
 * The bidder waits for none of it, and a crash right after the bid loses none of it.
 * Notifications are keyed by the line, so a batch delivered twice tells nobody twice.
 */
export const bidsStreamTriggers = {
  bidEvents: {
    handler: 'bids/handlers/bid-events',
    notify: true,
    // Lot records that carry a change's note (the handler passes over a note an earlier change
    // left, carried on by a write that changed no bid).
    filters: [
      {
        eventName: ['INSERT', 'MODIFY'],
        dynamodb: { NewImage: { type: { S: [LOT_TYPE] }, last: { M: [{ exists: true }] } } },
      },
    ],
    // Large enough that a lagging hot lot catches up: its lines of a batch make one watchers' event.
    batchSize: 100,
    maxRetryAttempts: 10,
    maxRecordAgeSeconds: 3_600,
  },
} as const satisfies Record<string, StreamTrigger>;
