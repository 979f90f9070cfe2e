import { logger } from '../core/logger';
import { settleOrder } from './apply';
import { expireBooking, releaseDue } from './booking';
import { isBooked } from './order.machine';
import type { OrdersDeps } from './ports';

/**
 * The order sweeper (scheduled job `orderSweep`; issue 30 §7): the net under the orders' timers and
 * under every step that moves money. Each order carries, in an index, when it is next due
 * (orders.ts `dueAtOf`): its booking's end, its payouts' release, or at once while money or copies
 * are left half-moved. An order still due a grace period after that time lost its timer (a
 * booking-expiry or payout-release execution that failed) or a step that did not finish (Stripe
 * down during a refund, a function stopped mid-honour): the sweeper applies the same event the
 * timer would (`booking_expired`, `release_due`) or settles the order (`settleOrder`), as the
 * workflow's own task would, idempotently. A finished order leaves the index by its own write; one
 * that fails again stays and is tried at the next run (an error is logged each time).
 */
export const ORDER_SWEEP_GRACE_MS = 2 * 60_000;
/** Orders looked at per run at most. */
export const ORDER_SWEEP_BATCH = 100;
/** The run stops starting new orders this long before its budget ends. */
const STOP_MARGIN_MS = 15_000;

export async function sweepOrders(
  deps: OrdersDeps,
  now: Date,
  budget: { remainingMs: () => number },
): Promise<{ swept: string[]; failed: string[] }> {
  const before = new Date(now.getTime() - ORDER_SWEEP_GRACE_MS).toISOString();
  const due = await deps.repo.dueOrders(before, ORDER_SWEEP_BATCH);
  const swept: string[] = [];
  const failed: string[] = [];
  for (const orderId of due) {
    if (budget.remainingMs() < STOP_MARGIN_MS) break;
    try {
      const record = await deps.repo.get(orderId);
      if (record === undefined) continue;
      if (isBooked(record)) await expireBooking(deps, orderId, now);
      else if (record.release_at !== null && record.status === 'paid') {
        await releaseDue(deps, orderId, now);
      } else await settleOrder(deps, orderId, now);
      swept.push(orderId);
    } catch (error) {
      failed.push(orderId);
      logger.error('the order sweeper could not finish an order', {
        orderId,
        error: error as Error,
      });
    }
  }
  if (swept.length > 0 || failed.length > 0) {
    logger.info('order sweep', { swept: swept.length, failed: failed.length });
  }
  return { swept, failed };
}
