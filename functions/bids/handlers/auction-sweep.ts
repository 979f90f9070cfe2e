import { bidsDeps } from '../bids.deps';
import { sweepAuctions } from '../close';

/** Scheduled job `auctionSweep` (every minute): resumes the closes that should be running. */
export const handler = async () => sweepAuctions(bidsDeps(), new Date());
