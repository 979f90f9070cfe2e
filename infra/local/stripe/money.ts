/**
 * The money endpoints of the Stripe twin: payment intents (charging a saved card on or off
 * session, with Stripe's test-card behaviours), refunds, transfers to connected accounts with
 * their reversals, and balances (the platform's, and a connected account's through
 * `Stripe-Account`). Amounts are integer minor units with a currency, as Stripe's.
 *
 * Simplification (README): a successful charge is available at once (Stripe test mode holds it
 * pending for days unless the 0077 card is used); a transfer needs the platform's available
 * balance, or a `source_transaction` whose charge covers it, as Stripe requires.
 */
import type Stripe from 'stripe';
import type { Ledger, LedgerState } from './ledger';
import { stripeId, TEST_CARDS, unix } from './objects';
import {
  expansions,
  found,
  invalid,
  list,
  metadata,
  missing,
  required,
  str,
  StripeError,
  type Params,
} from './params';

export interface ChargeRecord {
  id: string;
  paymentIntent: string;
  amount: number;
  currency: string;
  refunded: number;
  /** Transferred out with this charge as `source_transaction`. */
  transferred: number;
  // The fields below came later: optional, so a state file kept by `npm start` still loads.
  created?: number;
  /** A declined attempt is a failed charge, as Stripe keeps it (`charge.failed`). */
  status?: 'succeeded' | 'failed';
  paymentMethod?: string | null;
  balanceTransaction?: string | null;
  /** The intent's metadata when the charge was made (Stripe copies it to the charge). */
  metadata?: Record<string, string>;
  /** Went through the 3D Secure page (3155). */
  authenticated?: boolean;
  failure?: { code: string; declineCode: string | null; message: string } | null;
  receiptUrl?: string | null;
  /** A dispute was opened on it (Stripe's `disputed`). */
  disputed?: boolean;
}

export interface MoneyState extends LedgerState {
  paymentIntents: Record<string, Stripe.PaymentIntent>;
  charges: Record<string, ChargeRecord>;
  refunds: Record<string, Stripe.Refund>;
  transfers: Record<string, Stripe.Transfer>;
  /** Connected accounts that deauthorized the platform, with when (unix seconds). */
  deauthorized: Record<string, number>;
}

export const emptyMoneyState = (): MoneyState => ({
  paymentIntents: {},
  charges: {},
  refunds: {},
  transfers: {},
  balances: {},
  balanceTransactions: {},
  deauthorized: {},
});

export interface MoneyContext {
  state: MoneyState & {
    accounts: Record<string, Stripe.Account>;
    customers: Record<string, Stripe.Customer>;
    paymentMethods: Record<string, Stripe.PaymentMethod>;
    cards: Record<string, string>;
    setupIntents: Record<string, Stripe.SetupIntent>;
    checkoutSessions: Record<string, Stripe.Checkout.Session>;
  };
  now: () => Date;
  baseUrl: () => string;
  ledger: Ledger;
  /** The status of the dispute of a charge, if it has one (a disputed charge cannot be refunded). */
  disputeStatus: (chargeId: string) => Stripe.Dispute.Status | undefined;
  paymentMethodFrom: (reference: string) => Stripe.PaymentMethod;
  /** Attaches a payment method to a customer (`payment_method.attached`). */
  attach: (method: Stripe.PaymentMethod, customer: string, request: RequestRef) => unknown;
  emit: (
    type: string,
    object: { id?: string; object?: string },
    request: RequestRef,
    previousAttributes?: Record<string, unknown>,
    account?: string,
  ) => void;
}

type RequestRef = { id: string | null; idempotency_key: string | null };

interface MoneyRequest {
  params: Params;
  account: string | undefined;
  event: RequestRef;
}

type Handler = (
  request: MoneyRequest,
  match: RegExpMatchArray,
) => { status?: number; body: unknown };

function amountOf(params: Params, name = 'amount'): number {
  const raw = required(params, name);
  const amount = Number(raw);
  if (!Number.isInteger(amount) || amount < 1) {
    throw invalid(
      name,
      'This value must be greater than or equal to 1.',
      'parameter_invalid_integer',
    );
  }
  return amount;
}

function currencyOf(params: Params): string {
  const currency = required(params, 'currency').toLowerCase();
  if (!/^[a-z]{3}$/.test(currency)) {
    throw invalid('currency', `Invalid currency: ${currency}.`, 'parameter_invalid_string');
  }
  return currency;
}

const DECLINE_DOCS = 'https://docs.stripe.com/error-codes/';

export interface Money {
  routes: [string, RegExp, Handler][];
  /** The authentication page's answer for a payment intent waiting on it (3155). */
  authenticate(intentId: string, approved: boolean): Stripe.PaymentIntent;
  /** Charges `intent` with `paymentMethod` (the hosted Checkout page); card errors throw. */
  confirmIntent(id: string, params: Params, event: RequestRef): Stripe.PaymentIntent;
  /** Cancels an intent that has not succeeded (a Checkout Session expiring cancels its own). */
  cancelIntent(
    id: string,
    reason: Stripe.PaymentIntent.CancellationReason | null,
    event: RequestRef,
  ): Stripe.PaymentIntent | undefined;
  /** The Charge `id` in Stripe's shape (the receipt page). */
  charge(id: string): Stripe.Charge | undefined;
}

export function moneyRoutes(context: MoneyContext): Money {
  const { state, now, ledger } = context;
  const { balanceOf } = ledger;

  function paymentIntent(id: string): Stripe.PaymentIntent {
    const found = state.paymentIntents[id];
    if (!found) throw missing('payment_intent', id, 'intent');
    return found;
  }

  function save(intent: Stripe.PaymentIntent): Stripe.PaymentIntent {
    state.paymentIntents[intent.id] = intent;
    return intent;
  }

  /** The Checkout Session that made this payment intent, if one did. */
  const sessionOf = (intentId: string) =>
    Object.values(state.checkoutSessions).find((session) => session.payment_intent === intentId);

  /**
   * Whether a card was set up for off-session use: saved through a SetupIntent for off-session
   * use, or paid with `setup_future_usage: 'off_session'` (Stripe's 3155 then charges off session
   * without asking again).
   */
  function setUpForOffSession(methodId: string): boolean {
    return (
      Object.values(state.setupIntents).some(
        (intent) =>
          intent.status === 'succeeded' &&
          intent.payment_method === methodId &&
          intent.usage === 'off_session',
      ) ||
      Object.values(state.paymentIntents).some(
        (intent) =>
          intent.status === 'succeeded' &&
          intent.payment_method === methodId &&
          intent.setup_future_usage === 'off_session',
      )
    );
  }

  /** The refunds of a charge, newest first (Stripe's list order). */
  const refundsOf = (chargeId: string) =>
    Object.values(state.refunds)
      .filter((refund) => refund.charge === chargeId)
      .reverse();

  /**
   * A charge as Stripe's Charge object. `refunds` only when expanded: since API version
   * 2022-11-15 Stripe no longer includes it (nor in `charge.refunded`'s object).
   */
  function chargeObject(record: ChargeRecord, expandRefunds = false): Stripe.Charge {
    const intent = state.paymentIntents[record.paymentIntent];
    const methodId =
      record.paymentMethod ??
      (typeof intent?.payment_method === 'string' ? intent.payment_method : null);
    const method = methodId === null ? undefined : state.paymentMethods[methodId];
    const card = method?.card;
    const succeeded = (record.status ?? 'succeeded') === 'succeeded';
    const failure = record.failure ?? null;
    const charge = {
      id: record.id,
      object: 'charge',
      amount: record.amount,
      amount_captured: succeeded ? record.amount : 0,
      amount_refunded: record.refunded,
      application: null,
      application_fee: null,
      application_fee_amount: null,
      balance_transaction: succeeded ? (record.balanceTransaction ?? null) : null,
      billing_details: method?.billing_details ?? {
        address: {
          city: null,
          country: null,
          line1: null,
          line2: null,
          postal_code: null,
          state: null,
        },
        email: null,
        name: null,
        phone: null,
        tax_id: null,
      },
      calculated_statement_descriptor: succeeded ? 'MARKETPLACE TWIN' : null,
      captured: succeeded,
      created: record.created ?? intent?.created ?? unix(now()),
      currency: record.currency,
      customer: intent?.customer ?? null,
      description: intent?.description ?? null,
      disputed: record.disputed ?? false,
      failure_balance_transaction: null,
      failure_code: failure?.code ?? null,
      failure_message: failure?.message ?? null,
      fraud_details: {},
      livemode: false,
      metadata: record.metadata ?? intent?.metadata ?? {},
      on_behalf_of: null,
      outcome: succeeded
        ? {
            advice_code: null,
            network_advice_code: null,
            network_decline_code: null,
            network_status: 'approved_by_network',
            reason: null,
            risk_level: 'normal',
            risk_score: 32,
            seller_message: 'Payment complete.',
            type: 'authorized',
          }
        : {
            advice_code: null,
            network_advice_code: null,
            network_decline_code: null,
            network_status: 'declined_by_network',
            reason: failure?.declineCode ?? 'generic_decline',
            risk_level: 'normal',
            risk_score: 32,
            seller_message: 'The bank did not return any further details with this decline.',
            type: 'issuer_declined',
          },
      paid: succeeded,
      payment_intent: record.paymentIntent,
      payment_method: methodId,
      payment_method_details: {
        card: {
          amount_authorized: succeeded ? record.amount : null,
          authorization_code: succeeded ? record.id.slice(-6).toUpperCase() : null,
          brand: card?.brand ?? null,
          checks: card?.checks ?? null,
          country: card?.country ?? null,
          exp_month: card?.exp_month ?? null,
          exp_year: card?.exp_year ?? null,
          extended_authorization: { status: 'disabled' },
          fingerprint: card?.fingerprint ?? null,
          funding: card?.funding ?? null,
          incremental_authorization: { status: 'unavailable' },
          installments: null,
          last4: card?.last4 ?? null,
          mandate: null,
          multicapture: { status: 'unavailable' },
          network: card?.brand ?? null,
          network_token: { used: false },
          network_transaction_id: succeeded ? `${record.id.slice(-15)}` : null,
          overcapture: { maximum_amount_capturable: record.amount, status: 'unavailable' },
          regulated_status: 'unregulated',
          three_d_secure: record.authenticated
            ? {
                authentication_flow: 'challenge',
                electronic_commerce_indicator: '05',
                exemption_indicator: null,
                result: 'authenticated',
                result_reason: null,
                transaction_id: stripeId('x', 24).slice(2),
                version: '2.2.0',
              }
            : null,
          transaction_link_id: null,
          wallet: null,
        },
        type: 'card',
      },
      radar_options: {},
      receipt_email: intent?.receipt_email ?? null,
      receipt_number: null,
      receipt_url: succeeded
        ? (record.receiptUrl ?? `${context.baseUrl()}/receipts/${record.id}`)
        : null,
      refunded: succeeded && record.refunded === record.amount,
      ...(expandRefunds
        ? {
            refunds: {
              object: 'list',
              data: refundsOf(record.id),
              has_more: false,
              url: `/v1/charges/${record.id}/refunds`,
            },
          }
        : {}),
      review: null,
      shipping: null,
      source: null,
      source_transfer: null,
      statement_descriptor: null,
      statement_descriptor_suffix: null,
      status: succeeded ? 'succeeded' : 'failed',
      transfer_data: null,
      transfer_group: intent?.transfer_group ?? null,
    };
    return charge as unknown as Stripe.Charge;
  }

  function charge(id: string): ChargeRecord {
    const found = state.charges[id];
    if (!found) throw missing('charge', id, 'charge');
    return found;
  }

  function newCharge(
    intent: Stripe.PaymentIntent,
    methodId: string,
    outcome: { authenticated?: boolean; failure?: ChargeRecord['failure'] },
  ): ChargeRecord {
    const id = stripeId('ch');
    const failed = outcome.failure !== undefined && outcome.failure !== null;
    const record: ChargeRecord = {
      id,
      paymentIntent: intent.id,
      amount: intent.amount,
      currency: intent.currency,
      refunded: 0,
      transferred: 0,
      created: unix(now()),
      status: failed ? 'failed' : 'succeeded',
      paymentMethod: methodId,
      balanceTransaction: null,
      metadata: { ...intent.metadata },
      authenticated: outcome.authenticated ?? false,
      failure: outcome.failure ?? null,
      receiptUrl: failed ? null : `${context.baseUrl()}/receipts/${id}`,
    };
    state.charges[id] = record;
    return record;
  }

  /** An intent as answered: `latest_charge` expanded into the Charge when asked. */
  function present(intent: Stripe.PaymentIntent, params: Params): Stripe.PaymentIntent {
    const expand = expansions(params);
    if (expand.includes('latest_charge') && typeof intent.latest_charge === 'string') {
      const record = state.charges[intent.latest_charge];
      if (record) return { ...intent, latest_charge: chargeObject(record) } as Stripe.PaymentIntent;
    }
    return intent;
  }

  /** Charges the intent's card as Stripe's test card of that number does. */
  function confirm(
    current: Stripe.PaymentIntent,
    params: Params,
    event: RequestRef,
  ): Stripe.PaymentIntent {
    if (
      current.status !== 'requires_payment_method' &&
      current.status !== 'requires_confirmation' &&
      // Confirmed again while the bank waits (another card chosen): that attempt is dropped.
      current.status !== 'requires_action'
    ) {
      throw invalid(
        'intent',
        `You cannot confirm this PaymentIntent because it has a status of ${current.status}.`,
        'payment_intent_unexpected_state',
      );
    }
    const reference = str(params, 'payment_method') ?? (current.payment_method as string | null);
    if (reference === null) {
      throw invalid(
        'payment_method',
        'You cannot confirm this PaymentIntent because it’s missing a payment method.',
        'payment_intent_unexpected_state',
      );
    }
    const futureUsage = str(params, 'setup_future_usage');
    const intent =
      futureUsage === undefined
        ? current
        : ({ ...current, setup_future_usage: futureUsageOf(params) } as Stripe.PaymentIntent);
    const method = context.paymentMethodFrom(reference);
    const offSession = params.off_session === 'true';
    if (offSession && intent.customer !== null && method.customer !== intent.customer) {
      throw invalid(
        'payment_method',
        'The provided PaymentMethod was previously used with a PaymentIntent without Customer attachment, or it belongs to another customer.',
        'payment_method_unexpected_state',
      );
    }
    const card = TEST_CARDS[state.cards[method.id] ?? ''];
    const fail = (code: string, declineCode: string | null, message: string): never => {
      const record = newCharge(intent, method.id, { failure: { code, declineCode, message } });
      const error = {
        type: 'card_error' as const,
        code,
        ...(declineCode === null ? {} : { decline_code: declineCode }),
        message,
        charge: record.id,
        doc_url: `${DECLINE_DOCS}${code.replace(/_/g, '-')}`,
        payment_method: method,
        payment_method_type: 'card',
      };
      const failed = save({
        ...intent,
        payment_method: null,
        latest_charge: record.id,
        status: 'requires_payment_method',
        next_action: null,
        last_payment_error: error,
      } as unknown as Stripe.PaymentIntent);
      context.emit('charge.failed', chargeObject(record), event);
      context.emit('payment_intent.payment_failed', failed, event);
      throw new StripeError(402, { ...error, payment_intent: failed });
    };
    switch (card?.behaviour) {
      case 'declined':
      case 'fails_later':
        return fail('card_declined', 'generic_decline', 'Your card was declined.');
      case 'insufficient_funds':
        return fail('card_declined', 'insufficient_funds', 'Your card has insufficient funds.');
      case 'authentication':
      case 'always_authenticate': {
        if (offSession) {
          // Set up for off-session use, 3155 charges without the customer; otherwise (and always
          // for 3184) the bank declines, since nobody is there to authenticate.
          if (card.behaviour === 'authentication' && setUpForOffSession(method.id)) break;
          return fail(
            'authentication_required',
            'authentication_required',
            'Your card was declined. This transaction requires authentication.',
          );
        }
        const waiting = save({
          ...intent,
          payment_method: method.id,
          status: 'requires_action',
          next_action: {
            type: 'redirect_to_url',
            redirect_to_url: {
              url: `${context.baseUrl()}/authenticate/${intent.id}`,
              return_url: str(params, 'return_url') ?? null,
            },
          },
        } as unknown as Stripe.PaymentIntent);
        context.emit('payment_intent.requires_action', waiting, event);
        return waiting;
      }
      default:
        break;
    }
    return succeed(intent, method.id, event, false);
  }

  function succeed(
    intent: Stripe.PaymentIntent,
    methodId: string,
    event: RequestRef,
    authenticated: boolean,
  ) {
    const record = newCharge(intent, methodId, { authenticated });
    record.balanceTransaction = ledger.record('platform', {
      amount: intent.amount,
      currency: intent.currency,
      type: 'charge',
      reportingCategory: 'charge',
      source: record.id,
      description: intent.description,
    }).id;
    // `setup_future_usage` with a customer: the card is saved to the customer once paid.
    const method = state.paymentMethods[methodId];
    if (intent.setup_future_usage !== null && typeof intent.customer === 'string' && method) {
      if (method.customer === null) context.attach(method, intent.customer, event);
    }
    const succeeded = save({
      ...intent,
      payment_method: methodId,
      status: 'succeeded',
      amount_received: intent.amount,
      latest_charge: record.id,
      last_payment_error: null,
      next_action: null,
    } as Stripe.PaymentIntent);
    context.emit('charge.succeeded', chargeObject(record), event);
    context.emit('payment_intent.succeeded', succeeded, event);
    return succeeded;
  }

  function authenticate(intentId: string, approved: boolean): Stripe.PaymentIntent {
    const intent = paymentIntent(intentId);
    if (intent.status !== 'requires_action') return intent;
    const event = { id: null, idempotency_key: null };
    if (approved) return succeed(intent, intent.payment_method as string, event, true);
    const failed = save({
      ...intent,
      payment_method: null,
      status: 'requires_payment_method',
      next_action: null,
      last_payment_error: {
        type: 'invalid_request_error',
        code: 'payment_intent_authentication_failure',
        doc_url: `${DECLINE_DOCS}payment-intent-authentication-failure`,
        message:
          'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
        payment_method: state.paymentMethods[intent.payment_method as string] ?? null,
        payment_method_type: 'card',
      },
    } as unknown as Stripe.PaymentIntent);
    context.emit('payment_intent.payment_failed', failed, event);
    return failed;
  }

  function cancel(
    intent: Stripe.PaymentIntent,
    reason: Stripe.PaymentIntent.CancellationReason | null,
    event: RequestRef,
  ): Stripe.PaymentIntent {
    const canceled = save({
      ...intent,
      status: 'canceled',
      canceled_at: unix(now()),
      cancellation_reason: reason,
      next_action: null,
    } as Stripe.PaymentIntent);
    context.emit('payment_intent.canceled', canceled, event);
    return canceled;
  }

  function futureUsageOf(params: Params): 'off_session' | 'on_session' | null {
    const value = str(params, 'setup_future_usage');
    if (value === undefined) return null;
    if (value !== 'off_session' && value !== 'on_session') {
      throw invalid(
        'setup_future_usage',
        'Invalid setup_future_usage: must be one of on_session or off_session',
        'parameter_invalid_string',
      );
    }
    return value;
  }

  const routes: [string, RegExp, Handler][] = [
    [
      'POST',
      /^\/v1\/payment_intents$/,
      (request) => {
        const { params } = request;
        const customer = str(params, 'customer') ?? null;
        if (customer !== null && !state.customers[customer])
          throw missing('customer', customer, 'customer');
        const id = stripeId('pi');
        const intent = save({
          id,
          object: 'payment_intent',
          amount: amountOf(params),
          amount_capturable: 0,
          amount_details: { tip: {} },
          amount_received: 0,
          application: null,
          application_fee_amount: null,
          automatic_payment_methods: null,
          canceled_at: null,
          cancellation_reason: null,
          capture_method: 'automatic',
          client_secret: `${id}_secret_${stripeId('x', 25).slice(2)}`,
          confirmation_method: 'automatic',
          created: unix(now()),
          currency: currencyOf(params),
          customer,
          customer_account: null,
          description: str(params, 'description') ?? null,
          excluded_payment_method_types: null,
          last_payment_error: null,
          latest_charge: null,
          livemode: false,
          managed_payments: null,
          metadata: metadata(params),
          next_action: null,
          on_behalf_of: null,
          payment_method: null,
          payment_method_configuration_details: null,
          payment_method_options: {
            card: {
              installments: null,
              mandate_options: null,
              network: null,
              request_three_d_secure: 'automatic',
            },
          },
          payment_method_types: ['card'],
          processing: null,
          receipt_email: str(params, 'receipt_email') ?? null,
          review: null,
          setup_future_usage: futureUsageOf(params),
          shipping: null,
          source: null,
          statement_descriptor: null,
          statement_descriptor_suffix: null,
          status: 'requires_payment_method',
          transfer_data: null,
          transfer_group: str(params, 'transfer_group') ?? null,
        } as unknown as Stripe.PaymentIntent);
        context.emit('payment_intent.created', intent, request.event);
        const method = str(params, 'payment_method');
        if (method !== undefined && params.confirm === 'true')
          return { body: present(confirm(intent, params, request.event), params) };
        if (method !== undefined) {
          return {
            body: save({
              ...intent,
              payment_method: context.paymentMethodFrom(method).id,
              status: 'requires_confirmation',
            } as Stripe.PaymentIntent),
          };
        }
        return { body: intent };
      },
    ],
    [
      'GET',
      /^\/v1\/payment_intents$/,
      ({ params }) => {
        const customer = str(params, 'customer');
        const intents = Object.values(state.paymentIntents)
          .filter((intent) => customer === undefined || intent.customer === customer)
          .reverse();
        return { body: list(intents, '/v1/payment_intents', params) };
      },
    ],
    [
      'GET',
      /^\/v1\/payment_intents\/(pi_\w+)$/,
      ({ params }, [, id]) => ({ body: present(paymentIntent(id as string), params) }),
    ],
    [
      'POST',
      /^\/v1\/payment_intents\/(pi_\w+)\/confirm$/,
      ({ params, event }, [, id]) => ({
        body: present(confirm(paymentIntent(id as string), params, event), params),
      }),
    ],
    [
      'POST',
      /^\/v1\/payment_intents\/(pi_\w+)\/cancel$/,
      (request, [, id]) => {
        const intent = paymentIntent(id as string);
        if (intent.status === 'succeeded' || intent.status === 'canceled') {
          throw invalid(
            'intent',
            `You cannot cancel this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be canceled: requires_payment_method, requires_capture, requires_confirmation, requires_action, processing.`,
            'payment_intent_unexpected_state',
          );
        }
        const session = sessionOf(intent.id);
        if (session !== undefined) {
          // Stripe: a Checkout Session's PaymentIntent is canceled by expiring the session.
          throw invalid(
            'intent',
            `You cannot cancel this PaymentIntent because it was created by Checkout Session ${session.id}. Expire the Checkout Session instead.`,
            'payment_intent_unexpected_state',
          );
        }
        const reason = (str(request.params, 'cancellation_reason') ??
          null) as Stripe.PaymentIntent.CancellationReason | null;
        return { body: present(cancel(intent, reason, request.event), request.params) };
      },
    ],
    [
      'GET',
      /^\/v1\/charges$/,
      ({ params }) => {
        const intent = str(params, 'payment_intent');
        const customer = str(params, 'customer');
        const group = str(params, 'transfer_group');
        const expandRefunds = expansions(params).includes('data.refunds');
        const charges = Object.values(state.charges)
          .map((record) => chargeObject(record, expandRefunds))
          .filter(
            (item) =>
              (intent === undefined || item.payment_intent === intent) &&
              (customer === undefined || item.customer === customer) &&
              (group === undefined || item.transfer_group === group),
          )
          .reverse();
        return { body: list(charges, '/v1/charges', params) };
      },
    ],
    [
      'GET',
      /^\/v1\/charges\/(ch_\w+)$/,
      ({ params }, [, id]) => ({
        body: chargeObject(charge(id as string), expansions(params).includes('refunds')),
      }),
    ],
    [
      'GET',
      /^\/v1\/charges\/(ch_\w+)\/refunds$/,
      ({ params }, [, id]) => {
        const record = charge(id as string);
        return { body: list(refundsOf(record.id), `/v1/charges/${record.id}/refunds`, params) };
      },
    ],
    [
      'POST',
      /^\/v1\/refunds$/,
      (request) => {
        const { params } = request;
        const intentId = str(params, 'payment_intent');
        const chargeId =
          str(params, 'charge') ??
          (intentId === undefined
            ? undefined
            : ((paymentIntent(intentId).latest_charge as string | null) ?? undefined));
        const noCharge = () =>
          invalid(
            'payment_intent',
            `This PaymentIntent (${intentId}) does not have a successful charge to refund.`,
            'charge_not_refundable',
          );
        if (chargeId === undefined) {
          if (intentId !== undefined) throw noCharge();
          throw invalid(
            'charge',
            'One of the following params should be provided for this request: payment_intent or charge.',
            'parameter_missing',
          );
        }
        const record = charge(chargeId);
        if (record.status === 'failed') {
          if (str(params, 'charge') === undefined) throw noCharge();
          throw invalid(
            'charge',
            `Charge ${record.id} has not succeeded and cannot be refunded.`,
            'charge_not_refundable',
          );
        }
        const disputeStatus = context.disputeStatus(record.id);
        if (disputeStatus !== undefined && !disputeStatus.startsWith('warning_')) {
          // Stripe: a charged-back payment cannot be refunded (an inquiry's still can).
          throw invalid(
            'charge',
            `Charge ${record.id} has been charged back; cannot issue a refund.`,
            'charge_disputed',
          );
        }
        const left = record.amount - record.refunded;
        if (left === 0) {
          throw invalid(
            'charge',
            `Charge ${record.id} has already been refunded.`,
            'charge_already_refunded',
          );
        }
        const amount = params.amount === undefined ? left : amountOf(params);
        if (amount > left) {
          throw invalid(
            'amount',
            `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`,
            'amount_too_large',
          );
        }
        record.refunded += amount;
        const intent = state.paymentIntents[record.paymentIntent];
        const refundId = stripeId('re');
        const refund = {
          id: refundId,
          object: 'refund',
          amount,
          balance_transaction: ledger.record('platform', {
            amount: -amount,
            currency: record.currency,
            type: 'refund',
            reportingCategory: 'refund',
            source: refundId,
            description: null,
          }).id,
          charge: record.id,
          created: unix(now()),
          currency: record.currency,
          customer: intent?.customer ?? null,
          customer_account: null,
          destination_details: {
            card: {
              reference_status: 'pending',
              reference_type: 'acquirer_reference_number',
              type: 'refund',
            },
            type: 'card',
          },
          metadata: metadata(params),
          payment_intent: record.paymentIntent,
          payment_method:
            record.paymentMethod ?? (intent?.payment_method as string | null | undefined) ?? null,
          reason: (str(params, 'reason') ?? null) as Stripe.Refund.Reason | null,
          receipt_number: null,
          source_transfer_reversal: null,
          status: 'succeeded',
          transfer_reversal: null,
        } as unknown as Stripe.Refund;
        state.refunds[refund.id] = refund;
        context.emit('refund.created', refund, request.event);
        // The charge after it, as Stripe sends it: `amount_refunded`, `refunded` when all is.
        context.emit('charge.refunded', chargeObject(record), request.event);
        return { body: refund };
      },
    ],
    [
      'GET',
      /^\/v1\/refunds$/,
      ({ params }) => {
        const chargeId = str(params, 'charge');
        const intent = str(params, 'payment_intent');
        const refunds = Object.values(state.refunds)
          .filter(
            (refund) =>
              (chargeId === undefined || refund.charge === chargeId) &&
              (intent === undefined || refund.payment_intent === intent),
          )
          .reverse();
        return { body: list(refunds, '/v1/refunds', params) };
      },
    ],
    [
      'GET',
      /^\/v1\/refunds\/(re_\w+)$/,
      (_request, [, id]) => ({
        body: found(state.refunds[id as string], 'refund', id as string),
      }),
    ],
    [
      'POST',
      /^\/v1\/transfers$/,
      (request) => {
        const { params } = request;
        const amount = amountOf(params);
        const currency = currencyOf(params);
        const destination = required(params, 'destination');
        const account = state.accounts[destination];
        if (!account || state.deauthorized[destination] !== undefined) {
          // An account that disconnected from the platform is one it can no longer reach.
          throw missing('destination', destination, 'destination');
        }
        if (account.capabilities?.transfers !== 'active') {
          throw invalid(
            'destination',
            'Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments',
            'insufficient_capabilities_for_transfer',
          );
        }
        const source = str(params, 'source_transaction');
        if (source !== undefined) {
          const record = state.charges[source];
          if (!record) throw missing('charge', source, 'source_transaction');
          if (record.status === 'failed') {
            throw invalid(
              'source_transaction',
              `The source_transaction charge (${source}) has not succeeded.`,
              'parameter_invalid_string',
            );
          }
          if (record.currency !== currency) {
            throw invalid(
              'currency',
              `The currency of source_transaction's balance transaction (${record.currency}) must be the same as the transfer currency (${currency}).`,
              'parameter_invalid_string',
            );
          }
          if (amount > record.amount - record.refunded - record.transferred) {
            throw invalid(
              'amount',
              'The transfer amount exceeds the amount the source_transaction can fund.',
              'amount_too_large',
            );
          }
          record.transferred += amount;
        } else if (balanceOf('platform', currency).available < amount) {
          throw invalid(
            'amount',
            'You have insufficient available funds in your Stripe account. Try adding funds directly to your available balance by creating Charges using the 4000000000000077 test card.',
            'balance_insufficient',
          );
        }
        const id = stripeId('tr');
        const destinationPayment = stripeId('py', 14);
        const platformTransaction = ledger.record('platform', {
          amount: -amount,
          currency,
          type: 'transfer',
          reportingCategory: 'transfer',
          source: id,
          description: str(params, 'description') ?? null,
        });
        ledger.record(destination, {
          amount,
          currency,
          type: 'payment',
          reportingCategory: 'charge',
          source: destinationPayment,
          description: null,
        });
        const transfer = {
          id,
          object: 'transfer',
          amount,
          amount_reversed: 0,
          balance_transaction: platformTransaction.id,
          created: unix(now()),
          currency,
          description: str(params, 'description') ?? null,
          destination,
          destination_payment: destinationPayment,
          livemode: false,
          metadata: metadata(params),
          reversals: {
            object: 'list',
            data: [],
            has_more: false,
            url: `/v1/transfers/${id}/reversals`,
          },
          reversed: false,
          source_transaction: source ?? null,
          source_type: 'card',
          transfer_group: str(params, 'transfer_group') ?? null,
        } as unknown as Stripe.Transfer;
        state.transfers[id] = transfer;
        context.emit('transfer.created', transfer, request.event);
        return { body: transfer };
      },
    ],
    [
      'GET',
      /^\/v1\/transfers$/,
      ({ params }) => {
        const destination = str(params, 'destination');
        const group = str(params, 'transfer_group');
        const transfers = Object.values(state.transfers)
          .filter(
            (transfer) =>
              (destination === undefined || transfer.destination === destination) &&
              (group === undefined || transfer.transfer_group === group),
          )
          .reverse();
        return { body: list(transfers, '/v1/transfers', params) };
      },
    ],
    [
      'GET',
      /^\/v1\/transfers\/(tr_\w+)$/,
      (_request, [, id]) => ({
        body: found(state.transfers[id as string], 'transfer', id as string),
      }),
    ],
    [
      'GET',
      /^\/v1\/transfers\/(tr_\w+)\/reversals$/,
      ({ params }, [, id]) => {
        const transfer = found(state.transfers[id as string], 'transfer', id as string);
        return {
          body: list(
            [...transfer.reversals.data].reverse(),
            `/v1/transfers/${transfer.id}/reversals`,
            params,
          ),
        };
      },
    ],
    [
      'POST',
      /^\/v1\/transfers\/(tr_\w+)\/reversals$/,
      (request, [, id]) => {
        const transfer = state.transfers[id as string];
        if (!transfer) throw missing('transfer', id as string);
        const left = transfer.amount - transfer.amount_reversed;
        const amount = request.params.amount === undefined ? left : amountOf(request.params);
        if (left === 0 || amount > left) {
          throw invalid(
            'amount',
            `Amount (${amount}) is greater than the amount that can be reversed (${left}).`,
            'amount_too_large',
          );
        }
        const destination = transfer.destination as string;
        if (balanceOf(destination, transfer.currency).available < amount) {
          // Stripe: a transfer_group transfer can be reversed only if the destination account's
          // balance covers the reversal (nothing is reversed otherwise).
          throw invalid(
            'amount',
            `Insufficient funds in the destination account (${destination}) to reverse this transfer: its available balance is ${balanceOf(destination, transfer.currency).available} and the reversal is ${amount}.`,
            'balance_insufficient',
          );
        }
        const reversalId = stripeId('trr');
        const paymentRefund = stripeId('pyr', 14);
        ledger.record(destination, {
          amount: -amount,
          currency: transfer.currency,
          type: 'payment_refund',
          reportingCategory: 'refund',
          source: paymentRefund,
          description: null,
        });
        const reversal = {
          id: reversalId,
          object: 'transfer_reversal',
          amount,
          balance_transaction: ledger.record('platform', {
            amount,
            currency: transfer.currency,
            type: 'transfer_refund',
            reportingCategory: 'transfer_reversal',
            source: reversalId,
            description: null,
          }).id,
          created: unix(now()),
          currency: transfer.currency,
          destination_payment_refund: paymentRefund,
          metadata: metadata(request.params),
          source_refund: null,
          transfer: transfer.id,
        } as unknown as Stripe.TransferReversal;
        const updated = {
          ...transfer,
          amount_reversed: transfer.amount_reversed + amount,
          reversed: transfer.amount_reversed + amount === transfer.amount,
          reversals: { ...transfer.reversals, data: [...transfer.reversals.data, reversal] },
        } as Stripe.Transfer;
        state.transfers[transfer.id] = updated;
        context.emit('transfer.reversed', updated, request.event);
        return { body: reversal };
      },
    ],
  ];
  return {
    routes,
    authenticate,
    confirmIntent: (id, params, event) => {
      let intent = paymentIntent(id);
      // The buyer left the 3D Secure page and pays again on the form: that attempt is dropped.
      if (intent.status === 'requires_action') {
        intent = save({
          ...intent,
          payment_method: null,
          status: 'requires_payment_method',
          next_action: null,
        } as Stripe.PaymentIntent);
      }
      return confirm(intent, params, event);
    },
    cancelIntent: (id, reason, event) => {
      const intent = state.paymentIntents[id];
      if (!intent || intent.status === 'succeeded' || intent.status === 'canceled') return intent;
      return cancel(intent, reason, event);
    },
    charge: (id) => {
      const record = state.charges[id];
      return record === undefined ? undefined : chargeObject(record);
    },
  };
}
