import { PAYMENTS_TYPE, paymentsKey } from '../payments.keys';

/** For the dev seed (infra/local/seed.ts): where a user's Stripe ids are kept. */
export function paymentsRecordKey(userId: string): { pk: string; sk: string } {
  return paymentsKey(userId);
}

/** For the dev seed: a seller's payments record once their Connect account is onboarded. */
export function onboardedSellerItem(input: {
  userId: string;
  stripeAccountId: string;
  country: string;
  at: string;
}): Record<string, unknown> {
  return {
    ...paymentsKey(input.userId),
    type: PAYMENTS_TYPE,
    user_id: input.userId,
    stripe_account_id: input.stripeAccountId,
    account_country: input.country,
    updated_at: input.at,
  };
}
