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

/** A list request's `limit`: 1 to 100 (default 10), as Stripe validates it. */
export function limitOf(params: Params): number {
  const raw = str(params, 'limit');
  if (raw === undefined) return 10;
  const limit = Number(raw);
  if (!Number.isInteger(limit)) {
    throw invalid('limit', `Invalid integer: ${raw}`, 'parameter_invalid_integer');
  }
  if (limit < 1) {
    throw invalid(
      'limit',
      'This value must be greater than or equal to 1.',
      'parameter_invalid_integer',
    );
  }
  if (limit > 100) {
    throw invalid(
      'limit',
      'This value must be less than or equal to 100.',
      'parameter_invalid_integer',
    );
  }
  return limit;
}

/**
 * A page of `items` (already newest first, as Stripe lists): `limit` items after the object
 * `starting_after`, or the `limit` items just before `ending_before` (still newest first);
 * `has_more` says whether more lie in that direction.
 */
export function list<T>(items: T[], url: string, params: Params): Stripe.ApiList<T> {
  const limit = limitOf(params);
  const indexOf = (id: string) => items.findIndex((item) => (item as { id?: string }).id === id);
  const before = str(params, 'ending_before');
  if (before !== undefined) {
    const end = indexOf(before);
    const stop = end === -1 ? 0 : end;
    const start = Math.max(0, stop - limit);
    return { object: 'list', data: items.slice(start, stop), has_more: start > 0, url };
  }
  const after = str(params, 'starting_after');
  const start = after === undefined ? 0 : indexOf(after) + 1;
  const data = items.slice(start, start + limit);
  return { object: 'list', data, has_more: start + limit < items.length, url };
}

/**
 * Stripe's `created` filter: `created=<unix>` or `created[gte|gt|lte|lt]=<unix>`; answers whether
 * a `created` timestamp passes it.
 */
export function createdFilter(params: Params, name = 'created'): (created: number) => boolean {
  const value = params[name];
  if (value === undefined || value === '') return () => true;
  const bound = (raw: unknown, param: string): number => {
    const number = Number(raw);
    if (typeof raw !== 'string' || !Number.isInteger(number)) {
      throw invalid(param, `Invalid integer: ${String(raw)}`, 'parameter_invalid_integer');
    }
    return number;
  };
  if (typeof value === 'string') {
    const exact = bound(value, name);
    return (created) => created === exact;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid(name, `Invalid ${name}`, 'parameter_invalid_integer');
  }
  const range = value as Record<string, unknown>;
  const tests: ((created: number) => boolean)[] = [];
  for (const [operator, raw] of Object.entries(range)) {
    const limit = bound(raw, `${name}[${operator}]`);
    if (operator === 'gte') tests.push((created) => created >= limit);
    else if (operator === 'gt') tests.push((created) => created > limit);
    else if (operator === 'lte') tests.push((created) => created <= limit);
    else if (operator === 'lt') tests.push((created) => created < limit);
    else {
      throw new StripeError(400, {
        type: 'invalid_request_error',
        code: 'parameter_unknown',
        message: `Received unknown parameter: ${name}[${operator}]`,
        param: `${name}[${operator}]`,
      });
    }
  }
  return (created) => tests.every((test) => test(created));
}

/** What the twin's endpoint modules are given of a request. */
export interface RequestRef {
  id: string | null;
  idempotency_key: string | null;
}

export interface ApiRequest {
  params: Params;
  /** The `Stripe-Account` header: a connected account the platform acts as. */
  account: string | undefined;
  event: RequestRef;
}

export type ApiRoute = [
  string,
  RegExp,
  (request: ApiRequest, match: RegExpMatchArray) => { status?: number; body: unknown },
];
