/**
 * The bids domain's public module (issue 13): auctions' lots, bidding, the close (winners,
 * substitutes, reminders) and My Bids. Offerings open a lot through `openAuction` and join
 * `delistGuardPiece` into a delisting; orders tell a lot that an offer was paid or lapsed.
 */
export { bidsDeps } from './bids.deps';
export { createBidsRepo, type BidsRepo } from './bids.repo';
export { openAuction } from './open';
export { createBid, type BidInput } from './place';
