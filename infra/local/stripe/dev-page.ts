import type Stripe from 'stripe';
import { escapeHtml } from '../support';
import type { Fault } from './faults';
import { displayAmount } from './objects';
import type { StripeState } from './server';
import type { Delivery } from './webhooks';

/** A unix timestamp as the page shows it (`2025-01-31 23:59 UTC`). */
const when = (seconds: number | null) =>
  seconds === null
    ? ''
    : `${new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** What `/dev/stripe` lists (the JSON of `/dev/stripe.json`). */
export function stripeListing(
  state: StripeState,
  deliveries: readonly Delivery[],
  faults: readonly Fault[] = [],
) {
  return {
    accounts: Object.values(state.accounts).map((account) => ({
      id: account.id,
      country: account.country,
      email: account.email,
      onboarding: state.onboarding[account.id] ?? 'new',
      charges_enabled: account.charges_enabled,
      payouts_enabled: account.payouts_enabled,
      currently_due: account.requirements?.currently_due ?? [],
      /** The account disconnected from the platform (`account.application.deauthorized`). */
      deauthorized: (state.deauthorized ?? {})[account.id] !== undefined,
      metadata: account.metadata,
    })),
    customers: Object.values(state.customers).map((customer) => ({
      id: customer.id,
      email: customer.email,
      default_payment_method:
        typeof customer.invoice_settings.default_payment_method === 'string'
          ? customer.invoice_settings.default_payment_method
          : (customer.invoice_settings.default_payment_method?.id ?? null),
      cards: Object.values(state.paymentMethods)
        .filter((method: Stripe.PaymentMethod) => method.customer === customer.id)
        .map(
          (method) => `${method.card?.brand ?? '?'} ${method.card?.last4 ?? '????'} (${method.id})`,
        ),
      metadata: customer.metadata,
    })),
    payments: Object.values(state.paymentIntents)
      .map((intent) => {
        const chargeId = typeof intent.latest_charge === 'string' ? intent.latest_charge : null;
        const charge = chargeId === null ? undefined : state.charges[chargeId];
        const refunded = charge?.refunded ?? 0;
        return {
          id: intent.id,
          amount: intent.amount,
          currency: intent.currency,
          status: intent.status,
          customer: typeof intent.customer === 'string' ? intent.customer : null,
          charge: chargeId,
          receipt_url: charge?.receiptUrl ?? null,
          /** Refunded so far (minor units), and as a word: `refunded`, `partially refunded`. */
          refunded,
          refund_status:
            refunded === 0
              ? null
              : refunded === (charge?.amount ?? 0)
                ? ('refunded' as const)
                : ('partially refunded' as const),
          refunds: Object.values(state.refunds)
            .filter((refund) => chargeId !== null && refund.charge === chargeId)
            .map((refund) => ({ id: refund.id, amount: refund.amount, status: refund.status })),
          error: intent.last_payment_error?.decline_code ?? intent.last_payment_error?.code ?? null,
          transfer_group: intent.transfer_group,
        };
      })
      .reverse(),
    transfers: Object.values(state.transfers)
      .map((transfer) => ({
        id: transfer.id,
        amount: transfer.amount,
        amount_reversed: transfer.amount_reversed,
        /** `reversed`, `partially reversed`, or null. */
        reversal_status:
          transfer.amount_reversed === 0
            ? null
            : transfer.reversed
              ? ('reversed' as const)
              : ('partially reversed' as const),
        reversals: transfer.reversals.data.map((reversal) => ({
          id: reversal.id,
          amount: reversal.amount,
        })),
        currency: transfer.currency,
        destination: typeof transfer.destination === 'string' ? transfer.destination : null,
        transfer_group: transfer.transfer_group,
        source_transaction:
          typeof transfer.source_transaction === 'string' ? transfer.source_transaction : null,
      }))
      .reverse(),
    disputes: Object.values(state.disputes ?? {})
      .map((dispute) => ({
        id: dispute.id,
        charge: typeof dispute.charge === 'string' ? dispute.charge : dispute.charge.id,
        payment_intent: typeof dispute.payment_intent === 'string' ? dispute.payment_intent : null,
        amount: dispute.amount,
        currency: dispute.currency,
        status: dispute.status,
        reason: dispute.reason,
        due_by: dispute.evidence_details.due_by,
        submission_count: dispute.evidence_details.submission_count,
      }))
      .reverse(),
    payouts: Object.values(state.payouts ?? {})
      .map(({ account, payout }) => ({
        id: payout.id,
        account,
        amount: payout.amount,
        currency: payout.currency,
        status: payout.status,
        failure_code: payout.failure_code,
        arrival_date: payout.arrival_date,
      }))
      .reverse(),
    faults: faults.map((fault) => ({ ...fault })),
    setupIntents: Object.values(state.setupIntents).map((intent) => ({
      id: intent.id,
      customer: intent.customer,
      status: intent.status,
    })),
    deliveries: [...deliveries].reverse(),
    events: state.events.length,
  };
}

/** A cell: text, or a link. */
type Cell = string | { href: string; text: string };

function table(headers: string[], rows: Cell[][]): string {
  if (rows.length === 0) return '<p><i>None yet.</i></p>';
  const cell = (value: Cell) =>
    typeof value === 'string'
      ? escapeHtml(value)
      : `<a href="${escapeHtml(value.href)}">${escapeHtml(value.text)}</a>`;
  return `<table><thead><tr>${headers.map((header) => `<th>${escapeHtml(header)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((row) => `<tr>${row.map((value) => `<td>${cell(value)}</td>`).join('')}</tr>`)
    .join('')}</tbody></table>`;
}

/** `/dev/stripe`: what the Stripe twin holds and the webhook deliveries it made, newest first. */
export function renderStripePage(listing: ReturnType<typeof stripeListing>): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Dev Stripe</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font-family:system-ui,sans-serif;margin:0 auto;max-width:70rem;padding:1rem;color:#222}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1.5rem;font-size:.9rem}
th,td{border-bottom:1px solid #ddd;padding:.35rem .5rem;text-align:left;vertical-align:top}
th{background:#f7f7f7}
</style></head><body>
<h1>Dev Stripe</h1>
<p>What the local Stripe twin holds (infra/local/stripe/README.md). ${listing.events} event(s).
<a href="/dev/stripe">Refresh</a> · <a href="/dev/stripe.json">JSON</a></p>
<h2>Connected accounts</h2>
${table(
  ['account', 'country', 'e-mail', 'onboarding', 'charges', 'payouts', 'currently due'],
  listing.accounts.map((account) => [
    account.id,
    account.country ?? '',
    account.email ?? '',
    `${account.onboarding}${account.deauthorized ? ' · deauthorized' : ''}`,
    String(account.charges_enabled),
    String(account.payouts_enabled),
    account.currently_due.join(', '),
  ]),
)}
<h2>Customers and saved cards</h2>
${table(
  ['customer', 'e-mail', 'cards', 'default'],
  listing.customers.map((customer) => [
    customer.id,
    customer.email ?? '',
    customer.cards.join('; '),
    customer.default_payment_method ?? '',
  ]),
)}
<h2>Payments</h2>
${table(
  [
    'payment intent',
    'amount',
    'status',
    'refunded',
    'kept',
    'customer',
    'transfer group',
    'charge',
  ],
  listing.payments.map((payment) => [
    payment.id,
    displayAmount(payment.amount, payment.currency),
    `${payment.status}${payment.refund_status === null ? '' : ` · ${payment.refund_status}`}${payment.error === null ? '' : ` (last error: ${payment.error})`}`,
    payment.refunded === 0
      ? ''
      : `${displayAmount(payment.refunded, payment.currency)} in ${payment.refunds
          .map((refund) => `${refund.id} ${displayAmount(refund.amount, payment.currency)}`)
          .join(', ')}`,
    payment.status === 'succeeded'
      ? displayAmount(payment.amount - payment.refunded, payment.currency)
      : '',
    payment.customer ?? '',
    payment.transfer_group ?? '',
    payment.receipt_url === null
      ? (payment.charge ?? '')
      : { href: payment.receipt_url, text: `${payment.charge ?? ''} (receipt)` },
  ]),
)}
<h2>Transfers</h2>
${table(
  ['transfer', 'amount', 'reversed', 'kept by the account', 'to', 'transfer group', 'from charge'],
  listing.transfers.map((transfer) => [
    transfer.id,
    displayAmount(transfer.amount, transfer.currency),
    transfer.reversal_status === null
      ? ''
      : `${displayAmount(transfer.amount_reversed, transfer.currency)} · ${transfer.reversal_status} in ${transfer.reversals
          .map((reversal) => `${reversal.id} ${displayAmount(reversal.amount, transfer.currency)}`)
          .join(', ')}`,
    displayAmount(transfer.amount - transfer.amount_reversed, transfer.currency),
    transfer.destination ?? '',
    transfer.transfer_group ?? '',
    transfer.source_transaction ?? '',
  ]),
)}
<h2>Disputes</h2>
${table(
  ['dispute', 'amount', 'status', 'reason', 'evidence due by', 'charge', 'payment intent'],
  listing.disputes.map((dispute) => [
    dispute.id,
    displayAmount(dispute.amount, dispute.currency),
    `${dispute.status}${dispute.submission_count > 0 ? ` (evidence submitted ${dispute.submission_count}×)` : ''}`,
    dispute.reason,
    when(dispute.due_by),
    dispute.charge,
    dispute.payment_intent ?? '',
  ]),
)}
<h2>Payouts</h2>
${table(
  ['payout', 'account', 'amount', 'status', 'arrival'],
  listing.payouts.map((payout) => [
    payout.id,
    payout.account,
    displayAmount(payout.amount, payout.currency),
    `${payout.status}${payout.failure_code === null ? '' : ` (${payout.failure_code})`}`,
    when(payout.arrival_date),
  ]),
)}
<h2>Active faults</h2>
${table(
  ['fault', 'kind', 'method', 'path', 'match', 'hits left'],
  listing.faults.map((fault) => [
    fault.id,
    `${fault.fault}${fault.delayMs === null ? '' : ` (${fault.delayMs} ms)`}`,
    fault.method ?? 'any',
    fault.path ?? 'any',
    fault.match ?? '',
    `${fault.left} of ${fault.times}`,
  ]),
)}
<h2>Webhook deliveries</h2>
${table(
  ['event', 'type', 'status', 'attempts', 'last answer'],
  listing.deliveries.map((delivery) => [
    delivery.eventId,
    delivery.type,
    delivery.status,
    String(delivery.attempts),
    delivery.lastStatus === null ? (delivery.lastError ?? '') : String(delivery.lastStatus),
  ]),
)}
</body></html>`;
}
