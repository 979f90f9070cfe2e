import type { Context } from 'aws-lambda';
import { ordersDeps } from '../orders.deps';
import { sweepOrders } from '../sweep';

/**
 * Scheduled job `orderSweep` (every 5 minutes): finishes the orders whose timer or last step did
 * not (functions/orders/sweep.ts), within the job's budget. An order it could not finish fails the
 * run once every due order was tried: the job's error alarm (2 failed runs of the last 3) tells
 * the operator, and the order is tried again at the next run.
 */
export const handler = async (_event: unknown, context: Context) => {
  const result = await sweepOrders(ordersDeps(), new Date(), {
    remainingMs: () => context.getRemainingTimeInMillis(),
  });
  if (result.failed.length > 0) {
    throw new Error(
      `the order sweeper could not finish ${result.failed.length} order(s): ${result.failed.join(', ')}`,
    );
  }
  return result;
};
