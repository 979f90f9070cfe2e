/**
 * Payments: key builders. Access patterns:
 *
 * | pattern                                              | key                                      | index |
 * |------------------------------------------------------|------------------------------------------|-------|
 * | a user's Stripe references (account, customer)        | pk = USER#<id>, sk = STRIPE              | table |
 * | a webhook event handled (or being handled)            | pk = STRIPE_EVENT#<evt_…>, sk = EVENT    | table |
 *
 * The user's connected account and customer ids are written once each, conditioned on being
 * absent (or equal), so concurrent begins or card additions keep one of each. Which user an
 * account or customer belongs to is read from the Stripe object's `metadata.user_id` (only our
 * secret key can write it) and checked against this record. Event records expire (ttl) after
 * 30 days: Stripe stops redelivering an event after 3 days.
 */
export const PAYMENTS_TYPE = 'payments';
export const STRIPE_EVENT_TYPE = 'stripe_event';

export function paymentsKey(userId: string): { pk: string; sk: string } {
  return { pk: `USER#${userId}`, sk: 'STRIPE' };
}

export function stripeEventKey(eventId: string): { pk: string; sk: string } {
  return { pk: `STRIPE_EVENT#${eventId}`, sk: 'EVENT' };
}
