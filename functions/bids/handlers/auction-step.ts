import * as z from 'zod';
import { bidsDeps } from '../bids.deps';
import { runCloseStep } from '../close';

const inputSchema = z.object({ offeringId: z.string().regex(/^oF[0-9A-HJKMNP-TV-Z]{26}$/) });

/**
 * Workflow task `auctionStep` (infra/workflows/auction-close.asl.json): one look at an auction's
 * lot (a reminder due, the end, offers paid or lapsed); answers `{offeringId, next, at}`.
 */
export const handler = async (event: unknown) => {
  const input = inputSchema.parse(event);
  return runCloseStep(bidsDeps(), input.offeringId, new Date());
};
