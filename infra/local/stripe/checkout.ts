/**
 * Checkout sessions of the Stripe twin (payment and setup modes) and the hosted page a session's
 * `url` opens, where the buyer types one of Stripe's test cards. Paying creates and confirms a
 * PaymentIntent on session (money.ts: a 3155 card goes through the 3D Secure test page and comes
 * back); saving confirms the session's SetupIntent. A completed session sends the browser to its
 * `success_url` (`{CHECKOUT_SESSION_ID}` replaced) and emits `checkout.session.completed`.
 */
import type Stripe from 'stripe';
import { escapeHtml } from '../support';
import { displayAmount, newCardPaymentMethod, stripeId, TEST_CARDS, unix } from './objects';
import { invalid, metadata, missing, required, str, StripeError, type Params } from './params';

type RequestRef = { id: string | null; idempotency_key: string | null };

export interface CheckoutContext {
  sessions: Record<string, Stripe.Checkout.Session>;
  customers: Record<string, Stripe.Customer>;
  paymentMethods: Record<string, Stripe.PaymentMethod>;
  cards: Record<string, string>;
  now: () => Date;
  baseUrl: () => string;
  emit: (type: string, object: { id?: string; object?: string }, request: RequestRef) => void;
  /** POST /v1/setup_intents with these parameters (server.ts). */
  createSetupIntent: (params: Params, request: RequestRef) => Stripe.SetupIntent;
  /** Confirms a setup intent with a payment method id, back to `returnUrl` after any 3D Secure. */
  confirmSetupIntent: (id: string, paymentMethod: string, returnUrl: string) => Stripe.SetupIntent;
  setupIntent: (id: string) => Stripe.SetupIntent | undefined;
  /** POST /v1/payment_intents with these parameters (money.ts). */
  createPaymentIntent: (params: Params, request: RequestRef) => Stripe.PaymentIntent;
  /**
   * Confirms the session's payment intent with these parameters (money.ts): an attempt left at
   * the 3D Secure page starts over; card errors throw StripeError.
   */
  confirmPaymentIntent: (id: string, params: Params, request: RequestRef) => Stripe.PaymentIntent;
  paymentIntent: (id: string) => Stripe.PaymentIntent | undefined;
  /** An expiring session cancels the intent it made, as Stripe does. */
  cancelPaymentIntent: (id: string, request: RequestRef) => void;
  cancelSetupIntent: (id: string, request: RequestRef) => void;
}

interface LineItem {
  name: string;
  amount: number;
  quantity: number;
}

/** What the session was created with that Stripe does not echo (kept for the hosted page). */
export interface SessionExtras {
  lineItems: LineItem[];
  paymentIntentData: Params;
}

const MIN_EXPIRY_S = 30 * 60;
const MAX_EXPIRY_S = 24 * 3600;

export function createCheckoutSession(
  context: CheckoutContext,
  extras: Record<string, SessionExtras>,
  params: Params,
  request: RequestRef,
): Stripe.Checkout.Session {
  const mode = required(params, 'mode');
  if (mode !== 'payment' && mode !== 'setup') {
    throw invalid(
      'mode',
      'The twin emulates Checkout in payment and setup modes.',
      'parameter_invalid_string',
    );
  }
  const successUrl = required(params, 'success_url');
  const customer = str(params, 'customer') ?? null;
  if (customer !== null && !context.customers[customer])
    throw missing('customer', customer, 'customer');
  const created = unix(context.now());
  const expiresAt = Number(str(params, 'expires_at') ?? created + MAX_EXPIRY_S);
  if (
    !Number.isInteger(expiresAt) ||
    expiresAt < created + MIN_EXPIRY_S ||
    expiresAt > created + MAX_EXPIRY_S
  ) {
    throw invalid(
      'expires_at',
      'The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.',
      'parameter_invalid_integer',
    );
  }
  const intentData = (params.payment_intent_data ?? {}) as Params;
  const futureUsage = str(intentData, 'setup_future_usage');
  if (futureUsage !== undefined && futureUsage !== 'off_session' && futureUsage !== 'on_session') {
    throw invalid(
      'payment_intent_data[setup_future_usage]',
      'Invalid payment_intent_data[setup_future_usage]: must be one of on_session or off_session',
      'parameter_invalid_string',
    );
  }
  if (mode !== 'payment' && params.payment_intent_data !== undefined) {
    throw invalid(
      'payment_intent_data',
      'You can only specify `payment_intent_data` in `payment` mode.',
      'parameter_invalid_string',
    );
  }
  const lineItems: LineItem[] = [];
  let currency = str(params, 'currency')?.toLowerCase() ?? null;
  if (mode === 'payment') {
    const items = Array.isArray(params.line_items) ? (params.line_items as Params[]) : [];
    if (items.length === 0) {
      throw invalid(
        'line_items',
        'You must specify `line_items` in `payment` mode.',
        'parameter_missing',
      );
    }
    for (const [index, item] of items.entries()) {
      const price = (item.price_data ?? {}) as Params;
      const product = (price.product_data ?? {}) as Params;
      const amount = Number(price.unit_amount);
      const quantity = Number(item.quantity ?? 1);
      const itemCurrency = str(price, 'currency')?.toLowerCase();
      if (!Number.isInteger(amount) || amount < 0 || itemCurrency === undefined) {
        throw invalid(
          `line_items[${index}][price_data]`,
          'Each line item needs price_data with currency and a whole unit_amount.',
          'parameter_invalid_integer',
        );
      }
      if (!Number.isInteger(quantity) || quantity < 1) {
        throw invalid(
          `line_items[${index}][quantity]`,
          'This value must be greater than or equal to 1.',
          'parameter_invalid_integer',
        );
      }
      if (currency !== null && currency !== itemCurrency) {
        throw invalid(
          'line_items',
          'All line items must have the same currency.',
          'parameter_invalid_string',
        );
      }
      currency = itemCurrency;
      lineItems.push({ name: str(product, 'name') ?? 'Item', amount, quantity });
    }
  }
  const total = lineItems.reduce((sum, item) => sum + item.amount * item.quantity, 0);
  const id = `cs_test_${stripeId('x', 58).slice(2)}`;
  let setupIntent: string | null = null;
  if (mode === 'setup') {
    setupIntent = context.createSetupIntent(
      {
        ...(customer === null ? {} : { customer }),
        usage: 'off_session',
        metadata: (params.setup_intent_data as Params | undefined)?.metadata ?? {},
      },
      request,
    ).id;
  }
  const session = {
    id,
    object: 'checkout.session',
    adaptive_pricing: null,
    after_expiration: null,
    allow_promotion_codes: null,
    amount_subtotal: mode === 'payment' ? total : null,
    amount_total: mode === 'payment' ? total : null,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: str(params, 'cancel_url') ?? null,
    client_reference_id: str(params, 'client_reference_id') ?? null,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created,
    currency,
    currency_conversion: null,
    custom_fields: [],
    custom_text: {
      after_submit: null,
      shipping_address: null,
      submit: null,
      terms_of_service_acceptance: null,
    },
    customer,
    customer_account: null,
    customer_creation: customer === null ? 'if_required' : null,
    customer_details: null,
    customer_email: str(params, 'customer_email') ?? null,
    discounts: [],
    expires_at: expiresAt,
    integration_identifier: null,
    invoice: null,
    invoice_creation: null,
    livemode: false,
    locale: null,
    managed_payments: null,
    metadata: metadata(params),
    mode,
    origin_context: null,
    payment_intent: null,
    payment_link: null,
    payment_method_collection: 'always',
    payment_method_configuration_details: null,
    payment_method_options: {},
    payment_method_types: ['card'],
    payment_status: mode === 'setup' ? 'no_payment_required' : 'unpaid',
    permissions: null,
    phone_number_collection: { enabled: false },
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: setupIntent,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: 'open',
    submit_type: null,
    subscription: null,
    success_url: successUrl,
    total_details:
      mode === 'payment' ? { amount_discount: 0, amount_shipping: 0, amount_tax: 0 } : null,
    ui_mode: 'hosted',
    url: `${context.baseUrl()}/c/pay/${id}`,
    wallet_options: null,
  } as unknown as Stripe.Checkout.Session;
  context.sessions[id] = session;
  extras[id] = { lineItems, paymentIntentData: intentData };
  return session;
}

/** The session now, expired once its time has passed (as Stripe expires it). */
export function currentSession(context: CheckoutContext, id: string): Stripe.Checkout.Session {
  const session = context.sessions[id];
  if (!session) throw missing('checkout.session', id, 'session');
  if (session.status === 'open' && unix(context.now()) >= session.expires_at) {
    return expireSession(context, id, { id: null, idempotency_key: null });
  }
  return session;
}

export function expireSession(
  context: CheckoutContext,
  id: string,
  request: RequestRef,
): Stripe.Checkout.Session {
  const session = context.sessions[id];
  if (!session) throw missing('checkout.session', id, 'session');
  if (session.status !== 'open') {
    throw invalid(
      'session',
      `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of \`${session.status}\`.`,
      'checkout_session_unexpected_state',
    );
  }
  const expired = { ...session, status: 'expired', url: null } as Stripe.Checkout.Session;
  context.sessions[id] = expired;
  // Its intent (a declined or abandoned attempt, or the setup mode's SetupIntent) is canceled.
  if (typeof session.payment_intent === 'string')
    context.cancelPaymentIntent(session.payment_intent, request);
  if (typeof session.setup_intent === 'string')
    context.cancelSetupIntent(session.setup_intent, request);
  context.emit('checkout.session.expired', expired, request);
  return expired;
}

/** Expires every open session whose `expires_at` has passed (the twin's timer runs it). */
export function expireDueSessions(context: CheckoutContext): number {
  let expired = 0;
  for (const session of Object.values(context.sessions)) {
    if (session.status !== 'open') continue;
    if (currentSession(context, session.id).status === 'expired') expired += 1;
  }
  return expired;
}

function complete(context: CheckoutContext, id: string, patch: Partial<Stripe.Checkout.Session>) {
  const session = context.sessions[id] as Stripe.Checkout.Session;
  const completed = {
    ...session,
    ...patch,
    status: 'complete',
    url: null,
  } as Stripe.Checkout.Session;
  context.sessions[id] = completed;
  context.emit('checkout.session.completed', completed, { id: null, idempotency_key: null });
  return completed;
}

function successUrl(session: Stripe.Checkout.Session): string {
  return (session.success_url ?? '').replace('{CHECKOUT_SESSION_ID}', session.id);
}

export type PageAnswer =
  | { kind: 'html'; status: number; title: string; body: string }
  | { kind: 'redirect'; location: string };

const expiredPage = (): PageAnswer => ({
  kind: 'html',
  status: 200,
  title: 'Session expired',
  body: '<h1>This checkout session has expired</h1><p>Go back to the site and start again.</p>',
});

/** The hosted page: the form, or its answer to a submitted card. */
export function checkoutPage(
  context: CheckoutContext,
  extras: Record<string, SessionExtras>,
  id: string,
  form: Params | null,
  authenticationFailed = false,
): PageAnswer {
  const stored = context.sessions[id];
  if (!stored)
    return {
      kind: 'html',
      status: 404,
      title: 'Not found',
      body: '<h1>Something went wrong</h1><p>The page you were looking for could not be found.</p>',
    };
  const session = currentSession(context, id);
  if (session.status === 'expired') return expiredPage();
  if (session.status === 'complete') return { kind: 'redirect', location: successUrl(session) };
  const extra = extras[id] ?? { lineItems: [], paymentIntentData: {} };
  const customer =
    session.customer === null ? undefined : context.customers[session.customer as string];
  const render = (error: string | null, values: Params = {}): PageAnswer => {
    const summary =
      session.mode === 'setup'
        ? '<p>Save a card for future payments.</p>'
        : `<div class="card"><dl>${extra.lineItems
            .map(
              (item) =>
                `<dt>${escapeHtml(item.name)}${item.quantity > 1 ? ` × ${item.quantity}` : ''}</dt><dd>${displayAmount(item.amount * item.quantity, session.currency ?? 'usd')}</dd>`,
            )
            .join(
              '',
            )}<dt>Total</dt><dd><b>${displayAmount(session.amount_total ?? 0, session.currency ?? 'usd')}</b></dd></dl></div>`;
    const field = (name: string, label: string, attributes: string) =>
      `<label for="${name}">${label}</label><input id="${name}" name="${name}" ${attributes} value="${escapeHtml(String(values[name] ?? ''))}">`;
    return {
      kind: 'html',
      status: error === null ? 200 : 402,
      title: 'Checkout (Stripe twin)',
      body: `<h1>${session.mode === 'setup' ? 'Save your card' : 'Pay'}</h1>
<p class="note">Local Stripe twin: use one of Stripe's test cards (4242 4242 4242 4242 succeeds).</p>
${summary}
${error === null ? '' : `<p role="alert" class="error">${escapeHtml(error)}</p>`}
<form method="post">
${field('email', 'Email', `type="email" autocomplete="email" required`).replace('value=""', `value="${escapeHtml(customer?.email ?? session.customer_email ?? '')}"`)}
${field('number', 'Card number', 'inputmode="numeric" autocomplete="cc-number" required')}
${field('expiry', 'Expiry (MM / YY)', 'autocomplete="cc-exp" placeholder="MM / YY" required')}
${field('cvc', 'CVC', 'inputmode="numeric" autocomplete="cc-csc" required')}
${field('name', 'Name on card', 'autocomplete="cc-name"')}
<button class="primary" type="submit">${session.mode === 'setup' ? 'Save card' : `Pay ${displayAmount(session.amount_total ?? 0, session.currency ?? 'usd')}`}</button>
</form>
${session.cancel_url ? `<p><a href="${escapeHtml(session.cancel_url)}">← Back</a></p>` : ''}`,
    };
  };
  if (form === null) {
    return render(
      authenticationFailed
        ? 'We are unable to authenticate your payment method. Please choose a different payment method and try again.'
        : null,
    );
  }

  const number = String(form.number ?? '').replace(/\D/g, '');
  const card = TEST_CARDS[number];
  if (card === undefined) return render('Your card number is incorrect.', form);
  const expiry = String(form.expiry ?? '').match(/^\s*(\d{1,2})\s*\/\s*(\d{2})\s*$/);
  const month = Number(expiry?.[1]);
  const year = 2000 + Number(expiry?.[2]);
  if (!expiry || month < 1 || month > 12)
    return render("Your card's expiration date is incomplete.", form);
  const today = context.now();
  if (
    year < today.getUTCFullYear() ||
    (year === today.getUTCFullYear() && month < today.getUTCMonth() + 1)
  ) {
    return render("Your card's expiration year is in the past.", form);
  }
  if (!/^\d{3,4}$/.test(String(form.cvc ?? '')))
    return render("Your card's security code is incomplete.", form);

  const method = newCardPaymentMethod(
    card,
    { expMonth: month, expYear: year, metadata: {} },
    today,
  );
  const email = str(form, 'email') ?? null;
  const name = str(form, 'name') ?? null;
  const withDetails = {
    ...method,
    billing_details: { ...method.billing_details, email, name },
  } as Stripe.PaymentMethod;
  context.paymentMethods[withDetails.id] = withDetails;
  context.cards[withDetails.id] = card.number;
  const request = { id: null, idempotency_key: null };
  const details = {
    email,
    name,
    phone: null,
    address: null,
    tax_exempt: 'none',
    tax_ids: [],
    business_name: null,
    individual_name: null,
  };

  try {
    if (session.mode === 'setup') {
      const setupIntent = context.confirmSetupIntent(
        session.setup_intent as string,
        withDetails.id,
        `${context.baseUrl()}/c/pay/${id}/return`,
      );
      if (setupIntent.status === 'requires_action') {
        return {
          kind: 'redirect',
          location: setupIntent.next_action?.redirect_to_url?.url as string,
        };
      }
      return {
        kind: 'redirect',
        location: successUrl(
          complete(context, id, { customer_details: details } as Partial<Stripe.Checkout.Session>),
        ),
      };
    }
    const data = extra.paymentIntentData;
    // One PaymentIntent per session, made at the first attempt and confirmed again after a decline
    // or a failed authentication, as Stripe's page does.
    const existing =
      typeof session.payment_intent === 'string'
        ? context.paymentIntent(session.payment_intent)
        : undefined;
    let intentId = existing?.id;
    if (existing === undefined || existing.status === 'canceled') {
      intentId = context.createPaymentIntent(
        {
          amount: String(session.amount_total),
          currency: session.currency as string,
          ...(session.customer === null ? {} : { customer: session.customer as string }),
          ...(data.transfer_group === undefined ? {} : { transfer_group: data.transfer_group }),
          ...(data.metadata === undefined ? {} : { metadata: data.metadata }),
          ...(data.description === undefined ? {} : { description: data.description }),
          ...(data.receipt_email === undefined ? {} : { receipt_email: data.receipt_email }),
          ...(data.setup_future_usage === undefined
            ? {}
            : { setup_future_usage: data.setup_future_usage }),
        },
        request,
      ).id;
    }
    context.sessions[id] = {
      ...(context.sessions[id] as Stripe.Checkout.Session),
      payment_intent: intentId,
      customer_details: details,
    } as unknown as Stripe.Checkout.Session;
    const intent = context.confirmPaymentIntent(
      intentId as string,
      { payment_method: withDetails.id, return_url: `${context.baseUrl()}/c/pay/${id}/return` },
      request,
    );
    if (intent.status === 'requires_action') {
      return { kind: 'redirect', location: intent.next_action?.redirect_to_url?.url as string };
    }
    return {
      kind: 'redirect',
      location: successUrl(complete(context, id, { payment_status: 'paid' })),
    };
  } catch (error) {
    if (!(error instanceof StripeError)) throw error;
    return render(error.message, form);
  }
}

/**
 * After the 3D Secure page: the session whose intent this is completes as soon as the intent
 * succeeded, as Stripe completes it, whether or not the browser comes back to the page.
 */
export function completeAuthenticated(context: CheckoutContext, intentId: string): void {
  const session = Object.values(context.sessions).find(
    (entry) =>
      entry.status === 'open' &&
      (entry.payment_intent === intentId || entry.setup_intent === intentId),
  );
  if (session === undefined) return;
  if (session.mode === 'setup') {
    if (context.setupIntent(intentId)?.status === 'succeeded') complete(context, session.id, {});
  } else if (context.paymentIntent(intentId)?.status === 'succeeded') {
    complete(context, session.id, { payment_status: 'paid' });
  }
}

/** Where the 3D Secure page sends the browser back: the session completes if the charge did. */
export function checkoutReturn(context: CheckoutContext, id: string): PageAnswer {
  const session = context.sessions[id];
  if (!session)
    return { kind: 'html', status: 404, title: 'Not found', body: '<h1>Not found</h1>' };
  if (currentSession(context, id).status === 'expired') return expiredPage();
  if (session.status === 'complete') return { kind: 'redirect', location: successUrl(session) };
  if (session.mode === 'setup') {
    if (context.setupIntent(session.setup_intent as string)?.status === 'succeeded') {
      return { kind: 'redirect', location: successUrl(complete(context, id, {})) };
    }
  } else {
    const intent = session.payment_intent
      ? context.paymentIntent(session.payment_intent as string)
      : undefined;
    if (intent?.status === 'succeeded') {
      return {
        kind: 'redirect',
        location: successUrl(complete(context, id, { payment_status: 'paid' })),
      };
    }
  }
  // Authentication failed: back to the form, which says so.
  return { kind: 'redirect', location: `${context.baseUrl()}/c/pay/${id}?failed=1` };
}
