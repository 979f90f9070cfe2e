import * as z from 'zod';
import { expireBooking, releaseDue } from '../booking';
import { ordersDeps } from '../orders.deps';

const inputSchema = z.object({
  orderId: z.string().regex(/^oR[0-9A-HJKMNP-TV-Z]{26}$/),
  event: z.enum(['expire', 'release']),
});

/**
 * Workflow task `orderStep` (infra/workflows/booking-expiry.asl.json, payout-release.asl.json):
 * after the absolute wait, the booking expires (unless paid) or the payouts are released (unless
 * the buyer confirmed receipt first). Answers `{orderId, status}`.
 */
export const handler = async (event: unknown) => {
  const input = inputSchema.parse(event);
  const deps = ordersDeps();
  return input.event === 'expire'
    ? expireBooking(deps, input.orderId, new Date())
    : releaseDue(deps, input.orderId, new Date());
};
