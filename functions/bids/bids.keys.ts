/**
 * Bids and auctions (issue 13): key builders. Access patterns:
 *
 * | pattern                                              | key condition                                              | index |
 * |------------------------------------------------------|------------------------------------------------------------|-------|
 * | an auction's lot (its book, phase, offers)           | pk = AUCTION#<offeringId>, sk = LOT                        | table |
 * | an auction's accepted bids and cancellations, in order | pk = AUCTION#<offeringId>, begins_with(sk, 'BID#')        | table |
 * | one bidder's entry in an auction                     | pk = AUCTION#<offeringId>, sk = BIDDER#<userId>            | table |
 * | a hot lot's queued bids and retractions, in order     | pk = AUCTION#<offeringId>, begins_with(sk, 'QUEUE#')       | table |
 * | a user's auctions, last bid first (My Bids: any)     | gsi1pk = USERBIDS#<userId>, gsi1sk = <at>#<offeringId>     | gsi1  |
 * | … only open or only ended (My Bids: active, closed)  | gsi2pk = USERBIDS#<userId>#<group>, gsi2sk = <at>#<id>     | gsi2  |
 * | lots not closed yet, by end (the sweeper)            | gsi3pk = AUCTIONS#LIVE, gsi3sk = <end_at>#<offeringId>     | gsi3  |
 * | lots whose offering counters lag (the sweeper)       | gsi4pk = AUCTIONS#STALE, gsi4sk = <offeringId>             | gsi4  |
 *
 * The lot is one record: every bid is a write conditioned on its version (so bids on one lot are
 * applied one at a time, in a total order), alone or in a transaction with the bidders' entries
 * it must write; the log lines follow from the lot's stream. A bid that loses the race for the
 * lot queues itself under it (`QUEUE#<ticket>`, a ULID: the queue's order), and whichever writer
 * takes the lot next decides the queue in its own write (docs/auctions.md, "A hot lot").
 *
 * The two sweeper indexes hold small marker items of the lot's partition (`sk = LIVE`, `sk =
 * STALE`), never the lot itself: each index keeps one partition key value for the whole
 * marketplace, and an index item is written again whenever its table item changes. On the lot,
 * every bid would also be a write of both indexes, all bids everywhere on one index partition.
 * A marker is written only when the sweeper's answer changes (docs/data-model.md, "Indexes on the
 * lot").
 */
export const LOT_TYPE = 'auction_lot';
export const BID_LOG_TYPE = 'auction_bid';
export const BIDDER_TYPE = 'auction_bidder';
export const MARKER_TYPE = 'auction_lot_marker';

export const BID_LOG_PREFIX = 'BID#';
export const LIVE_LOTS_PARTITION = 'AUCTIONS#LIVE';
export const STALE_LOTS_PARTITION = 'AUCTIONS#STALE';

export interface Key {
  pk: string;
  sk: string;
}

function lotPartition(offeringId: string): string {
  return `AUCTION#${offeringId}`;
}

export function lotKey(offeringId: string): Key {
  return { pk: lotPartition(offeringId), sk: 'LOT' };
}

export function bidLogKey(offeringId: string, index: number): Key {
  return { pk: lotPartition(offeringId), sk: `${BID_LOG_PREFIX}${String(index).padStart(8, '0')}` };
}

/** The lot's place in the sweeper's list of lots not closed yet, by end (gsi3). */
export function liveMarkerKey(offeringId: string): Key {
  return { pk: lotPartition(offeringId), sk: 'LIVE' };
}

/** The lot's place in the sweeper's list of lots whose offering counters lag (gsi4). */
export function staleMarkerKey(offeringId: string): Key {
  return { pk: lotPartition(offeringId), sk: 'STALE' };
}

export const QUEUED_TYPE = 'auction_queued';
export const QUEUE_PREFIX = 'QUEUE#';

/** A queued change of a hot lot (its ticket: a ULID, so the queue reads in order). */
export function queuedKey(offeringId: string, ticket: string): Key {
  return { pk: lotPartition(offeringId), sk: `${QUEUE_PREFIX}${ticket}` };
}

export const BIDDER_PREFIX = 'BIDDER#';

export function bidderKey(offeringId: string, userId: string): Key {
  return { pk: lotPartition(offeringId), sk: `${BIDDER_PREFIX}${userId}` };
}

export function lotPartitionOf(offeringId: string): string {
  return lotPartition(offeringId);
}

export function myBidsPartition(userId: string): string {
  return `USERBIDS#${userId}`;
}

export function myBidsGroupPartition(userId: string, group: 'active' | 'closed'): string {
  return `USERBIDS#${userId}#${group}`;
}

export function timeSort(at: string, offeringId: string): string {
  return `${at}#${offeringId}`;
}
