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
import { stripeId, TEST_CARDS, unix } from './objects';
import {
  found,
  invalid,
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
}

export interface Balances {
  /** `platform`, or a connected account's id → currency → amounts. */
  [holder: string]: Record<string, { available: number; pending: number }>;
}

export interface MoneyState {
  paymentIntents: Record<string, Stripe.PaymentIntent>;
  charges: Record<string, ChargeRecord>;
  refunds: Record<string, Stripe.Refund>;
  transfers: Record<string, Stripe.Transfer>;
  balances: Balances;
}

export const emptyMoneyState = (): MoneyState => ({
  paymentIntents: {},
  charges: {},
  refunds: {},
  transfers: {},
  balances: {},
});

export interface MoneyContext {
  state: MoneyState & {
    accounts: Record<string, Stripe.Account>;
    customers: Record<string, Stripe.Customer>;
    paymentMethods: Record<string, Stripe.PaymentMethod>;
    cards: Record<string, string>;
  };
  now: () => Date;
  baseUrl: () => string;
  paymentMethodFrom: (reference: string) => Stripe.PaymentMethod;
  emit: (type: string, object: { id?: string; object?: string }, request: RequestRef) => void;
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

export interface Money {
  routes: [string, RegExp, Handler][];
  /** The authentication page's answer for a payment intent waiting on it (3155). */
  authenticate(intentId: string, approved: boolean): Stripe.PaymentIntent;
}

export function moneyRoutes(context: MoneyContext): Money {
  const { state, now } = context;

  const balanceOf = (holder: string, currency: string) => {
    const holderBalances = (state.balances[holder] ??= {});
    return (holderBalances[currency] ??= { available: 0, pending: 0 });
  };

  function paymentIntent(id: string): Stripe.PaymentIntent {
    const found = state.paymentIntents[id];
    if (!found) throw missing('payment_intent', id, 'intent');
    return found;
  }

  function save(intent: Stripe.PaymentIntent): Stripe.PaymentIntent {
    state.paymentIntents[intent.id] = intent;
    return intent;
  }

  /** Charges the intent's card as Stripe's test card of that number does. */
  function confirm(intent: Stripe.PaymentIntent, params: Params, request: MoneyRequest) {
    if (intent.status !== 'requires_payment_method' && intent.status !== 'requires_confirmation') {
      throw invalid(
        'intent',
        `You cannot confirm this PaymentIntent because it has a status of ${intent.status}.`,
        'payment_intent_unexpected_state',
      );
    }
    const reference = str(params, 'payment_method') ?? (intent.payment_method as string | null);
    if (reference === null) {
      throw invalid(
        'payment_method',
        'You cannot confirm this PaymentIntent because it’s missing a payment method.',
        'payment_intent_unexpected_state',
      );
    }
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
    const fail = (code: string, declineCode: string | undefined, message: string) => {
      const failed = save({
        ...intent,
        payment_method: null,
        status: 'requires_payment_method',
        last_payment_error: {
          type: 'card_error',
          code,
          ...(declineCode === undefined ? {} : { decline_code: declineCode }),
          message,
          payment_method: method,
        },
      } as unknown as Stripe.PaymentIntent);
      context.emit('payment_intent.payment_failed', failed, request.event);
      throw new StripeError(402, {
        type: 'card_error',
        code,
        ...(declineCode === undefined ? {} : { decline_code: declineCode }),
        message,
      });
    };
    switch (card?.behaviour) {
      case 'declined':
      case 'fails_later':
        return fail('card_declined', 'generic_decline', 'Your card was declined.');
      case 'insufficient_funds':
        return fail('card_declined', 'insufficient_funds', 'Your card has insufficient funds.');
      case 'authentication': {
        // Set up for off-session use (saved to the customer), it charges without the customer.
        if (offSession && method.customer !== null) break;
        if (offSession) {
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
        context.emit('payment_intent.requires_action', waiting, request.event);
        return { body: waiting };
      }
      default:
        break;
    }
    return { body: succeed(intent, method.id, request.event) };
  }

  function succeed(intent: Stripe.PaymentIntent, methodId: string, event: RequestRef) {
    const charge: ChargeRecord = {
      id: stripeId('ch'),
      paymentIntent: intent.id,
      amount: intent.amount,
      currency: intent.currency,
      refunded: 0,
      transferred: 0,
    };
    state.charges[charge.id] = charge;
    balanceOf('platform', intent.currency).available += intent.amount;
    const succeeded = save({
      ...intent,
      payment_method: methodId,
      status: 'succeeded',
      amount_received: intent.amount,
      latest_charge: charge.id,
      last_payment_error: null,
      next_action: null,
    } as Stripe.PaymentIntent);
    context.emit('payment_intent.succeeded', succeeded, event);
    return succeeded;
  }

  function authenticate(intentId: string, approved: boolean): Stripe.PaymentIntent {
    const intent = paymentIntent(intentId);
    if (intent.status !== 'requires_action') return intent;
    const event = { id: null, idempotency_key: null };
    if (approved) return succeed(intent, intent.payment_method as string, event);
    const failed = save({
      ...intent,
      payment_method: null,
      status: 'requires_payment_method',
      next_action: null,
      last_payment_error: {
        type: 'invalid_request_error',
        code: 'payment_intent_authentication_failure',
        message:
          'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
      },
    } as unknown as Stripe.PaymentIntent);
    context.emit('payment_intent.payment_failed', failed, event);
    return failed;
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
          payment_method_options: {},
          payment_method_types: ['card'],
          processing: null,
          receipt_email: str(params, 'receipt_email') ?? null,
          review: null,
          setup_future_usage: null,
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
          return confirm(intent, params, request);
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
      /^\/v1\/payment_intents\/(pi_\w+)$/,
      (_request, [, id]) => ({ body: paymentIntent(id as string) }),
    ],
    [
      'POST',
      /^\/v1\/payment_intents\/(pi_\w+)\/confirm$/,
      (request, [, id]) => confirm(paymentIntent(id as string), request.params, request),
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
        const canceled = save({
          ...intent,
          status: 'canceled',
          canceled_at: unix(now()),
          cancellation_reason: (str(request.params, 'cancellation_reason') ??
            null) as Stripe.PaymentIntent.CancellationReason | null,
        } as Stripe.PaymentIntent);
        context.emit('payment_intent.canceled', canceled, request.event);
        return { body: canceled };
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
        if (chargeId === undefined) {
          if (intentId !== undefined) {
            throw invalid(
              'payment_intent',
              `This PaymentIntent (${intentId}) does not have a successful charge to refund.`,
              'charge_not_refundable',
            );
          }
          throw invalid(
            'charge',
            'One of the following params should be provided for this request: payment_intent or charge.',
            'parameter_missing',
          );
        }
        const charge = state.charges[chargeId];
        if (!charge) throw missing('charge', chargeId, 'charge');
        const left = charge.amount - charge.refunded;
        if (left === 0) {
          throw invalid(
            'charge',
            `Charge ${charge.id} has already been refunded.`,
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
        charge.refunded += amount;
        balanceOf('platform', charge.currency).available -= amount;
        const refund = {
          id: stripeId('re'),
          object: 'refund',
          amount,
          balance_transaction: stripeId('txn'),
          charge: charge.id,
          created: unix(now()),
          currency: charge.currency,
          customer: state.paymentIntents[charge.paymentIntent]?.customer ?? null,
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
          payment_intent: charge.paymentIntent,
          payment_method: state.paymentIntents[charge.paymentIntent]?.payment_method ?? null,
          reason: (str(params, 'reason') ?? null) as Stripe.Refund.Reason | null,
          receipt_number: null,
          source_transfer_reversal: null,
          status: 'succeeded',
          transfer_reversal: null,
        } as unknown as Stripe.Refund;
        state.refunds[refund.id] = refund;
        context.emit('refund.created', refund, request.event);
        return { body: refund };
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
        if (!account) throw missing('account', destination, 'destination');
        if (account.capabilities?.transfers !== 'active') {
          throw invalid(
            'destination',
            'Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments',
            'insufficient_capabilities_for_transfer',
          );
        }
        const source = str(params, 'source_transaction');
        if (source !== undefined) {
          const charge = state.charges[source];
          if (!charge) throw missing('charge', source, 'source_transaction');
          if (charge.currency !== currency) {
            throw invalid(
              'currency',
              `The currency of source_transaction's balance transaction (${charge.currency}) must be the same as the transfer currency (${currency}).`,
              'parameter_invalid_string',
            );
          }
          if (amount > charge.amount - charge.refunded - charge.transferred) {
            throw invalid(
              'amount',
              'The transfer amount exceeds the amount the source_transaction can fund.',
              'amount_too_large',
            );
          }
          charge.transferred += amount;
        } else if (balanceOf('platform', currency).available < amount) {
          throw invalid(
            'amount',
            'You have insufficient available funds in your Stripe account. Try adding funds directly to your available balance by creating Charges using the 4000000000000077 test card.',
            'balance_insufficient',
          );
        }
        balanceOf('platform', currency).available -= amount;
        balanceOf(destination, currency).available += amount;
        const id = stripeId('tr');
        const transfer = {
          id,
          object: 'transfer',
          amount,
          amount_reversed: 0,
          balance_transaction: stripeId('txn'),
          created: unix(now()),
          currency,
          description: str(params, 'description') ?? null,
          destination,
          destination_payment: stripeId('py', 14),
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
      /^\/v1\/transfers\/(tr_\w+)$/,
      (_request, [, id]) => ({
        body: found(state.transfers[id as string], 'transfer', id as string),
      }),
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
        balanceOf(transfer.destination as string, transfer.currency).available -= amount;
        balanceOf('platform', transfer.currency).available += amount;
        const reversal = {
          id: stripeId('trr'),
          object: 'transfer_reversal',
          amount,
          balance_transaction: stripeId('txn'),
          created: unix(now()),
          currency: transfer.currency,
          destination_payment_refund: stripeId('pyr', 14),
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
    [
      'GET',
      /^\/v1\/balance$/,
      ({ account }) => {
        const amounts = Object.entries(state.balances[account ?? 'platform'] ?? {});
        const currencies =
          amounts.length > 0
            ? amounts
            : [
                [
                  account ? (state.accounts[account]?.default_currency ?? 'usd') : 'usd',
                  { available: 0, pending: 0 },
                ] as const,
              ];
        const balance = {
          object: 'balance',
          available: currencies.map(([currency, amount]) => ({
            amount: amount.available,
            currency,
            source_types: { card: amount.available },
          })),
          connect_reserved: currencies.map(([currency]) => ({ amount: 0, currency })),
          livemode: false,
          pending: currencies.map(([currency, amount]) => ({
            amount: amount.pending,
            currency,
            source_types: { card: amount.pending },
          })),
        } as unknown as Stripe.Balance;
        return { body: balance };
      },
    ],
  ];
  return { routes, authenticate };
}
