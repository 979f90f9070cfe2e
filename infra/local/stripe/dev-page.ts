import type Stripe from 'stripe';
import { escapeHtml } from '../support';
import { displayAmount } from './objects';
import type { StripeState } from './server';
import type { Delivery } from './webhooks';

/** What `/dev/stripe` lists (the JSON of `/dev/stripe.json`). */
export function stripeListing(state: StripeState, deliveries: readonly Delivery[]) {
  return {
    accounts: Object.values(state.accounts).map((account) => ({
      id: account.id,
      country: account.country,
      email: account.email,
      onboarding: state.onboarding[account.id] ?? 'new',
      charges_enabled: account.charges_enabled,
      payouts_enabled: account.payouts_enabled,
      currently_due: account.requirements?.currently_due ?? [],
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
      .map((intent) => ({
        id: intent.id,
        amount: intent.amount,
        currency: intent.currency,
        status: intent.status,
        customer: typeof intent.customer === 'string' ? intent.customer : null,
        charge: typeof intent.latest_charge === 'string' ? intent.latest_charge : null,
        refunded:
          typeof intent.latest_charge === 'string'
            ? (state.charges[intent.latest_charge]?.refunded ?? 0)
            : 0,
        transfer_group: intent.transfer_group,
      }))
      .reverse(),
    transfers: Object.values(state.transfers)
      .map((transfer) => ({
        id: transfer.id,
        amount: transfer.amount,
        amount_reversed: transfer.amount_reversed,
        currency: transfer.currency,
        destination: typeof transfer.destination === 'string' ? transfer.destination : null,
        transfer_group: transfer.transfer_group,
        source_transaction:
          typeof transfer.source_transaction === 'string' ? transfer.source_transaction : null,
      }))
      .reverse(),
    setupIntents: Object.values(state.setupIntents).map((intent) => ({
      id: intent.id,
      customer: intent.customer,
      status: intent.status,
    })),
    deliveries: [...deliveries].reverse(),
    events: state.events.length,
  };
}

function table(headers: string[], rows: string[][]): string {
  if (rows.length === 0) return '<p><i>None yet.</i></p>';
  return `<table><thead><tr>${headers.map((header) => `<th>${escapeHtml(header)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((row) => `<tr>${row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`)
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
    account.onboarding,
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
  ['payment intent', 'amount', 'status', 'customer', 'refunded', 'transfer group'],
  listing.payments.map((payment) => [
    payment.id,
    displayAmount(payment.amount, payment.currency),
    payment.status,
    payment.customer ?? '',
    payment.refunded === 0 ? '' : displayAmount(payment.refunded, payment.currency),
    payment.transfer_group ?? '',
  ]),
)}
<h2>Transfers</h2>
${table(
  ['transfer', 'amount', 'reversed', 'to', 'transfer group', 'from charge'],
  listing.transfers.map((transfer) => [
    transfer.id,
    displayAmount(transfer.amount, transfer.currency),
    transfer.amount_reversed === 0
      ? ''
      : displayAmount(transfer.amount_reversed, transfer.currency),
    transfer.destination ?? '',
    transfer.transfer_group ?? '',
    transfer.source_transaction ?? '',
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
