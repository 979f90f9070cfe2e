import type Stripe from 'stripe';
import { DomainError } from '../core/errors';
import type {
  PaymentMethodsCheck,
  SavedCard,
  SavedCardList,
  SetupSession,
} from '../../shared/schemas/payments';
import { RETURN_PAGES, type PaymentsDeps } from './payments';
import { isMissing, viaStripe } from './payments.stripe';

/**
 * Saved cards (spec 000 §7, 001 §3 "Saved card"): one Stripe customer per user, cards added on
 * Stripe's hosted page (Checkout in setup mode: the card is entered, and authenticated when the
 * bank asks, on Stripe), listed, removed, and one default — the card charged off session when the
 * user wins an auction. Stripe holds the cards; the list is read from it, never copied.
 */

function cardNotFound(): DomainError {
  return new DomainError('payments.errors.card_not_found', {
    message: 'This card is not among your saved cards.',
  });
}

/** A card whose expiry month has passed cannot be charged. */
export function isExpired(card: { exp_month: number; exp_year: number }, now: Date): boolean {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() + 1;
  return card.exp_year < year || (card.exp_year === year && card.exp_month < month);
}

function defaultOf(customer: Stripe.Customer): string | null {
  const value = customer.invoice_settings.default_payment_method;
  if (value === null) return null;
  return typeof value === 'string' ? value : value.id;
}

/** The cards of a customer, newest first, as the list shows them. */
export function savedCardsOf(
  methods: readonly Stripe.PaymentMethod[],
  defaultId: string | null,
  now: Date,
): SavedCard[] {
  return (
    methods
      .filter((method) => method.card !== undefined && method.card !== null)
      .map((method) => {
        const card = method.card as Stripe.PaymentMethod.Card;
        return {
          id: method.id,
          brand: card.brand,
          funding: card.funding,
          last4: card.last4,
          exp_month: card.exp_month,
          exp_year: card.exp_year,
          created: new Date(method.created * 1000).toISOString(),
          default: method.id === defaultId,
          expired: isExpired(card, now),
        };
      })
      // Stripe lists newest first; a stable sort keeps its order for cards of the same second.
      .sort((a, b) => b.created.localeCompare(a.created))
  );
}

/**
 * The default a customer should have: the current one while it is still attached, else the newest
 * card that can be charged (else the newest card), else none.
 */
export function expectedDefault(
  cards: readonly SavedCard[],
  current: string | null,
): string | null {
  if (current !== null && cards.some((card) => card.id === current)) return current;
  return (cards.find((card) => !card.expired) ?? cards[0])?.id ?? null;
}

async function customerIdOf(deps: PaymentsDeps, userId: string): Promise<string | undefined> {
  return (await deps.repo.getRecord(userId))?.customer_id;
}

/**
 * POST …/create-customer: the user's customer, created on first need. Concurrent first needs give
 * one customer: the create carries an idempotency key of the user, and the id is kept once.
 */
export async function ensureCustomer(
  deps: PaymentsDeps,
  userId: string,
  now: Date,
): Promise<string> {
  const existing = await customerIdOf(deps, userId);
  if (existing !== undefined) return existing;
  const user = await deps.userOf(userId);
  if (user === undefined) {
    throw new DomainError('users.errors.not_found', { message: 'This user could not be found.' });
  }
  const stripe = await deps.stripe();
  const customer = await viaStripe('checkout.errors.customer', () =>
    stripe.customers.create(
      { email: user.email, metadata: { user_id: userId } },
      { idempotencyKey: `customer:${userId}` },
    ),
  );
  return deps.repo.keepCustomer(userId, customer.id, now);
}

/** POST …/create-setup-intent {type: card}: Stripe's page to add a card. */
export async function createCardSetup(
  deps: PaymentsDeps,
  userId: string,
  now: Date,
): Promise<SetupSession> {
  const customer = await ensureCustomer(deps, userId, now);
  const stripe = await deps.stripe();
  const session = await viaStripe('checkout.errors.setup_intent', () =>
    stripe.checkout.sessions.create({
      mode: 'setup',
      customer,
      allowed_payment_method_types: ['card'],
      success_url: `${deps.webOrigin}${RETURN_PAGES.checkoutSuccess}?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${deps.webOrigin}${RETURN_PAGES.checkoutCancel}`,
      metadata: { user_id: userId, purpose: 'save_card' },
      setup_intent_data: { metadata: { user_id: userId } },
    }),
  );
  if (session.url === null) {
    throw new DomainError('checkout.errors.setup_intent', {
      message: 'Stripe did not answer a page to add the card.',
    });
  }
  return { session_id: session.id, url: session.url };
}

async function readCards(
  stripe: Stripe,
  customerId: string,
  now: Date,
): Promise<{ cards: SavedCard[]; defaultId: string | null }> {
  const [methods, customer] = await viaStripe('payments.errors.provider', () =>
    Promise.all([
      stripe.paymentMethods.list({ customer: customerId, type: 'card', limit: 100 }),
      stripe.customers.retrieve(customerId),
    ]),
  );
  const defaultId = customer.deleted === true ? null : defaultOf(customer);
  return { cards: savedCardsOf(methods.data, defaultId, now), defaultId };
}

/** GET …/payment-methods: the user's saved cards, newest first. */
export async function listCards(
  deps: PaymentsDeps,
  userId: string,
  now: Date,
): Promise<SavedCardList> {
  const customerId = await customerIdOf(deps, userId);
  if (customerId === undefined) return { payment_methods: [] };
  // A card saved a moment ago may still wait for its webhook to become the default: settle here
  // too, so the list never shows cards without a default.
  const { cards } = await settleDefault(await deps.stripe(), customerId, now);
  return { payment_methods: cards };
}

/**
 * Makes the customer's default what it should be (expectedDefault) and answers the cards with it.
 * Used after a card is added or removed, by the calls and by the webhooks, so whichever comes first
 * sets it and the other finds nothing to do.
 */
export async function settleDefault(
  stripe: Stripe,
  customerId: string,
  now: Date,
): Promise<{ cards: SavedCard[]; changed: boolean }> {
  const { cards, defaultId } = await readCards(stripe, customerId, now);
  const expected = expectedDefault(cards, defaultId);
  if (expected === defaultId) return { cards, changed: false };
  await viaStripe('payments.errors.provider', () =>
    stripe.customers.update(customerId, {
      invoice_settings: { default_payment_method: expected ?? '' },
    }),
  );
  return {
    cards: cards.map((card) => ({ ...card, default: card.id === expected })),
    changed: true,
  };
}

/** The user's card `paymentMethodId`, or 404 when it is not theirs (or not a card). */
async function ownCard(
  stripe: Stripe,
  customerId: string | undefined,
  paymentMethodId: string,
): Promise<Stripe.PaymentMethod> {
  if (customerId === undefined) throw cardNotFound();
  let method: Stripe.PaymentMethod;
  try {
    method = await stripe.paymentMethods.retrieve(paymentMethodId);
  } catch (error) {
    if (isMissing(error)) throw cardNotFound();
    return viaStripe('payments.errors.provider', () => Promise.reject(error));
  }
  const owner = typeof method.customer === 'string' ? method.customer : method.customer?.id;
  if (owner !== customerId || method.type !== 'card') throw cardNotFound();
  return method;
}

/** POST …/remove-payment-method: detaches the card; another becomes the default if it was. */
export async function removeCard(
  deps: PaymentsDeps,
  input: { userId: string; paymentMethod: string },
  now: Date,
): Promise<SavedCardList> {
  const customerId = await customerIdOf(deps, input.userId);
  const stripe = await deps.stripe();
  await ownCard(stripe, customerId, input.paymentMethod);
  await viaStripe('payments.errors.provider', () =>
    stripe.paymentMethods.detach(input.paymentMethod),
  );
  const { cards } = await settleDefault(stripe, customerId as string, now);
  await deps.publish(input.userId, { type: 'payments.cards_updated' });
  return { payment_methods: cards };
}

/** POST …/default-payment-method: makes one of the user's cards the default. */
export async function setDefaultCard(
  deps: PaymentsDeps,
  input: { userId: string; paymentMethod: string },
  now: Date,
): Promise<SavedCardList> {
  const customerId = await customerIdOf(deps, input.userId);
  const stripe = await deps.stripe();
  await ownCard(stripe, customerId, input.paymentMethod);
  await viaStripe('payments.errors.provider', () =>
    stripe.customers.update(customerId as string, {
      invoice_settings: { default_payment_method: input.paymentMethod },
    }),
  );
  const { cards } = await readCards(stripe, customerId as string, now);
  await deps.publish(input.userId, { type: 'payments.cards_updated' });
  return { payment_methods: cards };
}

/** POST …/check-payment-methods: whether a chargeable card exists, and the one to charge. */
export async function checkCards(
  deps: PaymentsDeps,
  userId: string,
  now: Date,
): Promise<PaymentMethodsCheck> {
  const { payment_methods: cards } = await listCards(deps, userId, now);
  const usable = cards.filter((card) => !card.expired);
  const chosen = usable.find((card) => card.default) ?? usable[0];
  return { has_payment_method: chosen !== undefined, default_payment_method: chosen?.id ?? null };
}
