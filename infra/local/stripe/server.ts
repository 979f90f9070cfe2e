/**
 * The local Stripe twin: a Stripe-compatible HTTP server for exactly the endpoints the product
 * calls, which the official `stripe` SDK reaches by configuration (host, port, protocol). No
 * installable Stripe emulator fits (see README.md). Form-encoded requests as the SDK sends them,
 * Stripe's object shapes (objects.ts), error shape, `Request-Id`, `Idempotency-Key` semantics,
 * events and signed webhooks (webhooks.ts), and the hosted Connect onboarding page a browser is sent
 * to. Anything else answers Stripe's 404 and is logged loudly.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import qs from 'qs';
import type Stripe from 'stripe';
import { closeServer, escapeHtml, listen, readBody, silentLog, type Log } from '../support';
import {
  displayAmount,
  EXPRESS_COUNTRIES,
  newAccount,
  newAccountLink,
  newCardPaymentMethod,
  newCustomer,
  newEvent,
  newLoginLink,
  newSetupIntent,
  onboarded,
  stripeId,
  TEST_CARDS,
  TEST_PAYMENT_METHOD_TOKENS,
  type OnboardingState,
  type TestCard,
} from './objects';
import {
  checkoutPage,
  checkoutReturn,
  completeAuthenticated,
  createCheckoutSession,
  currentSession,
  expireDueSessions,
  expireSession,
  type CheckoutContext,
  type PageAnswer,
  type SessionExtras,
} from './checkout';
import { disputeRoutes, type DisputeState, type OpenDispute } from './disputes';
import { FaultTable, haystackOf, parseFaultSpec, type Fault, type FaultSpec } from './faults';
import { createLedger } from './ledger';
import { emptyMoneyState, moneyRoutes, type MoneyState } from './money';
import {
  createdFilter,
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
import { payoutRoutes, type PayoutState } from './payouts';
import {
  DEFAULT_RETRY_DELAYS_MS,
  WebhookSender,
  type Delivery,
  type ReleaseOptions,
  type WebhookEndpoint,
} from './webhooks';

/** The API version the twin answers as (the SDK's pinned version). */
export const TWIN_API_VERSION = '2026-10-28.endive';
export const TWIN_SECRET_KEY = 'sk_test_twin_51MarketplaceTwinKey';
/** The signing secret of the product's webhook endpoint on the twin. */
export const TWIN_WEBHOOK_SECRET = 'whsec_twin_51MarketplaceTwinWebhookSecret';
/** The product's webhook call (issue 9 §3), where the twin delivers events once it exists. */
export const STRIPE_WEBHOOK_PATH = '/api/payment-gateway/webhook';

/**
 * The variables the twin gives the handlers for the SDK (`new Stripe(key, { host, port,
 * protocol })`): the payment functions' configuration (functions/core/env.ts) reads them; in AWS
 * the keys come from Secrets Manager instead.
 */
export { STRIPE_ENV } from '../../../functions/core/env';
const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/** Stripe keeps events for 30 days: older ones are no longer listed or retrieved. */
const EVENT_RETENTION_S = 30 * 86_400;
/** The platform's Connect application, as `account.application.deauthorized` names it. */
export const TWIN_APPLICATION = {
  id: 'ca_TwinMarketplace51Application00000',
  object: 'application',
  name: 'Marketplace (twin)',
} as const;
const ACCOUNT_LINK_TTL_MS = 300_000;
const MAX_BODY = 1_000_000;

interface LinkRecord {
  account: string;
  refreshUrl: string;
  returnUrl: string;
  expiresAt: number;
  used: boolean;
}

interface IdempotencyRecord {
  fingerprint: string;
  status: number;
  body: string;
  at: number;
}

/** Everything the twin keeps (a JSON file for `npm start`). */
export interface StripeState extends MoneyState, DisputeState, PayoutState {
  checkoutSessions: Record<string, Stripe.Checkout.Session>;
  checkoutExtras: Record<string, SessionExtras>;
  accounts: Record<string, Stripe.Account>;
  onboarding: Record<string, OnboardingState>;
  customers: Record<string, Stripe.Customer>;
  paymentMethods: Record<string, Stripe.PaymentMethod>;
  /** The test card behind each PaymentMethod (what charging it does). */
  cards: Record<string, string>;
  setupIntents: Record<string, Stripe.SetupIntent>;
  events: Stripe.Event[];
  /** Events whose webhook delivery has not ended yet, with the attempts made: resumed on start. */
  undelivered: Record<string, number>;
  links: Record<string, LinkRecord>;
  idempotency: Record<string, IdempotencyRecord>;
}

const emptyState = (): StripeState => ({
  ...emptyMoneyState(),
  disputes: {},
  payouts: {},
  checkoutSessions: {},
  checkoutExtras: {},
  accounts: {},
  onboarding: {},
  customers: {},
  paymentMethods: {},
  cards: {},
  setupIntents: {},
  events: [],
  undelivered: {},
  links: {},
  idempotency: {},
});

export interface StripeTwinOptions {
  port?: number;
  secretKey?: string;
  /** Where state is kept across restarts (npm start); memory only if omitted. */
  persistFile?: string;
  webhook?: WebhookEndpoint;
  retryDelaysMs?: readonly number[];
  /** How often open Checkout Sessions past `expires_at` are expired (default 5 s). */
  expirySweepMs?: number;
  now?: () => Date;
  log?: Log;
  /** Requests the twin does not emulate (default console.error): never silent. */
  errorLog?: Log;
}

export interface StripeTwin {
  /** `http://127.0.0.1:<port>`: the API and the hosted pages. */
  url: string;
  port: number;
  secretKey: string;
  /** The SDK's configuration for this twin (`new Stripe(key, twin.sdkConfig)`). */
  sdkConfig: { host: string; port: number; protocol: 'http' };
  state(): StripeState;
  setWebhookEndpoint(endpoint: WebhookEndpoint | undefined): void;
  deliveries(): readonly Delivery[];
  /**
   * Tests: keep webhook deliveries (all, or those whose event contains `match`) until `release`
   * (duplicated, reordered). Over HTTP: `POST /dev/webhooks/hold?match=`, `POST
   * /dev/webhooks/release?match=&copies=&order=`, `GET /dev/webhooks/deliveries`.
   */
  holdWebhooks(match?: string): void;
  releaseWebhooks(options?: ReleaseOptions, match?: string): number;
  /** Resolves when every delivery under way has answered. */
  webhooksSettled(): Promise<void>;
  /**
   * Tests: discards the held deliveries (of `match`) for good, each recorded `failed`, as if
   * Stripe's retries had run out; the events stay in `GET /v1/events`. Over HTTP: `POST
   * /dev/webhooks/drop?match=`. Answers how many.
   */
  dropWebhooks(match?: string): number;
  /**
   * Tests: the next `times` API requests that fit `spec` fail as it says (README, "Failures the
   * twin can play"). Over HTTP: `POST /dev/faults`, `GET /dev/faults`, `DELETE /dev/faults?match=`.
   */
  injectFault(spec: FaultSpec): Fault;
  /** Clears every fault, or those added with `match`; answers how many. */
  clearFaults(match?: string): number;
  /** The active faults, with the hits each has left. */
  faults(): Fault[];
  /** Tests: the cardholder's bank disputes a succeeded charge (`POST /dev/disputes`). */
  openDispute(input: OpenDispute): Stripe.Dispute;
  /** Tests: the bank decides the dispute (`POST /dev/disputes/{id}/close`). */
  closeDispute(id: string, outcome: 'won' | 'lost'): Stripe.Dispute;
  /**
   * Tests: Stripe's automatic payout of the account's available balance (`POST
   * /dev/accounts/{acct}/payout`); `fail` (true or a failure code) makes the bank refuse it.
   */
  payOutAccount(account: string, options?: { fail?: boolean | string }): Stripe.Payout[];
  /** Tests: the account disconnects from the platform (`POST /dev/accounts/{acct}/deauthorize`). */
  deauthorize(account: string): Stripe.Event;
  /**
   * Tests: an event of `type` about an existing object, read from the twin's state (`POST
   * /dev/events`), for the event types the twin never emits on its own.
   */
  emitEvent(type: string, objectId: string): Stripe.Event;
  /**
   * Starts again the deliveries a stop interrupted (kept in the state file), once the receiver is
   * up: Stripe keeps retrying an event for three days whatever happens to the receiver, so a
   * restart of the twin must not lose one. Answers how many.
   */
  resumeWebhooks(): number;
  stop(): Promise<void>;
}

/** A hosted page's submitted form (application/x-www-form-urlencoded). */
async function readForm(req: IncomingMessage): Promise<Params> {
  return qs.parse(((await readBody(req, MAX_BODY)) ?? Buffer.alloc(0)).toString('utf8')) as Params;
}

export async function startStripeTwin(options: StripeTwinOptions = {}): Promise<StripeTwin> {
  const log = options.log ?? silentLog;
  const errorLog = options.errorLog ?? ((line: string) => console.error(line));
  const now = options.now ?? (() => new Date());
  const secretKey = options.secretKey ?? TWIN_SECRET_KEY;
  let state = emptyState();
  if (options.persistFile !== undefined && existsSync(options.persistFile)) {
    state = {
      ...emptyState(),
      ...(JSON.parse(readFileSync(options.persistFile, 'utf8')) as StripeState),
    };
  }
  /** Something changed since the last save (a GET can expire a Checkout Session). */
  let changed = false;
  const save = () => {
    changed = false;
    if (options.persistFile === undefined) return;
    mkdirSync(path.dirname(options.persistFile), { recursive: true });
    const temporary = `${options.persistFile}.tmp`;
    writeFileSync(temporary, JSON.stringify(state));
    renameSync(temporary, options.persistFile);
  };
  /** Deliveries end outside any request: their state is saved shortly after, in one write. */
  let saveTimer: NodeJS.Timeout | undefined;
  const saveSoon = () => {
    if (options.persistFile === undefined || saveTimer !== undefined) return;
    saveTimer = setTimeout(() => {
      saveTimer = undefined;
      save();
    }, 250);
    saveTimer.unref();
  };
  const webhooks = new WebhookSender({
    retryDelaysMs: options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
    now,
    log,
    onChange: (record) => {
      if (record.status === 'pending') state.undelivered[record.eventId] = record.attempts;
      else Reflect.deleteProperty(state.undelivered, record.eventId);
      saveSoon();
    },
  });
  webhooks.setEndpoint(options.webhook);
  let baseUrl = '';

  function emit(
    type: string,
    object: { id?: string; object?: string },
    request: { id: string | null; idempotency_key: string | null },
    previousAttributes?: Record<string, unknown>,
    account?: string,
  ): Stripe.Event {
    const event = newEvent(
      { type, object, previousAttributes, account, request, apiVersion: TWIN_API_VERSION },
      now(),
    );
    state.events.push(event);
    if (webhooks.endpointUrl !== undefined) state.undelivered[event.id] = 0;
    changed = true;
    webhooks.send(event);
    return event;
  }

  function paymentMethodFrom(reference: string): Stripe.PaymentMethod {
    const token = TEST_PAYMENT_METHOD_TOKENS[reference];
    if (token !== undefined) {
      // Like Stripe, a test token makes a new PaymentMethod each time it is used.
      const card = TEST_CARDS[token] as TestCard;
      const year = now().getUTCFullYear() + 3;
      const created = newCardPaymentMethod(
        card,
        { expMonth: 12, expYear: year, metadata: {} },
        now(),
      );
      state.paymentMethods[created.id] = created;
      state.cards[created.id] = card.number;
      return created;
    }
    const found = state.paymentMethods[reference];
    if (!found) throw missing('PaymentMethod', reference, 'payment_method');
    return found;
  }

  function attach(paymentMethod: Stripe.PaymentMethod, customer: string, request: RequestInfo) {
    if (!state.customers[customer]) throw missing('customer', customer, 'customer');
    if (paymentMethod.customer !== null && paymentMethod.customer !== customer) {
      throw invalid(
        'payment_method',
        `The payment method you provided has already been attached to a customer.`,
        'payment_method_unexpected_state',
      );
    }
    if (paymentMethod.customer === customer) return paymentMethod;
    const attached = { ...paymentMethod, customer } as Stripe.PaymentMethod;
    state.paymentMethods[attached.id] = attached;
    emit('payment_method.attached', attached, request.event);
    return attached;
  }

  interface RequestInfo {
    method: string;
    path: string;
    params: Params;
    account: string | undefined;
    event: { id: string | null; idempotency_key: string | null };
  }

  /** Stripe's 403 for an account the platform's key cannot reach (unknown, or deauthorized). */
  const noAccess = (account: string) =>
    new StripeError(403, {
      type: 'invalid_request_error',
      code: 'account_invalid',
      message: `The provided key '${secretKey.slice(0, 8)}…' does not have access to account '${account}' (or that account does not exist). Application access may have been revoked.`,
    });

  /** The connected account `id`, which the platform must still reach. */
  const reachable = (id: string, param = 'account'): Stripe.Account => {
    const account = state.accounts[id];
    if (!account) throw missing('account', id, param);
    if (state.deauthorized[id] !== undefined) throw noAccess(id);
    return account;
  };

  /** The events Stripe still keeps (30 days, by the twin's clock), oldest first. */
  const retainedEvents = () => {
    const since = Math.floor(now().getTime() / 1000) - EVENT_RETENTION_S;
    return state.events.filter((event) => event.created >= since);
  };

  /** An array parameter as qs reads it (`types[]=a`, `types[0]=a`, or one string). */
  const listParam = (value: unknown): string[] => {
    if (value === undefined || value === '') return [];
    if (typeof value === 'string') return [value];
    if (Array.isArray(value)) return value.map(String);
    if (typeof value === 'object' && value !== null) return Object.values(value).map(String);
    return [];
  };

  type Handler = (
    request: RequestInfo,
    match: RegExpMatchArray,
  ) => { status?: number; body: unknown };

  const routes: [string, RegExp, Handler][] = [
    [
      'POST',
      /^\/v1\/accounts$/,
      ({ params, event }) => {
        const type = str(params, 'type') ?? (params.controller ? 'express' : undefined);
        if (type !== 'express') {
          throw invalid(
            'type',
            'The twin creates Express accounts only (type: express).',
            'parameter_invalid_string',
          );
        }
        const country = (str(params, 'country') ?? 'US').toUpperCase();
        if (!EXPRESS_COUNTRIES.has(country)) {
          throw new StripeError(400, {
            type: 'invalid_request_error',
            code: 'country_unsupported',
            message: `Connected accounts in ${country} are not supported for this platform.`,
            param: 'country',
          });
        }
        const asked = (params.capabilities ?? {}) as Params;
        const capabilities = (['card_payments', 'transfers'] as const).filter(
          (capability) => str((asked[capability] ?? {}) as Params, 'requested') === 'true',
        );
        if (capabilities.length === 0) {
          throw invalid(
            'capabilities',
            'An Express account needs at least one capability requested (transfers, card_payments).',
            'parameter_missing',
          );
        }
        const account = newAccount(
          {
            country,
            email: str(params, 'email') ?? null,
            metadata: metadata(params),
            capabilities,
          },
          now(),
        );
        state.accounts[account.id] = account;
        state.onboarding[account.id] = 'new';
        emit('account.updated', account, event, undefined, account.id);
        return { body: account };
      },
    ],
    [
      'GET',
      /^\/v1\/accounts\/(acct_\w+)$/,
      (_request, [, id]) => ({ body: reachable(id as string) }),
    ],
    [
      'DELETE',
      /^\/v1\/accounts\/(acct_\w+)$/,
      (_request, [, id]) => {
        reachable(id as string);
        Reflect.deleteProperty(state.accounts, id as string);
        return { body: { id, object: 'account', deleted: true } };
      },
    ],
    [
      'POST',
      /^\/v1\/account_links$/,
      ({ params }) => {
        const account = required(params, 'account');
        reachable(account);
        const refreshUrl = required(params, 'refresh_url');
        const returnUrl = required(params, 'return_url');
        const type = required(params, 'type');
        if (type !== 'account_onboarding' && type !== 'account_update') {
          throw invalid(
            'type',
            `Invalid type: must be one of account_onboarding or account_update`,
            'parameter_invalid_string',
          );
        }
        const token = randomBytes(18).toString('base64url');
        state.links[token] = {
          account,
          refreshUrl,
          returnUrl,
          expiresAt: now().getTime() + ACCOUNT_LINK_TTL_MS,
          used: false,
        };
        return { body: newAccountLink(`${baseUrl}/setup/s/${account}/${token}`, now()) };
      },
    ],
    [
      'POST',
      /^\/v1\/accounts\/(acct_\w+)\/login_links$/,
      (_request, [, id]) => {
        const account = reachable(id as string);
        if (!account.details_submitted) {
          throw invalid(
            'account',
            'Cannot create a login link for an account that has not completed onboarding.',
            'account_invalid',
          );
        }
        return {
          body: newLoginLink(
            `${baseUrl}/express/${id}/${randomBytes(9).toString('base64url')}`,
            now(),
          ),
        };
      },
    ],
    [
      'POST',
      /^\/v1\/customers$/,
      ({ params, event }) => {
        const customer = newCustomer(
          {
            email: str(params, 'email') ?? null,
            name: str(params, 'name') ?? null,
            phone: str(params, 'phone') ?? null,
            description: str(params, 'description') ?? null,
            metadata: metadata(params),
          },
          now(),
        );
        state.customers[customer.id] = customer;
        emit('customer.created', customer, event);
        return { body: customer };
      },
    ],
    [
      'GET',
      /^\/v1\/customers\/(cus_\w+)$/,
      (_request, [, id]) => ({
        body: found(state.customers[id as string], 'customer', id as string),
      }),
    ],
    [
      'POST',
      /^\/v1\/customers\/(cus_\w+)$/,
      ({ params, event }, [, id]) => {
        const customer = state.customers[id as string];
        if (!customer) throw missing('customer', id as string);
        const settings = (params.invoice_settings ?? {}) as Params;
        const defaultMethod = str(settings, 'default_payment_method');
        if (
          defaultMethod !== undefined &&
          state.paymentMethods[defaultMethod]?.customer !== customer.id
        ) {
          throw invalid(
            'invoice_settings[default_payment_method]',
            `No such PaymentMethod: '${defaultMethod}'; It's possible this PaymentMethod exists on one of your connected accounts, in which case you should retry this request on that connected account.`,
            'resource_missing',
          );
        }
        const updated = {
          ...customer,
          ...(str(params, 'email') === undefined ? {} : { email: str(params, 'email') }),
          ...(str(params, 'name') === undefined ? {} : { name: str(params, 'name') }),
          ...(params.metadata === undefined
            ? {}
            : { metadata: { ...customer.metadata, ...metadata(params) } }),
          invoice_settings: {
            ...customer.invoice_settings,
            ...('default_payment_method' in settings
              ? { default_payment_method: defaultMethod ?? null }
              : {}),
          },
        } as Stripe.Customer;
        state.customers[customer.id] = updated;
        emit('customer.updated', updated, event);
        return { body: updated };
      },
    ],
    [
      'GET',
      /^\/v1\/customers\/(cus_\w+)\/payment_methods$/,
      ({ params, path: url }, [, id]) => {
        if (!state.customers[id as string]) throw missing('customer', id as string);
        const type = str(params, 'type');
        // Newest first, as Stripe lists them; cards created in the same second keep that order too
        // (the latest saved first), not the order of the twin's state.
        const methods = Object.values(state.paymentMethods)
          .reverse()
          .filter(
            (method) => method.customer === id && (type === undefined || method.type === type),
          )
          .sort((a, b) => b.created - a.created);
        return { body: list(methods, url, params) };
      },
    ],
    [
      'GET',
      /^\/v1\/payment_methods$/,
      ({ params, path: url }) => {
        const customer = required(params, 'customer');
        if (!state.customers[customer]) throw missing('customer', customer, 'customer');
        const type = str(params, 'type');
        // Newest first, as Stripe lists them; cards created in the same second keep that order too
        // (the latest saved first), not the order of the twin's state.
        const methods = Object.values(state.paymentMethods)
          .reverse()
          .filter(
            (method) =>
              method.customer === customer && (type === undefined || method.type === type),
          )
          .sort((a, b) => b.created - a.created);
        return { body: list(methods, url, params) };
      },
    ],
    [
      'GET',
      /^\/v1\/payment_methods\/(pm_\w+)$/,
      (_request, [, id]) => ({
        body: found(state.paymentMethods[id as string], 'PaymentMethod', id as string),
      }),
    ],
    [
      'POST',
      /^\/v1\/payment_methods\/(pm_\w+)\/attach$/,
      (request, [, id]) => ({
        body: attach(
          paymentMethodFrom(id as string),
          required(request.params, 'customer'),
          request,
        ),
      }),
    ],
    [
      'POST',
      /^\/v1\/payment_methods\/(pm_\w+)\/detach$/,
      ({ event }, [, id]) => {
        const method = state.paymentMethods[id as string];
        if (!method) throw missing('PaymentMethod', id as string);
        if (method.customer === null) {
          throw invalid(
            'payment_method',
            'The payment method you provided is not attached to a customer so detachment is impossible.',
            'payment_method_unexpected_state',
          );
        }
        const previous = method.customer;
        const detached = { ...method, customer: null } as Stripe.PaymentMethod;
        state.paymentMethods[detached.id] = detached;
        const owner = state.customers[previous as string];
        if (owner?.invoice_settings.default_payment_method === detached.id) {
          state.customers[owner.id] = {
            ...owner,
            invoice_settings: { ...owner.invoice_settings, default_payment_method: null },
          } as Stripe.Customer;
        }
        emit('payment_method.detached', detached, event, { customer: previous });
        return { body: detached };
      },
    ],
    [
      'POST',
      /^\/v1\/setup_intents$/,
      (request) => {
        const { params, event } = request;
        const customer = str(params, 'customer') ?? null;
        if (customer !== null && !state.customers[customer])
          throw missing('customer', customer, 'customer');
        const types = params.payment_method_types;
        const setupIntent = newSetupIntent(
          {
            customer,
            paymentMethodTypes: Array.isArray(types) ? types.map(String) : ['card'],
            usage: str(params, 'usage') === 'on_session' ? 'on_session' : 'off_session',
            description: str(params, 'description') ?? null,
            metadata: metadata(params),
          },
          now(),
        );
        state.setupIntents[setupIntent.id] = setupIntent;
        emit('setup_intent.created', setupIntent, event);
        const paymentMethod = str(params, 'payment_method');
        if (paymentMethod !== undefined && params.confirm === 'true') {
          return confirmSetup(setupIntent.id, paymentMethod, request);
        }
        if (paymentMethod !== undefined) {
          const method = paymentMethodFrom(paymentMethod);
          const withMethod = {
            ...setupIntent,
            payment_method: method.id,
            status: 'requires_confirmation',
          } as Stripe.SetupIntent;
          state.setupIntents[setupIntent.id] = withMethod;
          return { body: withMethod };
        }
        return { body: setupIntent };
      },
    ],
    [
      'GET',
      /^\/v1\/setup_intents\/(seti_\w+)$/,
      (_request, [, id]) => ({
        body: found(state.setupIntents[id as string], 'setup_intent', id as string, 'intent'),
      }),
    ],
    [
      'POST',
      /^\/v1\/setup_intents\/(seti_\w+)\/confirm$/,
      (request, [, id]) => {
        const setupIntent = state.setupIntents[id as string];
        if (!setupIntent) throw missing('setup_intent', id as string, 'intent');
        const paymentMethod =
          str(request.params, 'payment_method') ?? (setupIntent.payment_method as string | null);
        if (paymentMethod === null) {
          throw invalid(
            'payment_method',
            'You cannot confirm this SetupIntent because it has no payment method.',
            'setup_intent_unexpected_state',
          );
        }
        return confirmSetup(id as string, paymentMethod, request);
      },
    ],
    [
      'POST',
      /^\/v1\/setup_intents\/(seti_\w+)\/cancel$/,
      ({ params, event }, [, id]) => {
        const setupIntent = state.setupIntents[id as string];
        if (!setupIntent) throw missing('setup_intent', id as string, 'intent');
        if (setupIntent.status === 'succeeded' || setupIntent.status === 'canceled') {
          throw invalid(
            'intent',
            `You cannot cancel this SetupIntent because it has a status of ${setupIntent.status}.`,
            'setup_intent_unexpected_state',
          );
        }
        const session = Object.values(state.checkoutSessions).find(
          (entry) => entry.setup_intent === setupIntent.id,
        );
        if (session !== undefined) {
          // Stripe: a Checkout Session's SetupIntent is canceled by expiring the session.
          throw invalid(
            'intent',
            `You cannot cancel this SetupIntent because it was created by Checkout Session ${session.id}. Expire the Checkout Session instead.`,
            'setup_intent_unexpected_state',
          );
        }
        const canceled = {
          ...setupIntent,
          status: 'canceled',
          cancellation_reason: str(params, 'cancellation_reason') ?? null,
        } as Stripe.SetupIntent;
        state.setupIntents[canceled.id] = canceled;
        emit('setup_intent.canceled', canceled, event);
        return { body: canceled };
      },
    ],
    [
      'GET',
      /^\/v1\/events\/(evt_\w+)$/,
      ({ account }, [, id]) => {
        const event = retainedEvents().find(
          (entry) => entry.id === id && (account === undefined || entry.account === account),
        );
        if (!event) throw missing('event', id as string);
        return { body: event };
      },
    ],
    [
      'GET',
      /^\/v1\/events$/,
      ({ params, path: url, account }) => {
        const type = str(params, 'type');
        const types = listParam(params.types);
        if (type !== undefined && types.length > 0) {
          throw invalid(
            'types',
            'You may only specify one of these parameters: type, types.',
            'parameter_invalid_empty',
          );
        }
        if (types.length > 20) {
          throw invalid(
            'types',
            'You can specify up to 20 event types.',
            'parameter_invalid_array_length',
          );
        }
        const wanted = type === undefined ? types : [type];
        // `type` takes `*` as a wildcard (`charge.dispute.*`), as Stripe's does.
        const patterns = wanted.map(
          (name) =>
            new RegExp(
              `^${name
                .split('*')
                .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
                .join('.*')}$`,
            ),
        );
        const created = createdFilter(params);
        const events = retainedEvents()
          .filter(
            (event) =>
              (patterns.length === 0 || patterns.some((pattern) => pattern.test(event.type))) &&
              created(event.created) &&
              (account === undefined || event.account === account),
          )
          .reverse();
        return { body: list(events, url, params) };
      },
    ],
  ];

  const ledger = createLedger(
    state,
    now,
    (holder) =>
      holder === 'platform' ? 'usd' : (state.accounts[holder]?.default_currency ?? 'usd'),
    (id) => sourceObject(id),
  );
  /** A balance transaction's source as Stripe expands it (`expand[]=data.source`). */
  function sourceObject(id: string): unknown {
    if (id.startsWith('ch_')) return money.charge(id);
    if (id.startsWith('re_')) return state.refunds[id];
    if (id.startsWith('tr_')) return state.transfers[id];
    if (id.startsWith('trr_')) {
      for (const transfer of Object.values(state.transfers)) {
        const reversal = transfer.reversals.data.find((entry) => entry.id === id);
        if (reversal !== undefined) return reversal;
      }
      return undefined;
    }
    if (id.startsWith('du_') || id.startsWith('dp_')) return state.disputes[id];
    if (id.startsWith('po_')) return state.payouts[id]?.payout;
    return undefined;
  }
  const money = moneyRoutes({
    state,
    now,
    baseUrl: () => baseUrl,
    ledger,
    disputeStatus: (chargeId) => disputes.statusOf(chargeId),
    paymentMethodFrom,
    attach: (method, customer, event) => attach(method, customer, { event } as RequestInfo),
    emit: (type, object, request, previous, account) =>
      emit(type, object, request, previous, account),
  });
  const disputes = disputeRoutes({
    state,
    now,
    ledger,
    charge: (id) => money.charge(id),
    emit: (type, object, request, previous) => emit(type, object, request, previous),
  });
  const payouts = payoutRoutes({
    state,
    now,
    ledger,
    emit: (type, object, request, previous, account) =>
      emit(type, object, request, previous, account),
  });
  routes.push(...money.routes, ...ledger.routes, ...disputes.routes, ...payouts.routes);

  /** Runs one of the API's own endpoints from inside the twin (the hosted pages). */
  function call(method: string, url: string, params: Params, event: RequestInfo['event']) {
    const route = routes.find(([verb, pattern]) => verb === method && pattern.test(url));
    if (route === undefined) throw new Error(`no twin route for ${method} ${url}`);
    return route[2](
      { method, path: url, params, account: undefined, event },
      url.match(route[1]) as RegExpMatchArray,
    ).body;
  }

  const checkout: CheckoutContext = {
    sessions: state.checkoutSessions,
    customers: state.customers,
    paymentMethods: state.paymentMethods,
    cards: state.cards,
    now,
    baseUrl: () => baseUrl,
    emit: (type, object, request) => emit(type, object, request),
    createSetupIntent: (params, event) =>
      call('POST', '/v1/setup_intents', params, event) as Stripe.SetupIntent,
    confirmSetupIntent: (id, paymentMethod, returnUrl) =>
      confirmSetup(id, paymentMethod, {
        method: 'POST',
        path: `/v1/setup_intents/${id}/confirm`,
        params: { return_url: returnUrl },
        account: undefined,
        event: { id: null, idempotency_key: null },
      }).body,
    setupIntent: (id) => state.setupIntents[id],
    createPaymentIntent: (params, event) =>
      call('POST', '/v1/payment_intents', params, event) as Stripe.PaymentIntent,
    confirmPaymentIntent: (id, params, event) => money.confirmIntent(id, params, event),
    paymentIntent: (id) => state.paymentIntents[id],
    cancelPaymentIntent: (id, event) => {
      money.cancelIntent(id, null, event);
    },
    cancelSetupIntent: (id, event) => {
      const setupIntent = state.setupIntents[id];
      if (!setupIntent || setupIntent.status === 'succeeded' || setupIntent.status === 'canceled')
        return;
      const canceled = {
        ...setupIntent,
        status: 'canceled',
        cancellation_reason: null,
        next_action: null,
      } as Stripe.SetupIntent;
      state.setupIntents[id] = canceled;
      emit('setup_intent.canceled', canceled, event);
    },
  };

  routes.push(
    [
      'POST',
      /^\/v1\/checkout\/sessions$/,
      ({ params, event }) => ({
        body: createCheckoutSession(checkout, state.checkoutExtras, params, event),
      }),
    ],
    [
      'GET',
      /^\/v1\/checkout\/sessions$/,
      ({ params }) => {
        expireDueSessions(checkout);
        const intent = str(params, 'payment_intent');
        const customer = str(params, 'customer');
        const status = str(params, 'status');
        const sessions = Object.values(state.checkoutSessions)
          .filter(
            (session) =>
              (intent === undefined || session.payment_intent === intent) &&
              (customer === undefined || session.customer === customer) &&
              (status === undefined || session.status === status),
          )
          .reverse()
          .map((session) => presentSession(session, params, 'data.'));
        return { body: list(sessions, '/v1/checkout/sessions', params) };
      },
    ],
    [
      'GET',
      /^\/v1\/checkout\/sessions\/(cs_test_\w+)$/,
      ({ params }, [, id]) => ({
        body: presentSession(currentSession(checkout, id as string), params),
      }),
    ],
    [
      'POST',
      /^\/v1\/checkout\/sessions\/(cs_test_\w+)\/expire$/,
      ({ event }, [, id]) => ({ body: expireSession(checkout, id as string, event) }),
    ],
  );

  /** A session as answered: `payment_intent` and `setup_intent` expanded when asked. */
  function presentSession(
    session: Stripe.Checkout.Session,
    params: Params,
    prefix = '',
  ): Stripe.Checkout.Session {
    const expand = expansions(params);
    let presented = session;
    if (expand.includes(`${prefix}payment_intent`) && typeof session.payment_intent === 'string') {
      const intent = state.paymentIntents[session.payment_intent];
      if (intent) presented = { ...presented, payment_intent: intent };
    }
    if (expand.includes(`${prefix}setup_intent`) && typeof session.setup_intent === 'string') {
      const setupIntent = state.setupIntents[session.setup_intent];
      if (setupIntent) presented = { ...presented, setup_intent: setupIntent };
    }
    return presented;
  }

  async function checkoutRoute(req: IncomingMessage, res: ServerResponse, url: URL) {
    const [, id, tail] = url.pathname.match(/^\/c\/pay\/(cs_test_\w+)(\/return)?$/) ?? [];
    let answer: PageAnswer;
    if (tail !== undefined) {
      answer = checkoutReturn(checkout, id as string);
    } else if (req.method === 'POST') {
      const form = await readForm(req);
      answer = checkoutPage(checkout, state.checkoutExtras, id as string, form);
    } else {
      answer = checkoutPage(
        checkout,
        state.checkoutExtras,
        id as string,
        null,
        url.searchParams.get('failed') === '1',
      );
    }
    save();
    if (answer.kind === 'redirect') redirect(res, answer.location);
    else html(res, answer.status, answer.title, answer.body);
  }

  /** The setup intent after the authentication page's answer (3155). */
  function authenticateSetup(id: string, approved: boolean): Stripe.SetupIntent {
    const setupIntent = state.setupIntents[id] as Stripe.SetupIntent;
    if (setupIntent.status !== 'requires_action') return setupIntent;
    const event = { id: null, idempotency_key: null };
    const method = state.paymentMethods[
      setupIntent.payment_method as string
    ] as Stripe.PaymentMethod;
    if (approved) {
      if (setupIntent.customer !== null) {
        attach(method, setupIntent.customer as string, { event } as RequestInfo);
      }
      const succeeded = {
        ...setupIntent,
        status: 'succeeded',
        next_action: null,
      } as Stripe.SetupIntent;
      state.setupIntents[id] = succeeded;
      emit('setup_intent.succeeded', succeeded, event);
      return succeeded;
    }
    const failed = {
      ...setupIntent,
      status: 'requires_payment_method',
      payment_method: null,
      next_action: null,
      last_setup_error: {
        type: 'invalid_request_error',
        code: 'setup_intent_authentication_failure',
        message:
          'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
      },
    } as unknown as Stripe.SetupIntent;
    state.setupIntents[id] = failed;
    emit('setup_intent.setup_failed', failed, event);
    return failed;
  }

  /** Stripe's 3D Secure test page: complete or fail the authentication an intent waits for. */
  async function authenticationPage(req: IncomingMessage, res: ServerResponse, id: string) {
    const setupIntent = state.setupIntents[id];
    const paymentIntent = state.paymentIntents[id];
    const intent = setupIntent ?? paymentIntent;
    if (!intent) {
      html(res, 404, 'Not found', '<h1>Nothing to authenticate</h1>');
      return;
    }
    const returnUrl = (intent.next_action?.redirect_to_url?.return_url ?? null) as string | null;
    if (req.method === 'GET') {
      if (intent.status !== 'requires_action') {
        html(
          res,
          200,
          'Authentication',
          '<h1>Nothing to authenticate</h1><p>This payment is no longer waiting for authentication.</p>',
        );
        return;
      }
      html(
        res,
        200,
        '3D Secure 2 test page (twin)',
        `<h1>3D Secure 2 test page</h1>
<p class="note">Local Stripe twin: the bank's authentication step of a test card.</p>
<div class="card"><dl><dt>${setupIntent ? 'Saving a card' : 'Payment'}</dt><dd>${escapeHtml(paymentIntent ? displayAmount(paymentIntent.amount, paymentIntent.currency) : 'for future payments')}</dd></dl></div>
<form method="post"><button class="primary" name="choice" value="complete">Complete authentication</button><button name="choice" value="fail">Fail authentication</button></form>`,
      );
      return;
    }
    const form = await readForm(req);
    const approved = str(form, 'choice') === 'complete';
    if (setupIntent) authenticateSetup(id, approved);
    else money.authenticate(id, approved);
    completeAuthenticated(checkout, id);
    save();
    if (returnUrl) {
      // As Stripe: the intent, its client secret, and how the redirect ended.
      const kind = setupIntent ? 'setup_intent' : 'payment_intent';
      const query = new URLSearchParams({
        [kind]: id,
        [`${kind}_client_secret`]: intent.client_secret ?? '',
        redirect_status: approved ? 'succeeded' : 'failed',
      });
      redirect(res, `${returnUrl}${returnUrl.includes('?') ? '&' : '?'}${query.toString()}`);
      return;
    }
    html(
      res,
      200,
      'Authentication',
      `<h1>Authentication ${approved ? 'completed' : 'failed'}</h1><p>You can close this window.</p>`,
    );
  }

  /** A charge's receipt (its `receipt_url`): what was paid, when, with which card, refunds. */
  function receiptPage(res: ServerResponse, id: string) {
    const charge = money.charge(id);
    if (charge === undefined || charge.status !== 'succeeded') {
      html(res, 404, 'Receipt not found', '<h1>Receipt not found</h1>');
      return;
    }
    const card = charge.payment_method_details?.card;
    const brand = card?.brand ?? 'card';
    const refunded =
      charge.amount_refunded === 0
        ? ''
        : `<dt>Refunded</dt><dd>${escapeHtml(displayAmount(charge.amount_refunded, charge.currency))}${charge.refunded ? ' (fully refunded)' : ''}</dd>`;
    html(
      res,
      200,
      'Receipt (Stripe twin)',
      `<h1>Receipt</h1>
<p class="note">Local Stripe twin: the receipt of a test payment.</p>
<div class="card"><dl><dt>Amount paid</dt><dd><b>${escapeHtml(displayAmount(charge.amount, charge.currency))}</b></dd><dt>Currency</dt><dd>${escapeHtml(charge.currency.toUpperCase())}</dd><dt>Date paid</dt><dd>${escapeHtml(new Date(charge.created * 1000).toISOString().slice(0, 10))}</dd><dt>Payment method</dt><dd>${escapeHtml(`${brand.charAt(0).toUpperCase()}${brand.slice(1)} – ${card?.last4 ?? '????'}`)}</dd>${refunded}<dt>Charge</dt><dd>${escapeHtml(charge.id)}</dd>${charge.description ? `<dt>Description</dt><dd>${escapeHtml(charge.description)}</dd>` : ''}</dl></div>`,
    );
  }

  function confirmSetup(id: string, reference: string, request: RequestInfo) {
    const setupIntent = state.setupIntents[id] as Stripe.SetupIntent;
    if (setupIntent.status === 'succeeded' || setupIntent.status === 'canceled') {
      throw invalid(
        'intent',
        `You cannot confirm this SetupIntent because it has a status of ${setupIntent.status}.`,
        'setup_intent_unexpected_state',
      );
    }
    const method = paymentMethodFrom(reference);
    const card = TEST_CARDS[state.cards[method.id] ?? ''];
    if (card?.behaviour === 'declined' || card?.behaviour === 'insufficient_funds') {
      const declineCode = card.behaviour === 'declined' ? 'generic_decline' : 'insufficient_funds';
      const failed = {
        ...setupIntent,
        payment_method: null,
        status: 'requires_payment_method',
        last_setup_error: {
          type: 'card_error',
          code: 'card_declined',
          decline_code: declineCode,
          message: 'Your card was declined.',
          payment_method: method,
        },
      } as unknown as Stripe.SetupIntent;
      state.setupIntents[id] = failed;
      emit('setup_intent.setup_failed', failed, request.event);
      throw new StripeError(402, {
        type: 'card_error',
        code: 'card_declined',
        decline_code: declineCode,
        message: 'Your card was declined.',
      });
    }
    if (card?.behaviour === 'authentication' || card?.behaviour === 'always_authenticate') {
      const waiting = {
        ...setupIntent,
        payment_method: method.id,
        status: 'requires_action',
        next_action: {
          type: 'redirect_to_url',
          redirect_to_url: {
            url: `${baseUrl}/authenticate/${id}`,
            return_url: str(request.params, 'return_url') ?? null,
          },
        },
      } as unknown as Stripe.SetupIntent;
      state.setupIntents[id] = waiting;
      emit('setup_intent.requires_action', waiting, request.event);
      return { body: waiting };
    }
    if (setupIntent.customer !== null) attach(method, setupIntent.customer as string, request);
    const succeeded = {
      ...setupIntent,
      payment_method: method.id,
      status: 'succeeded',
      last_setup_error: null,
      next_action: null,
    } as Stripe.SetupIntent;
    state.setupIntents[id] = succeeded;
    emit('setup_intent.succeeded', succeeded, request.event);
    return { body: succeeded };
  }

  /** An API answer, before it is written (a fault can hold or lose it). */
  interface Answer {
    status: number;
    text: string;
    headers: Record<string, string>;
  }

  function answer(
    status: number,
    body: unknown,
    requestId: string,
    extra: Record<string, string> = {},
  ): Answer {
    const text = JSON.stringify(body, null, 2);
    return {
      status,
      text,
      headers: {
        'content-type': 'application/json',
        'request-id': requestId,
        'stripe-version': TWIN_API_VERSION,
        'content-length': String(Buffer.byteLength(text)),
        ...extra,
      },
    };
  }

  function errorAnswer(error: StripeError, requestId: string, extra: Record<string, string> = {}) {
    return answer(
      error.status,
      { error: { ...error.body, request_log_url: `${baseUrl}/dev/requests/${requestId}` } },
      requestId,
      extra,
    );
  }

  function write(res: ServerResponse, reply: Answer) {
    if (res.destroyed || res.writableEnded) return;
    res.writeHead(reply.status, reply.headers);
    res.end(reply.text);
  }

  function send(res: ServerResponse, status: number, body: unknown, requestId: string) {
    write(res, answer(status, body, requestId));
  }

  /** The fault `fault` answers in Stripe's shape, instead of doing anything. */
  function faultAnswer(fault: Fault, requestId: string, idempotencyKey: string | undefined) {
    switch (fault.fault) {
      case 'rate_limit':
        return errorAnswer(
          new StripeError(429, {
            type: 'invalid_request_error',
            code: 'rate_limit',
            message:
              'Request rate limit exceeded. Learn more about rate limits here https://stripe.com/docs/rate-limits.',
            doc_url: 'https://stripe.com/docs/error-codes/rate-limit',
          }),
          requestId,
        );
      case 'idempotency_conflict':
        return errorAnswer(
          new StripeError(409, {
            type: 'idempotency_error',
            code: 'idempotency_key_in_use',
            message: `There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through): ${idempotencyKey ?? ''}. Please try again later.`,
            doc_url: 'https://stripe.com/docs/error-codes/idempotency-key-in-use',
          }),
          requestId,
        );
      default:
        return errorAnswer(
          new StripeError(500, { type: 'api_error', message: 'An unknown error occurred' }),
          requestId,
        );
    }
  }

  /** Answers held by a `timeout` fault, let go when the twin stops. */
  const heldAnswers = new Map<NodeJS.Timeout, ServerResponse>();

  async function api(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const requestId = stripeId('req', 14);
    const method = req.method ?? 'GET';
    const raw = (await readBody(req, MAX_BODY)) ?? Buffer.alloc(0);
    const fault = faults.take(
      method,
      url.pathname,
      haystackOf(`${url.pathname}${url.search}`, raw.toString('utf8')),
    );
    if (fault !== undefined) {
      log(`[stripe] fault ${fault.fault} (${fault.id}) on ${method} ${url.pathname}`);
    }
    if (fault?.fault === 'drop') {
      // Before anything is done: the client sees its connection reset.
      req.socket.destroy();
      return;
    }
    const idempotencyKey =
      typeof req.headers['idempotency-key'] === 'string'
        ? req.headers['idempotency-key']
        : undefined;
    const reply =
      fault?.fault === 'api_error' ||
      fault?.fault === 'rate_limit' ||
      fault?.fault === 'idempotency_conflict'
        ? faultAnswer(fault, requestId, idempotencyKey)
        : respond(req, url, raw, requestId, idempotencyKey);
    log(`[stripe] ${method} ${url.pathname} ${reply.status}`);
    if (fault?.fault === 'lost') {
      // Carried out (and saved under its key), then the answer never arrives.
      req.socket.destroy();
      return;
    }
    if (fault?.fault === 'timeout') {
      const timer = setTimeout(() => {
        heldAnswers.delete(timer);
        write(res, reply);
      }, fault.delayMs ?? 0);
      heldAnswers.set(timer, res);
      return;
    }
    write(res, reply);
  }

  /** What the API answers a request: authentication, idempotency, then the endpoint. */
  function respond(
    req: IncomingMessage,
    url: URL,
    raw: Buffer,
    requestId: string,
    idempotencyKey: string | undefined,
  ): Answer {
    const method = req.method ?? 'GET';
    // Bearer, as the SDK sends it, or Basic with the key as the user name (`curl -u sk_…:`).
    const authorization = req.headers.authorization ?? '';
    const key = authorization.startsWith('Bearer ')
      ? authorization.slice(7)
      : authorization.startsWith('Basic ')
        ? Buffer.from(authorization.slice(6), 'base64').toString('utf8').split(':')[0]
        : undefined;
    if (key === undefined || key === '') {
      return errorAnswer(
        new StripeError(401, {
          type: 'invalid_request_error',
          message:
            "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
        }),
        requestId,
      );
    }
    if (key !== secretKey) {
      return errorAnswer(
        new StripeError(401, {
          type: 'invalid_request_error',
          code: 'api_key_invalid',
          message: `Invalid API Key provided: ${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`,
        }),
        requestId,
      );
    }
    const params = {
      ...(qs.parse(url.search.slice(1)) as Params),
      ...(qs.parse(raw.toString('utf8')) as Params),
    };
    const account =
      typeof req.headers['stripe-account'] === 'string' ? req.headers['stripe-account'] : undefined;
    if (
      account !== undefined &&
      (!state.accounts[account] || state.deauthorized[account] !== undefined)
    ) {
      return errorAnswer(noAccess(account), requestId);
    }
    const fingerprint = createHash('sha256')
      .update(`${method} ${url.pathname} ${account ?? ''} ${raw.toString('utf8')}`)
      .digest('hex');
    const now_ = now().getTime();
    for (const [saved, record] of Object.entries(state.idempotency)) {
      if (now_ - record.at > IDEMPOTENCY_TTL_MS) Reflect.deleteProperty(state.idempotency, saved);
    }
    if (method === 'POST' && idempotencyKey !== undefined) {
      const saved = state.idempotency[idempotencyKey];
      if (saved !== undefined) {
        if (saved.fingerprint !== fingerprint) {
          return errorAnswer(
            new StripeError(400, {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
            }),
            requestId,
          );
        }
        return {
          status: saved.status,
          text: saved.body,
          headers: {
            'content-type': 'application/json',
            'request-id': requestId,
            'stripe-version': TWIN_API_VERSION,
            'content-length': String(Buffer.byteLength(saved.body)),
            'idempotent-replayed': 'true',
            'original-request': saved.body.match(/"id": "(req_\w+)"/)?.[1] ?? requestId,
          },
        };
      }
    }
    const route = routes.find(([verb, pattern]) => verb === method && pattern.test(url.pathname));
    let status: number;
    let body: unknown;
    if (route === undefined) {
      errorLog(`[stripe] NOT EMULATED: ${method} ${url.pathname} — the twin answers Stripe's 404`);
      status = 404;
      body = {
        error: {
          type: 'invalid_request_error',
          message: `Unrecognized request URL (${method}: ${url.pathname}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
        },
      };
    } else {
      try {
        const result = route[2](
          {
            method,
            path: url.pathname,
            params,
            account,
            event: {
              id: method === 'POST' ? requestId : null,
              idempotency_key: idempotencyKey ?? null,
            },
          },
          url.pathname.match(route[1]) as RegExpMatchArray,
        );
        status = result.status ?? 200;
        body = result.body;
      } catch (error) {
        if (!(error instanceof StripeError)) throw error;
        status = error.status;
        body = {
          error: { ...error.body, request_log_url: `${baseUrl}/dev/requests/${requestId}` },
        };
      }
    }
    const reply = answer(
      status,
      body,
      requestId,
      idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey },
    );
    // Stripe keeps the answer of a key for 24 h, errors from our side included (not 5xx).
    if (method === 'POST' && idempotencyKey !== undefined && status < 500) {
      state.idempotency[idempotencyKey] = { fingerprint, status, body: reply.text, at: now_ };
    }
    if (method !== 'GET' || changed) save();
    return reply;
  }

  function html(res: ServerResponse, status: number, title: string, body: string) {
    const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:0;background:#f6f9fc;color:#1a1f36}main{max-width:440px;margin:0 auto;padding:32px 20px}h1{font-size:22px}.card{background:#fff;border-radius:8px;padding:20px;box-shadow:0 1px 3px rgba(0,0,0,.12);margin:16px 0}button{display:block;width:100%;margin:10px 0;padding:12px;font-size:16px;border-radius:6px;border:1px solid #635bff;background:#fff;color:#635bff;cursor:pointer}button.primary{background:#635bff;color:#fff}label{display:block;font-size:14px;margin:12px 0 4px}input{width:100%;box-sizing:border-box;padding:10px;font-size:16px;border:1px solid #c4c9d4;border-radius:6px}.error{color:#df1b41}dt{color:#697386;font-size:13px}dd{margin:0 0 10px}.note{color:#697386;font-size:13px}</style></head><body><main>${body}</main></body></html>`;
    res.writeHead(status, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-length': Buffer.byteLength(page),
    });
    res.end(page);
  }

  function redirect(res: ServerResponse, location: string) {
    res.writeHead(303, { location, 'cache-control': 'no-store' });
    res.end();
  }

  /** The hosted Connect onboarding page an account link opens (single use, 5 minutes). */
  async function onboardingPage(
    req: IncomingMessage,
    res: ServerResponse,
    account: string,
    token: string,
  ) {
    const link = state.links[token];
    if (!link || link.account !== account) {
      html(
        res,
        404,
        'Link not found',
        '<h1>This link is not valid</h1><p>Ask the platform for a new one.</p>',
      );
      return;
    }
    if (req.method === 'GET') {
      if (link.used || now().getTime() > link.expiresAt) {
        // Stripe sends an expired or reused link to the platform's refresh URL.
        redirect(res, link.refreshUrl);
        return;
      }
      const stored = state.accounts[account];
      html(
        res,
        200,
        'Stripe Express onboarding (twin)',
        `<h1>Set up payouts</h1>
<p class="note">Local Stripe twin: Connect Express onboarding with Stripe's test data.</p>
<div class="card"><dl><dt>Account</dt><dd>${escapeHtml(account)}</dd><dt>Country</dt><dd>${escapeHtml(stored?.country ?? '')}</dd><dt>E-mail</dt><dd>${escapeHtml(stored?.email ?? 'test@example.com')}</dd><dt>Date of birth</dt><dd>1901-01-01 (test)</dd><dt>Bank account</dt><dd>000123456789 (test)</dd></dl></div>
<form method="post"><button class="primary" name="choice" value="complete">Submit: verified</button><button name="choice" value="documents_due">Submit, leaving an identity document due</button><button name="choice" value="pending_verification">Submit: verification pending</button><button name="choice" value="leave">Leave without submitting</button></form>`,
      );
      return;
    }
    if (req.method !== 'POST') {
      html(res, 405, 'Method not allowed', '<h1>Method not allowed</h1>');
      return;
    }
    const form = await readForm(req);
    const choice = str(form, 'choice');
    if (link.used || now().getTime() > link.expiresAt) {
      redirect(res, link.refreshUrl);
      return;
    }
    link.used = true;
    const current = state.accounts[account];
    if (
      current &&
      (choice === 'complete' || choice === 'documents_due' || choice === 'pending_verification')
    ) {
      const next = onboarded(current, choice, now());
      state.accounts[account] = next;
      state.onboarding[account] = choice;
      emit(
        'account.updated',
        next,
        { id: null, idempotency_key: null },
        {
          charges_enabled: current.charges_enabled,
          details_submitted: current.details_submitted,
          payouts_enabled: current.payouts_enabled,
          requirements: current.requirements,
        },
        account,
      );
    }
    save();
    redirect(res, link.returnUrl);
  }

  const faults = new FaultTable();
  const NO_REQUEST = { id: null, idempotency_key: null };

  /** Tests: an event of `type` about the object `id`, as the twin holds it now. */
  function emitAbout(type: string, id: string): Stripe.Event {
    if (!/^[a-z_]+(\.[a-z_]+)+$/.test(type)) {
      throw invalid('type', `Invalid event type: ${type}`, 'parameter_invalid_string');
    }
    const prefix = id.slice(0, id.indexOf('_'));
    const lookups: Record<string, () => { object?: { id?: string }; account?: string }> = {
      cs: () => ({ object: state.checkoutSessions[id] }),
      pi: () => ({ object: state.paymentIntents[id] }),
      ch: () => ({ object: money.charge(id) }),
      re: () => ({ object: state.refunds[id] }),
      tr: () => ({ object: state.transfers[id] }),
      du: () => ({ object: state.disputes[id] }),
      dp: () => ({ object: state.disputes[id] }),
      po: () => ({ object: state.payouts[id]?.payout, account: state.payouts[id]?.account }),
      acct: () => ({ object: state.accounts[id], account: id }),
      cus: () => ({ object: state.customers[id] }),
      pm: () => ({ object: state.paymentMethods[id] }),
      seti: () => ({ object: state.setupIntents[id] }),
    };
    const found_ = lookups[id.startsWith('cs_test_') ? 'cs' : prefix]?.();
    if (found_?.object === undefined) throw missing('object', id, 'object');
    return emit(type, found_.object, NO_REQUEST, undefined, found_.account);
  }

  function deauthorize(account: string): Stripe.Event {
    if (!state.accounts[account]) throw missing('account', account, 'account');
    if (state.deauthorized[account] !== undefined) {
      throw new StripeError(400, {
        type: 'invalid_request_error',
        message: `Account ${account} has already deauthorized the platform.`,
      });
    }
    const event = emit(
      'account.application.deauthorized',
      { ...TWIN_APPLICATION },
      NO_REQUEST,
      undefined,
      account,
    );
    state.deauthorized[account] = Math.floor(now().getTime() / 1000);
    return event;
  }

  function payOut(account: string, fail?: boolean | string): Stripe.Payout[] {
    if (state.deauthorized[account] !== undefined) throw noAccess(account);
    const failureCode =
      fail === undefined || fail === false || fail === '' || fail === '0' || fail === 'false'
        ? undefined
        : fail === true || fail === '1' || fail === 'true'
          ? 'account_closed'
          : fail;
    return payouts.payOut(account, failureCode);
  }

  /** A control's input: its query, and its JSON or form body. */
  async function controlInput(req: IncomingMessage, url: URL): Promise<Params> {
    const raw = ((await readBody(req, MAX_BODY)) ?? Buffer.alloc(0)).toString('utf8');
    const query = Object.fromEntries(url.searchParams.entries());
    if (raw.trim() === '') return query;
    if ((req.headers['content-type'] ?? '').includes('json') || raw.trim().startsWith('{')) {
      const parsed = JSON.parse(raw) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        throw new StripeError(400, {
          type: 'invalid_request_error',
          message: 'The body must be a JSON object.',
        });
      }
      return { ...query, ...(parsed as Params) };
    }
    return { ...query, ...(qs.parse(raw) as Params) };
  }

  /**
   * The tests' failure controls, over HTTP (README, "Failures the twin can play"): faults on the
   * API, disputes, payouts, deauthorization, events of any type. Refusals answer Stripe's error
   * shape with its status.
   */
  async function failureControl(req: IncomingMessage, res: ServerResponse, url: URL) {
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body, null, 2));
    };
    const method = req.method ?? 'GET';
    const path = url.pathname;
    try {
      const input = await controlInput(req, url);
      const text = (name: string) => (typeof input[name] === 'string' ? input[name] : undefined);
      let result: unknown;
      const dispute = path.match(/^\/dev\/disputes\/((?:du|dp)_\w+)\/close$/);
      const accountControl = path.match(/^\/dev\/accounts\/(acct_\w+)\/(payout|deauthorize)$/);
      if (path === '/dev/faults' && method === 'POST') {
        const spec = parseFaultSpec(input);
        if (typeof spec === 'string') throw invalid('fault', spec, 'parameter_invalid_string');
        result = faults.add(spec, now());
      } else if (path === '/dev/faults' && method === 'GET') {
        result = { faults: faults.list() };
      } else if (path === '/dev/faults' && method === 'DELETE') {
        result = { cleared: faults.clear(text('match')) };
      } else if (path === '/dev/disputes' && method === 'POST') {
        const amount = input.amount === undefined ? undefined : Number(input.amount);
        result = disputes.open({
          ...(text('payment_intent') === undefined
            ? {}
            : { payment_intent: text('payment_intent') }),
          ...(text('charge') === undefined ? {} : { charge: text('charge') }),
          ...(text('reason') === undefined ? {} : { reason: text('reason') }),
          ...(amount === undefined ? {} : { amount }),
        });
      } else if (dispute && method === 'POST') {
        const outcome = text('outcome');
        if (outcome !== 'won' && outcome !== 'lost') {
          throw invalid('outcome', 'outcome must be won or lost', 'parameter_invalid_string');
        }
        result = disputes.close(dispute[1] as string, outcome);
      } else if (accountControl?.[2] === 'payout' && method === 'POST') {
        result = { payouts: payOut(accountControl[1] as string, text('fail')) };
      } else if (accountControl?.[2] === 'deauthorize' && method === 'POST') {
        result = deauthorize(accountControl[1] as string);
      } else if (path === '/dev/events' && method === 'POST') {
        const type = text('type');
        const object = text('object');
        if (type === undefined || object === undefined) {
          throw invalid('type', 'Give the event `type` and the `object` id.', 'parameter_missing');
        }
        result = emitAbout(type, object);
      } else {
        errorLog(`[stripe] NOT EMULATED: ${method} ${path}`);
        return json(404, { error: { type: 'invalid_request_error', message: 'unknown control' } });
      }
      if (method !== 'GET') save();
      return json(200, result);
    } catch (error) {
      if (error instanceof SyntaxError) {
        return json(400, { error: { type: 'invalid_request_error', message: error.message } });
      }
      if (!(error instanceof StripeError)) throw error;
      return json(error.status, { error: error.body });
    }
  }

  /**
   * The tests' control of webhook deliveries, over HTTP (the twin runs in another process than the
   * test files): hold the events containing `match`, release them `copies` times in `order`, list
   * the deliveries.
   */
  function webhookControl(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const match = url.searchParams.get('match') ?? undefined;
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'POST' && url.pathname === '/dev/webhooks/hold') {
      webhooks.hold(match);
      return json(200, { holding: match ?? 'all' });
    }
    if (req.method === 'POST' && url.pathname === '/dev/webhooks/release') {
      const order = url.searchParams.get('order');
      const copies = Number(url.searchParams.get('copies') ?? '1');
      const released = webhooks.release(
        {
          copies: Number.isInteger(copies) && copies > 0 ? copies : 1,
          ...(order === 'reversed' || order === 'shuffled' || order === 'sent' ? { order } : {}),
        },
        match,
      );
      return json(200, { released });
    }
    if (req.method === 'POST' && url.pathname === '/dev/webhooks/drop') {
      const dropped = webhooks.drop(match);
      return json(200, { dropped });
    }
    if (req.method === 'GET' && url.pathname === '/dev/webhooks/deliveries') {
      return json(200, { deliveries: webhooks.deliveries });
    }
    errorLog(`[stripe] NOT EMULATED: ${req.method ?? '?'} ${url.pathname}`);
    return json(404, { error: 'unknown control' });
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://twin');
    const run = async () => {
      if (url.pathname.startsWith('/v1/')) return api(req, res, url);
      const onboarding = url.pathname.match(/^\/setup\/s\/(acct_\w+)\/([\w-]+)$/);
      if (onboarding)
        return onboardingPage(req, res, onboarding[1] as string, onboarding[2] as string);
      if (/^\/c\/pay\/cs_test_\w+(\/return)?$/.test(url.pathname))
        return checkoutRoute(req, res, url);
      const receipt = url.pathname.match(/^\/receipts\/(ch_\w+)$/);
      if (receipt) return receiptPage(res, receipt[1] as string);
      const authentication = url.pathname.match(/^\/authenticate\/((?:seti|pi)_\w+)$/);
      if (authentication) return authenticationPage(req, res, authentication[1] as string);
      if (url.pathname.startsWith('/dev/webhooks/')) return webhookControl(req, res, url);
      if (
        url.pathname === '/dev/faults' ||
        url.pathname === '/dev/events' ||
        url.pathname.startsWith('/dev/disputes') ||
        url.pathname.startsWith('/dev/accounts/')
      ) {
        return failureControl(req, res, url);
      }
      const express = url.pathname.match(/^\/express\/(acct_\w+)\/[\w-]+$/);
      if (express) {
        const account = state.accounts[express[1] as string];
        if (!account) return html(res, 404, 'Not found', '<h1>Account not found</h1>');
        return html(
          res,
          200,
          'Stripe Express dashboard (twin)',
          `<h1>Express dashboard</h1><p class="note">Local Stripe twin.</p><div class="card"><dl><dt>Account</dt><dd>${escapeHtml(account.id)}</dd><dt>Payouts</dt><dd>${account.payouts_enabled ? 'enabled' : 'not enabled'}</dd><dt>Payments</dt><dd>${account.charges_enabled ? 'enabled' : 'not enabled'}</dd></dl></div>`,
        );
      }
      errorLog(`[stripe] NOT EMULATED: ${req.method ?? '?'} ${url.pathname}`);
      return html(res, 404, 'Not found', '<h1>Not found</h1>');
    };
    run().catch((error: unknown) => {
      errorLog(
        `[stripe] failure on ${url.pathname}: ${error instanceof Error ? error.stack : String(error)}`,
      );
      if (!res.headersSent)
        send(
          res,
          500,
          { error: { type: 'api_error', message: 'An unknown error occurred' } },
          stripeId('req', 14),
        );
      else res.destroy();
    });
  });

  const port = await listen(server, options.port ?? 0);
  baseUrl = `http://127.0.0.1:${port}`;
  // Open Checkout Sessions expire on their own at `expires_at` (`checkout.session.expired`), read or not.
  const sweep = setInterval(() => {
    expireDueSessions(checkout);
    if (changed) save();
  }, options.expirySweepMs ?? 5_000);
  sweep.unref();
  log(`[stripe] twin on ${baseUrl}`);
  return {
    url: baseUrl,
    port,
    secretKey,
    sdkConfig: { host: '127.0.0.1', port, protocol: 'http' },
    state: () => state,
    setWebhookEndpoint: (endpoint) => webhooks.setEndpoint(endpoint),
    deliveries: () => webhooks.deliveries,
    holdWebhooks: (match) => webhooks.hold(match),
    releaseWebhooks: (release, match) => webhooks.release(release, match),
    webhooksSettled: () => webhooks.settled(),
    dropWebhooks: (match) => webhooks.drop(match),
    injectFault: (spec) => {
      const checked = parseFaultSpec(spec as unknown as Params);
      if (typeof checked === 'string') throw new Error(checked);
      return faults.add(checked, now());
    },
    clearFaults: (match) => faults.clear(match),
    faults: () => faults.list(),
    openDispute: (input) => {
      const opened = disputes.open(input);
      save();
      return opened;
    },
    closeDispute: (id, outcome) => {
      const closed = disputes.close(id, outcome);
      save();
      return closed;
    },
    payOutAccount: (account, payoutOptions) => {
      const made = payOut(account, payoutOptions?.fail);
      save();
      return made;
    },
    deauthorize: (account) => {
      const event = deauthorize(account);
      save();
      return event;
    },
    emitEvent: (type, objectId) => {
      const event = emitAbout(type, objectId);
      save();
      return event;
    },
    resumeWebhooks: () => {
      let resumed = 0;
      for (const event of state.events) {
        const attempts = state.undelivered[event.id];
        if (attempts === undefined) continue;
        webhooks.resume(event, attempts);
        resumed += 1;
      }
      return resumed;
    },
    stop: async () => {
      clearInterval(sweep);
      webhooks.stop();
      for (const [timer, res] of heldAnswers) {
        clearTimeout(timer);
        res.destroy();
      }
      heldAnswers.clear();
      if (saveTimer !== undefined) {
        clearTimeout(saveTimer);
        saveTimer = undefined;
        save();
      }
      await closeServer(server);
    },
  };
}
