import { logger } from '../core/logger';
import type { MoneyFinding, MoneyMovement } from '../payments/index';
import { chargeRefunded, paymentIntentChanged } from './payment';
import type { OrdersDeps } from './ports';

/**
 * What reconciliation checks of one money movement Stripe made for an order (payments'
 * reconcile.ts reads them from Stripe's balance transactions): the order records it as Stripe has
 * it. A charge or a refund the order has not recorded is applied first (the same idempotent use
 * cases as their webhooks: a webhook lost for good); whatever still disagrees afterwards is
 * answered as a finding for support, never changed silently.
 */
export async function auditMovement(
  deps: OrdersDeps,
  movement: MoneyMovement,
  now: Date,
): Promise<MoneyFinding | null> {
  const finding = (code: MoneyFinding['code'], ref: string, detail: string): MoneyFinding => {
    logger.error('Stripe and an order disagree', { orderId: movement.order_id, ref, code, detail });
    return { order_id: movement.order_id, ref, code, detail };
  };
  const before = await deps.repo.get(movement.order_id);
  if (before === undefined) {
    const ref = movement.kind === 'transfer' ? movement.transfer_id : movement.payment_intent_id;
    return finding(
      'order_missing',
      ref,
      `Stripe moved money for ${movement.order_id}, unknown here`,
    );
  }
  switch (movement.kind) {
    case 'charge': {
      const recorded = (record: typeof before) =>
        record.payments.find((entry) => entry.payment_intent_id === movement.payment_intent_id);
      const known = recorded(before);
      if (known === undefined || (known.status !== 'succeeded' && known.status !== 'refunded')) {
        // A payment whose webhook never came: applied now as the webhook would have.
        await paymentIntentChanged(deps, movement.payment_intent_id, now);
      }
      const after = recorded((await deps.repo.get(movement.order_id)) ?? before);
      if (after === undefined || (after.status !== 'succeeded' && after.status !== 'refunded')) {
        return finding(
          'charge_unrecorded',
          movement.charge_id,
          `charge of ${movement.amount} (${movement.payment_intent_id}) not recorded as paid`,
        );
      }
      return null;
    }
    case 'refund': {
      const known = before.payments.find(
        (entry) => entry.payment_intent_id === movement.payment_intent_id,
      );
      // Applied as its charge.refunded would (the refund's wallet line, the payment's amount).
      await chargeRefunded(deps, movement.payment_intent_id, now);
      const after = (await deps.repo.get(movement.order_id)) ?? before;
      const payment = after.payments.find(
        (entry) => entry.payment_intent_id === movement.payment_intent_id,
      );
      if (known !== undefined && (payment === undefined || payment.refunded === 0)) {
        return finding(
          'refund_unrecorded',
          movement.refund_id,
          `refund of ${movement.payment_intent_id} not recorded on the order`,
        );
      }
      return null;
    }
    case 'transfer': {
      const entry = before.transfers.find((stored) => stored.transfer_id === movement.transfer_id);
      if (entry === undefined) {
        return finding(
          'transfer_unrecorded',
          movement.transfer_id,
          `transfer of ${movement.amount} (${movement.party ?? 'no party'}) not on the order`,
        );
      }
      if (entry.amount - (entry.netted ?? 0) !== movement.amount) {
        return finding(
          'transfer_amount',
          movement.transfer_id,
          `Stripe transferred ${movement.amount}, the order's share is ${entry.amount - (entry.netted ?? 0)}`,
        );
      }
      if (movement.amount_reversed > 0 && entry.state !== 'reversed') {
        return finding(
          'reversal_unrecorded',
          movement.transfer_id,
          `Stripe reversed ${movement.amount_reversed}, the order has the share ${entry.state}`,
        );
      }
      return null;
    }
  }
}
