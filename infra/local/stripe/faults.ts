/**
 * Faults a test can make the twin play on its API (`/v1/*` only), so the product's failure paths
 * can be tested through the official SDK: Stripe's 500 and 429, a concurrent request with the same
 * idempotency key (409), a connection dropped before anything is done, an answer lost after the
 * request was carried out, an answer that comes too late. Each fault is scoped like a webhook
 * hold: a method, a path pattern (`*` for one id segment) and `match`, a text the request must
 * contain, so tests running side by side do not trip each other's faults.
 */
import { stripeId } from './objects';

export const FAULT_KINDS = [
  'api_error',
  'rate_limit',
  'idempotency_conflict',
  'drop',
  'lost',
  'timeout',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** How long a `timeout` fault holds the answer unless told (the SDK's default timeout is 80 s). */
export const DEFAULT_TIMEOUT_DELAY_MS = 30_000;

export interface FaultSpec {
  method?: 'GET' | 'POST' | 'DELETE';
  /** The API path, `*` standing for one id segment (`/v1/transfers/*\/reversals`). */
  path?: string;
  /** A text that must occur in the request's path, query or form body (an order or object id). */
  match?: string;
  fault: FaultKind;
  /** How many matching requests it trips (default 1). */
  times?: number;
  /** `timeout`: how long the answer is held (default 30 s). */
  delayMs?: number;
}

export interface Fault {
  id: string;
  method: string | null;
  path: string | null;
  match: string | null;
  fault: FaultKind;
  times: number;
  /** Matching requests it will still trip. */
  left: number;
  delayMs: number | null;
  created: string;
}

/** A spec from a test (JSON or query strings) checked, or the reason it is refused. */
export function parseFaultSpec(input: Record<string, unknown>): FaultSpec | string {
  const text = (name: string): string | undefined => {
    const value = input[name];
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  const number = (name: string): number | undefined | null => {
    const value = input[name];
    if (value === undefined || value === '') return undefined;
    const parsed = typeof value === 'number' ? value : Number(value);
    return Number.isInteger(parsed) && parsed >= 0 ? parsed : null;
  };
  const fault = text('fault');
  if (fault === undefined || !(FAULT_KINDS as readonly string[]).includes(fault)) {
    return `fault must be one of ${FAULT_KINDS.join(', ')}`;
  }
  const method = text('method')?.toUpperCase();
  if (method !== undefined && method !== 'GET' && method !== 'POST' && method !== 'DELETE') {
    return 'method must be GET, POST or DELETE';
  }
  const path = text('path');
  if (path !== undefined && !path.startsWith('/v1/')) return 'path must start with /v1/';
  const times = number('times');
  if (times === null || times === 0) return 'times must be a positive integer';
  const delayMs = number('delayMs');
  if (delayMs === null) return 'delayMs must be a non-negative integer';
  const match = text('match');
  return {
    fault: fault as FaultKind,
    ...(method === undefined ? {} : { method: method as FaultSpec['method'] & string }),
    ...(path === undefined ? {} : { path }),
    ...(match === undefined ? {} : { match }),
    ...(times === undefined ? {} : { times }),
    ...(delayMs === undefined ? {} : { delayMs }),
  };
}

const patternOf = (path: string) =>
  new RegExp(
    `^${path
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/]+')}$`,
  );

export class FaultTable {
  private readonly faults: Fault[] = [];

  add(spec: FaultSpec, now: Date): Fault {
    const times = spec.times ?? 1;
    const fault: Fault = {
      id: stripeId('fault', 12),
      method: spec.method ?? null,
      path: spec.path ?? null,
      match: spec.match ?? null,
      fault: spec.fault,
      times,
      left: times,
      delayMs: spec.fault === 'timeout' ? (spec.delayMs ?? DEFAULT_TIMEOUT_DELAY_MS) : null,
      created: now.toISOString(),
    };
    this.faults.push(fault);
    return fault;
  }

  /** The active faults, oldest first. */
  list(): Fault[] {
    return this.faults.map((fault) => ({ ...fault }));
  }

  /** Clears every fault, or those added with `match`; answers how many. */
  clear(match?: string): number {
    let cleared = 0;
    for (let i = this.faults.length - 1; i >= 0; i -= 1) {
      if (match === undefined || this.faults[i]?.match === match) {
        this.faults.splice(i, 1);
        cleared += 1;
      }
    }
    return cleared;
  }

  /**
   * The oldest fault this request trips, one of its hits used (and gone once all are): the
   * request's method and path must fit, and `match` occur in `haystack` (its path, query and body).
   */
  take(method: string, path: string, haystack: string): Fault | undefined {
    const index = this.faults.findIndex(
      (fault) =>
        (fault.method === null || fault.method === method) &&
        (fault.path === null || patternOf(fault.path).test(path)) &&
        (fault.match === null || haystack.includes(fault.match)),
    );
    if (index === -1) return undefined;
    const fault = this.faults[index] as Fault;
    fault.left -= 1;
    if (fault.left === 0) this.faults.splice(index, 1);
    return { ...fault };
  }
}

/** What the request carries that `match` is looked for in: path, query, body (raw and decoded). */
export function haystackOf(pathAndQuery: string, body: string): string {
  let decoded = body;
  try {
    decoded = decodeURIComponent(body.replace(/\+/g, ' '));
  } catch {
    // Not form-encoded: the raw body is enough.
  }
  let decodedQuery = pathAndQuery;
  try {
    decodedQuery = decodeURIComponent(pathAndQuery.replace(/\+/g, ' '));
  } catch {
    // Keep it raw.
  }
  return `${pathAndQuery}\n${decodedQuery}\n${body}\n${decoded}`;
}
