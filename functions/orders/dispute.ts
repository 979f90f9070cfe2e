import { logger } from '../core/logger';
import type { DisputeFacts } from '../payments/index';
import { applyOrderEvent } from './apply';
import type { StoredDispute } from './order.machine';
import type { OrdersDeps } from './ports';

/**
 * A dispute of an order's payment (a chargeback: payments' webhook, `charge.dispute.*`, reads the
 * dispute from Stripe and hands it over; docs/payments.md "Disputes"). Stripe's statuses become
 * the order's: still to be decided (`needs_response`, `under_review`, `warning_*`) is `open`, `won`
 * and an inquiry closed without a chargeback (`warning_closed`) are `won`, `lost` is `lost`. The
 * order's machine decides what follows (frozen and clawed-back payouts, a lost dispute's cancel).
 */
export function disputeStatusOf(stripeStatus: string): StoredDispute['status'] {
  if (stripeStatus === 'lost') return 'lost';
  if (stripeStatus === 'won' || stripeStatus === 'warning_closed') return 'won';
  return 'open';
}

export async function disputeChanged(
  deps: OrdersDeps,
  facts: DisputeFacts,
  now: Date,
): Promise<void> {
  const record = await deps.repo.get(facts.order_id);
  if (record === undefined) {
    logger.warn('a dispute names an order we do not have', { disputeId: facts.dispute_id });
    return;
  }
  const payment = record.payments.find(
    (entry) => entry.payment_intent_id === facts.payment_intent_id,
  );
  if (payment === undefined || payment.extra === true) {
    // A payment the order never counted (refunded at once): nothing of the order is at stake.
    logger.warn('a dispute of a payment the order does not count', {
      orderId: record.id,
      disputeId: facts.dispute_id,
    });
    return;
  }
  const status = disputeStatusOf(facts.status);
  await applyOrderEvent(
    deps,
    record.id,
    {
      type: 'dispute',
      dispute: {
        id: facts.dispute_id,
        status,
        stripe_status: facts.status,
        reason: facts.reason,
        amount: facts.amount,
        currency: facts.currency,
        evidence_due_by: facts.evidence_due_by,
        opened_at: facts.created,
        closed_at: status === 'open' ? null : now.toISOString(),
      },
    },
    now,
    { strict: false },
  );
}
