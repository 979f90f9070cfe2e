import type Stripe from 'stripe';
import { logger } from '../core/logger';
import type { PaymentsDeps } from './payments';
import { viaStripe } from './payments.stripe';
import { EVENT_HANDLERS, handleEvent } from './webhook';

/**
 * Reconciliation with Stripe (scheduled job `stripeReconcile`; issue 30 §8): what Stripe did since
 * the last run, compared with what the app recorded.
 *
 * 1. **Events**: Stripe's events of every type the webhook handles, since the last run (a few
 *    minutes of overlap). One the webhook never kept (its deliveries failed for 3 days, the
 *    endpoint was misconfigured) is kept now and handled through the same handler, claimed once:
 *    a webhook lost for good is applied here. Stripe lists a platform's own events; a connected
 *    account's (account.updated, payout.failed, deauthorization) are its own, so they are not in
 *    this list (their onboarding check and the seller's page read the account again).
 * 2. **Money**: the platform's balance transactions since the last run, with what moved the money
 *    (`expand[]=data.source`): each charge, refund and transfer of an order is handed to orders
 *    (`auditMovement`), which applies what it lacks through the same use cases as the webhooks and
 *    answers what still disagrees. Findings are kept for support (and logged as errors).
 *
 * The cursor moves on only when a run went through everything since it; a run cut short by its
 * budget is done again by the next (every step is idempotent).
 */
export interface MoneyMovementBase {
  order_id: string;
}

/** A money movement Stripe made for an order, as reconciliation hands it to orders. */
export type MoneyMovement =
  | (MoneyMovementBase & {
      kind: 'charge';
      payment_intent_id: string;
      charge_id: string;
      amount: number;
      amount_refunded: number;
    })
  | (MoneyMovementBase & { kind: 'refund'; payment_intent_id: string; refund_id: string })
  | (MoneyMovementBase & {
      kind: 'transfer';
      transfer_id: string;
      party: string | null;
      amount: number;
      amount_reversed: number;
    });

/** A disagreement between Stripe and an order that reconciliation could not resolve. */
export interface MoneyFinding {
  order_id: string;
  /** The Stripe object (`ch_…`, `re_…`, `tr_…`). */
  ref: string;
  code:
    | 'order_missing'
    | 'charge_unrecorded'
    | 'refund_unrecorded'
    | 'transfer_unrecorded'
    | 'transfer_amount'
    | 'reversal_unrecorded';
  detail: string;
}

/** The first run looks back over Stripe's webhook retry window (3 days). */
export const FIRST_LOOK_BACK_S = 3 * 24 * 3600;
/** Each run looks back this much before its cursor (events created in the same second, clocks). */
export const OVERLAP_S = 300;
/** A run stops starting new work this long before its budget ends. */
const STOP_MARGIN_MS = 20_000;

export interface ReconcileReport {
  events: { seen: number; missed: string[] };
  movements: { checked: number; findings: MoneyFinding[] };
  /** Whether the run went through everything since its cursor (which then moved on). */
  complete: boolean;
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : value.id;
}

/** What an order's balance transaction moved, when its source is an order's charge, refund or transfer. */
export async function movementOf(
  stripe: Stripe,
  transaction: Stripe.BalanceTransaction,
): Promise<MoneyMovement | null> {
  const source = transaction.source as
    Stripe.Charge | Stripe.Refund | Stripe.Transfer | string | null;
  if (source === null || typeof source === 'string') return null;
  if (source.object === 'charge') {
    const charge = source as Stripe.Charge;
    const orderId = charge.metadata?.order_id;
    const intent = idOf(charge.payment_intent as string | { id: string } | null);
    if (orderId === undefined || intent === null || charge.status !== 'succeeded') return null;
    return {
      kind: 'charge',
      order_id: orderId,
      payment_intent_id: intent,
      charge_id: charge.id,
      amount: charge.amount,
      amount_refunded: charge.amount_refunded,
    };
  }
  if (source.object === 'refund') {
    const refund = source as Stripe.Refund;
    const intent = idOf(refund.payment_intent as string | { id: string } | null);
    if (intent === null) return null;
    // Our refunds carry the order; one made in the dashboard is found through its payment.
    const orderId =
      refund.metadata?.order_id ??
      (await viaStripe('payments.errors.provider', () => stripe.paymentIntents.retrieve(intent)))
        .metadata.order_id;
    if (orderId === undefined) return null;
    return { kind: 'refund', order_id: orderId, payment_intent_id: intent, refund_id: refund.id };
  }
  if (source.object === 'transfer') {
    const transfer = source as Stripe.Transfer;
    if (transfer.transfer_group === null || transfer.metadata?.order_id === undefined) return null;
    return {
      kind: 'transfer',
      order_id: transfer.metadata.order_id,
      transfer_id: transfer.id,
      party: transfer.metadata.party ?? null,
      amount: transfer.amount,
      amount_reversed: transfer.amount_reversed,
    };
  }
  return null;
}

export async function reconcileStripe(
  deps: PaymentsDeps,
  now: Date,
  budget: { remainingMs: () => number },
): Promise<ReconcileReport> {
  const stripe = await deps.stripe();
  const cursor = await deps.repo.reconcileCursor();
  const from =
    cursor === undefined
      ? Math.floor(now.getTime() / 1000) - FIRST_LOOK_BACK_S
      : cursor - OVERLAP_S;
  const report: ReconcileReport = {
    events: { seen: 0, missed: [] },
    movements: { checked: 0, findings: [] },
    complete: false,
  };
  const enough = () => budget.remainingMs() < STOP_MARGIN_MS;
  const types = Object.keys(EVENT_HANDLERS) as Stripe.EventListParams['types'];
  await viaStripe('payments.errors.provider', async () => {
    for await (const event of stripe.events.list({ created: { gte: from }, types, limit: 100 })) {
      if (enough()) return;
      report.events.seen += 1;
      const kept = await deps.repo.receiveEvent(
        { id: event.id, type: event.type, payload: JSON.stringify(event) },
        now,
      );
      if (kept === 'new') {
        // The webhook never kept it: applied now, through the same handler, claimed once.
        report.events.missed.push(event.id);
        await handleEvent(deps, event, now);
      }
    }
  });
  if (enough()) return report;
  await viaStripe('payments.errors.provider', async () => {
    for await (const transaction of stripe.balanceTransactions.list({
      created: { gte: from },
      limit: 100,
      expand: ['data.source'],
    })) {
      if (enough()) return;
      const movement = await movementOf(stripe, transaction);
      if (movement === null) continue;
      report.movements.checked += 1;
      const finding = await deps.orders.auditMovement(movement, now);
      if (finding !== null) {
        report.movements.findings.push(finding);
        await deps.repo.keepFinding(finding, now);
      }
    }
  });
  if (enough()) return report;
  report.complete = true;
  await deps.repo.moveReconcileCursor(Math.floor(now.getTime() / 1000));
  if (report.events.missed.length > 0 || report.movements.findings.length > 0) {
    logger.warn('reconciliation with Stripe', {
      missed: report.events.missed,
      findings: report.movements.findings.length,
    });
  }
  return report;
}
