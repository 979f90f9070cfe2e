import { ensureCustomer } from '../cards';
import { paymentsDeps } from '../payments.deps';

/**
 * For the dev seed's demo market (infra/local/seed-market.ts): a test card (`pm_card_visa` unless
 * told) saved for off-session use on the user's Stripe customer (made if they have none), as the
 * add-card page leaves it. The twin's environment must be in process.env.
 */
export async function saveDemoCard(
  userId: string,
  now: Date,
  token = 'pm_card_visa',
): Promise<string> {
  const deps = paymentsDeps();
  const customer = await ensureCustomer(deps, userId, now);
  const stripe = await deps.stripe();
  const setup = await stripe.setupIntents.create({
    customer,
    payment_method: token,
    confirm: true,
    usage: 'off_session',
  });
  if (setup.status !== 'succeeded' || typeof setup.payment_method !== 'string') {
    throw new Error(`the demo card of ${userId} was not saved (${setup.status})`);
  }
  return setup.payment_method;
}
