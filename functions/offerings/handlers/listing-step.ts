import * as z from 'zod';
import { LISTING_TASK_EVENTS, runListingTask } from '../listing';
import { offeringsDeps } from '../offerings.deps';

const inputSchema = z.object({
  offeringId: z.string().regex(/^oF[0-9A-HJKMNP-TV-Z]{26}$/),
  event: z.enum(LISTING_TASK_EVENTS),
  token: z.string().min(1).optional(),
  error: z.object({ Error: z.string().optional(), Cause: z.string().optional() }).optional(),
});

/**
 * Workflow task `listingStep` (infra/workflows/listing.asl.json): one step of an offering's
 * listing, named by `event`; answers `{offeringId, next, endAt}` (callback steps answer nothing:
 * the token is settled later).
 */
export const handler = async (event: unknown) => {
  const input = inputSchema.parse(event);
  return (await runListingTask(offeringsDeps(), input, new Date())) ?? {};
};
