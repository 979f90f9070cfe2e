/**
 * Payments: key builders. Access patterns:
 *
 * | pattern                                              | key                                      | index |
 * |------------------------------------------------------|------------------------------------------|-------|
 * | a user's Stripe references (account, customer)        | pk = USER#<id>, sk = STRIPE              | table |
 * | the user of a connected account (its events)          | pk = STRIPE_ACCOUNT#<acct_…>, sk = OWNER | table |
 * | a webhook event received, handled or being handled    | pk = STRIPE_EVENT#<evt_…>, sk = EVENT    | table |
 * | events received and not handled yet, oldest first     | gsi5pk = STRIPE_EVENTS#PENDING, gsi5sk < <received_at> | gsi5 |
 * | reconciliation's cursor (unix seconds)                | pk = RECONCILE, sk = CURSOR              | table |
 * | what reconciliation found, for support               | pk = RECONCILE, begins_with(sk, 'FINDING#') | table |
 *
 * The user's connected account and customer ids are written once each, conditioned on being
 * absent (or equal), so concurrent begins or card additions keep one of each. Which user an
 * account or customer belongs to is read from the Stripe object's `metadata.user_id` (only our
 * secret key can write it) and checked against this record. Event records expire (ttl) after
 * 30 days: Stripe stops redelivering an event after 3 days. An event is `received` (kept, in the
 * pending index), then `processing` (claimed, with a lease), then `done` (out of the index).
 */
export const PAYMENTS_TYPE = 'payments';
export const STRIPE_EVENT_TYPE = 'stripe_event';

export function paymentsKey(userId: string): { pk: string; sk: string } {
  return { pk: `USER#${userId}`, sk: 'STRIPE' };
}

export function stripeEventKey(eventId: string): { pk: string; sk: string } {
  return { pk: `STRIPE_EVENT#${eventId}`, sk: 'EVENT' };
}

/** The index partition of events received and not handled yet (the sweep reads it). */
export const PENDING_EVENTS_PARTITION = 'STRIPE_EVENTS#PENDING';

export function pendingEventSort(receivedAt: string, eventId: string): string {
  return `${receivedAt}#${eventId}`;
}

export const RECONCILE_TYPE = 'reconcile';
export const FINDING_TYPE = 'reconcile_finding';

export function reconcileCursorKey(): { pk: string; sk: string } {
  return { pk: 'RECONCILE', sk: 'CURSOR' };
}

export const FINDING_PREFIX = 'FINDING#';

/** A finding, once per Stripe object and kind of disagreement. */
export function findingKey(ref: string, code: string): { pk: string; sk: string } {
  return { pk: 'RECONCILE', sk: `${FINDING_PREFIX}${ref}#${code}` };
}

export const ACCOUNT_OWNER_TYPE = 'stripe_account_owner';

/** Whose a connected account is (a deauthorized account can no longer be read from Stripe). */
export function accountOwnerKey(accountId: string): { pk: string; sk: string } {
  return { pk: `STRIPE_ACCOUNT#${accountId}`, sk: 'OWNER' };
}
