/** Stripe's request parameters, errors and lists, shared by the twin's endpoint modules. */
import type Stripe from 'stripe';

export class StripeError extends Error {
  constructor(
    readonly status: number,
    readonly body: {
      type: 'invalid_request_error' | 'card_error' | 'idempotency_error' | 'api_error';
      message: string;
      code?: string;
      decline_code?: string;
      param?: string;
      /** Card errors: the failed charge, and the intent and payment method of the attempt. */
      charge?: string;
      payment_intent?: unknown;
      payment_method?: unknown;
      payment_method_type?: string;
      doc_url?: string;
    },
  ) {
    super(body.message);
  }
}

export const missing = (kind: string, id: string, param = 'id') =>
  new StripeError(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    message: `No such ${kind}: '${id}'`,
    param,
  });

/** `value`, or Stripe's 404 `resource_missing` for the `kind` named `id`. */
export function found<T>(value: T | undefined, kind: string, id: string, param = 'id'): T {
  if (value === undefined) throw missing(kind, id, param);
  return value;
}

export const invalid = (param: string, message: string, code = 'parameter_invalid_empty') =>
  new StripeError(400, { type: 'invalid_request_error', code, message, param });

export type Params = Record<string, unknown>;

export function str(params: Params, name: string): string | undefined {
  const value = params[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function required(params: Params, name: string): string {
  const value = str(params, name);
  if (value === undefined) {
    throw new StripeError(400, {
      type: 'invalid_request_error',
      code: 'parameter_missing',
      message: `Missing required param: ${name}.`,
      param: name,
    });
  }
  return value;
}

export function metadata(params: Params): Record<string, string> {
  const value = params.metadata;
  if (value === undefined || value === '') return {};
  if (typeof value !== 'object' || value === null) throw invalid('metadata', 'Invalid metadata');
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([key, entry]) => [key, String(entry)]),
  );
}

/** The `expand[]` of a request (`expand[0]=latest_charge` or `expand=latest_charge`). */
export function expansions(params: Params): string[] {
  const value = params.expand;
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === 'string' && value !== '') return [value];
  if (typeof value === 'object' && value !== null) return Object.values(value).map(String);
  return [];
}

export function list<T>(items: T[], url: string, params: Params): Stripe.ApiList<T> {
  const limit = Math.min(100, Math.max(1, Number(str(params, 'limit') ?? 10)));
  const after = str(params, 'starting_after');
  let start = 0;
  if (after !== undefined) {
    start = items.findIndex((item) => (item as { id?: string }).id === after) + 1;
  }
  const data = items.slice(start, start + limit);
  return { object: 'list', data, has_more: start + limit < items.length, url };
}
