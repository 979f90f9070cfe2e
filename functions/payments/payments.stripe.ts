import { getSecret } from '@aws-lambda-powertools/parameters/secrets';
import Stripe from 'stripe';
import { DomainError } from '../core/errors';
import { logger } from '../core/logger';
import { STRIPE_ENV } from '../core/env';
import type { ErrorCode } from '../../shared/errors/registry';

/**
 * The payments domain's Stripe adapter: the official SDK, configured from the environment only
 * (DESIGN §3: a handler never knows where it runs).
 * - In AWS the function has STRIPE_SECRET_NAME: the Secrets Manager secret
 *   `{"secretKey":"sk_…","webhookSecret":"whsec_…"}` is read once per container (Powertools
 *   parameters, cached for the container's life; a failed read is retried on the next call), and
 *   the SDK talks to api.stripe.com.
 * - On the twin the keys and the Stripe twin's host, port and protocol are in the environment.
 */
export interface StripeKeys {
  secretKey: string;
  /** The signing secret of the platform's webhook endpoint. */
  webhookSecret: string;
  /**
   * The signing secret of the Connect endpoint (events of connected accounts, such as
   * `account.updated`), when it is a separate endpoint on the same URL (docs/operations.md).
   */
  connectWebhookSecret?: string;
}

/** A container lives for hours at most; the secret is read again only in a new container. */
const SECRET_MAX_AGE_S = 24 * 3600;

let secretRead: { name: string; keys: Promise<StripeKeys> } | undefined;

function fromSecret(name: string): Promise<StripeKeys> {
  if (secretRead?.name === name) return secretRead.keys;
  const keys = (async () => {
    const value = (await getSecret(name, { transform: 'json', maxAge: SECRET_MAX_AGE_S })) as
      Partial<StripeKeys> | undefined;
    if (typeof value?.secretKey !== 'string' || typeof value.webhookSecret !== 'string') {
      throw new Error(`secret ${name} lacks secretKey or webhookSecret`);
    }
    return {
      secretKey: value.secretKey,
      webhookSecret: value.webhookSecret,
      ...(typeof value.connectWebhookSecret === 'string'
        ? { connectWebhookSecret: value.connectWebhookSecret }
        : {}),
    };
  })();
  secretRead = { name, keys };
  keys.catch(() => {
    if (secretRead?.keys === keys) secretRead = undefined;
  });
  return keys;
}

/** The Stripe keys of this deployment. */
export function stripeKeys(env: NodeJS.ProcessEnv = process.env): Promise<StripeKeys> {
  const secretKey = env[STRIPE_ENV.secretKey];
  const webhookSecret = env[STRIPE_ENV.webhookSecret];
  if (secretKey !== undefined && secretKey !== '' && webhookSecret !== undefined) {
    return Promise.resolve({ secretKey, webhookSecret });
  }
  const name = env[STRIPE_ENV.secretName];
  if (name === undefined || name === '') {
    return Promise.reject(
      new Error(`no Stripe configuration: set ${STRIPE_ENV.secretName} (or the twin's keys)`),
    );
  }
  return fromSecret(name);
}

let client: { key: string; endpoint: string; stripe: Stripe } | undefined;

/** The SDK client, one per container (and per key: the twin may be restarted between tests). */
export async function stripeClient(env: NodeJS.ProcessEnv = process.env): Promise<Stripe> {
  const { secretKey } = await stripeKeys(env);
  const host = env[STRIPE_ENV.host];
  const port = env[STRIPE_ENV.port];
  const protocol = env[STRIPE_ENV.protocol];
  const endpoint = `${protocol ?? ''}://${host ?? ''}:${port ?? ''}`;
  if (client?.key === secretKey && client.endpoint === endpoint) return client.stripe;
  const stripe = new Stripe(secretKey, {
    ...(host === undefined || host === '' ? {} : { host }),
    ...(port === undefined || port === '' ? {} : { port: Number(port) }),
    ...(protocol === 'http' || protocol === 'https' ? { protocol } : {}),
    // The SDK retries network failures and 409/429/5xx with the same Idempotency-Key.
    maxNetworkRetries: 2,
    timeout: 8_000,
    appInfo: { name: 'market' },
  });
  client = { key: secretKey, endpoint, stripe };
  return stripe;
}

export function isStripeError(error: unknown): error is Stripe.errors.StripeError {
  return error instanceof Stripe.errors.StripeError;
}

/**
 * A failure of the provider, not of the request or the card: Stripe unreachable, a timeout, a 5xx,
 * a 429 (rate limit, lock contention), an idempotency conflict with a request still running.
 * Retrying later is the answer: a call answers 503 with its code (the user tries again), a
 * workflow task or a trigger throws it so its retry applies, the webhook answers 5xx so Stripe
 * delivers again. Never recorded as a card's refusal.
 */
export class ProviderUnavailable extends DomainError {
  override name = 'ProviderUnavailable';
}

/** Whether a Stripe error is the provider's failure (retry later), not a refusal. */
export function isProviderFailure(error: unknown): boolean {
  if (!isStripeError(error)) return false;
  if (
    error instanceof Stripe.errors.StripeConnectionError ||
    error instanceof Stripe.errors.StripeAPIError ||
    error instanceof Stripe.errors.StripeRateLimitError ||
    error instanceof Stripe.errors.StripeAuthenticationError ||
    error instanceof Stripe.errors.StripePermissionError
  ) {
    return true;
  }
  const status = error.statusCode ?? 0;
  // A connected account that disconnected: for good, not an outage (isAccountGone).
  if (status === 403 && error.code === 'account_invalid') return false;
  // 409: another request with the same idempotency key is still running; lock_timeout: the object
  // is busy with a concurrent request (both clear by themselves).
  return status >= 500 || status === 429 || status === 409 || error.code === 'lock_timeout';
}

/**
 * Runs a Stripe call; a Stripe failure becomes `code`, logged with Stripe's request id, so no
 * internal detail reaches the caller: a provider's failure as ProviderUnavailable (retry later), a
 * refused request as a DomainError. A DomainError passes through. A card's refusal is a domain
 * outcome its caller reads before this (chargeSavedCard, confirmOrderIntent).
 */
export async function viaStripe<T>(code: ErrorCode, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw stripeFailure(code, error);
  }
}

/** The DomainError a failed Stripe call becomes (see viaStripe); anything else as it is. */
export function stripeFailure(code: ErrorCode, error: unknown): unknown {
  if (error instanceof DomainError || !isStripeError(error)) return error;
  const provider = isProviderFailure(error);
  logger.error(provider ? 'stripe unavailable' : 'stripe refused a request', {
    stripeType: error.type,
    stripeCode: error.code,
    stripeParam: error.param,
    stripeRequestId: error.requestId,
    statusCode: error.statusCode,
    stripeMessage: error.message,
  });
  const message = 'The card payment provider could not complete the request. Please try again.';
  return provider
    ? new ProviderUnavailable(code, { message, cause: error })
    : new DomainError(code, { message, cause: error });
}

/**
 * Whether Stripe answered that a connected account is no longer ours to use: it does not exist, or
 * it disconnected from the platform (403 `account_invalid`), for good either way.
 */
export function isAccountGone(error: unknown): boolean {
  return (
    isMissing(error) ||
    (isStripeError(error) && error.statusCode === 403 && error.code === 'account_invalid')
  );
}

/** Whether Stripe answered that the object does not exist (404 resource_missing). */
export function isMissing(error: unknown): boolean {
  return isStripeError(error) && error.code === 'resource_missing';
}
