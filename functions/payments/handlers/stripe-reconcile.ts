import type { Context } from 'aws-lambda';
import { paymentsDeps } from '../payments.deps';
import { reconcileStripe } from '../reconcile';

/**
 * Scheduled job `stripeReconcile` (every 15 minutes): Stripe's events and money since the last run
 * compared with what the app recorded (functions/payments/reconcile.ts).
 */
export const handler = async (_event: unknown, context: Context) =>
  reconcileStripe(paymentsDeps(), new Date(), {
    remainingMs: () => context.getRemainingTimeInMillis(),
  });
