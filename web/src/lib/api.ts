import type { ZodType } from 'zod';
import { takeEarlyAnswer } from './earlyCalls';

/** What came back: the status and the body's text. */
interface Answer {
  status: number;
  text: string;
}

/** Error codes produced by the client itself (the others come from the API's error registry). */
export const NETWORK_ERROR = 'network';
export const UNEXPECTED_ERROR = 'unexpected';

export interface ApiErrorInit {
  code: string;
  status: number;
  message?: string;
  fields?: Record<string, string>;
  /** What the caller needs to act on the error without another read (a refused bid's minimum). */
  details?: Record<string, unknown>;
  requestId?: string;
  cause?: unknown;
}

/**
 * A failed call. `code` is a stable error code that is also an i18n key (shared/errors/registry.ts,
 * plus `network` and `unexpected` raised here); `status` is 0 when no response arrived.
 */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly fields: Record<string, string> | undefined;
  readonly details: Record<string, unknown> | undefined;
  readonly requestId: string | undefined;

  constructor(init: ApiErrorInit) {
    super(init.message ?? init.code, { cause: init.cause });
    this.name = 'ApiError';
    this.code = init.code;
    this.status = init.status;
    this.fields = init.fields;
    this.details = init.details;
    this.requestId = init.requestId;
  }
}

export type QueryValue = string | number | boolean | null | undefined;

/**
 * What validates an answer: a zod schema, or a function that loads one. The shell passes loaders
 * (`() => import('@shared/schemas/…').then(…)`), so zod and the schemas stay out of the entry
 * chunk; the loader starts with the call, in parallel with the request.
 */
export type SchemaSource<T> = ZodType<T> | (() => Promise<ZodType<T>>);

export interface RequestOptions<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** Validates `data`; a mismatch is reported as `unexpected` (the contract was broken). */
  schema?: SchemaSource<T>;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /**
   * Sent without the session and without waiting for it (only calls the session restore itself
   * needs, such as /config).
   */
  anonymous?: boolean;
}

export const API_BASE = '/api';

/** Where the API client gets the caller's access token, and whom it tells about a refused one. */
export interface ApiSession {
  /** The current access token (refreshed if needed), or undefined when there is no session. */
  accessToken: () => Promise<string | undefined>;
  /**
   * A new access token, refreshed with the refresh token even if the current one has not expired
   * (the API refused it), or undefined when the session cannot be refreshed.
   */
  refreshAccessToken: () => Promise<string | undefined>;
  /** Called when the API refuses the session even after a refresh: the session is gone. */
  onUnauthorized: () => void;
}

let session: ApiSession | null = null;

/**
 * While the session is being restored (a reload of a logged-in page: Amplify reads the stored
 * tokens), calls wait here, so none goes out without the token it should carry. Null once known.
 */
let restoring: { promise: Promise<void>; settle: () => void } | null = null;

/**
 * The session is not known yet: calls (other than `anonymous` ones, such as /config, which the
 * restore itself needs) wait until {@link setApiSession} says what it is. Idempotent.
 */
export function holdApiCalls(): void {
  if (restoring !== null) return;
  let settle: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => {
    settle = resolve;
  });
  restoring = { promise, settle };
}

/**
 * Installs the session the calls authenticate with, or with null says there is none (a guest).
 * Either way the session is then known and held calls go out.
 */
export function setApiSession(next: ApiSession | null): void {
  session = next;
  refreshing = null;
  const held = restoring;
  restoring = null;
  held?.settle();
}

/** One refresh at a time: concurrent calls refused with 401 share it. */
let refreshing: Promise<string | undefined> | null = null;

function refreshOnce(current: ApiSession): Promise<string | undefined> {
  if (refreshing === null) {
    const attempt = current.refreshAccessToken().catch(() => undefined);
    refreshing = attempt;
    // Later 401s (after this refresh settled) may refresh again.
    void attempt.finally(() => {
      if (refreshing === attempt) refreshing = null;
    });
  }
  return refreshing;
}

/** `/api` + path + the defined query parameters. */
export function apiUrl(path: string, query?: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) params.append(key, String(value));
  }
  const search = params.toString();
  return `${API_BASE}${path}${search ? `?${search}` : ''}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

function stringRecord(value: unknown): Record<string, string> | undefined {
  if (!isRecord(value)) return undefined;
  const entries = Object.entries(value).filter(
    (entry): entry is [string, string] => typeof entry[1] === 'string',
  );
  return Object.fromEntries(entries);
}

/** Reads `{ error: { code, message, fields?, requestId } }`, or undefined if the body is not one. */
function readErrorBody(payload: unknown, status: number): ApiError | undefined {
  if (!isRecord(payload) || !isRecord(payload.error)) return undefined;
  const { code, message, fields, details, requestId } = payload.error;
  if (typeof code !== 'string' || code === '') return undefined;
  return new ApiError({
    code,
    status,
    message: typeof message === 'string' ? message : undefined,
    fields: stringRecord(fields),
    details: isRecord(details) ? details : undefined,
    requestId: typeof requestId === 'string' ? requestId : undefined,
  });
}

/**
 * Calls the API and returns the unwrapped `data`. Throws an {@link ApiError}:
 * - the API's own code when it answers `{ error }`;
 * - `network` when no response arrives (offline, DNS, connection refused);
 * - `unexpected` for a missing, unreadable or invalid answer.
 * Aborts (`signal`) are rethrown as they are.
 */
export async function apiRequest<T>(path: string, options: RequestOptions<T> = {}): Promise<T> {
  const { method = 'GET', query, body, schema, signal, headers, anonymous = false } = options;
  // A schema loader starts now, in parallel with the request (a failed load is `unexpected`).
  const loading = typeof schema === 'function' ? schema() : undefined;
  // Until awaited, a failed load must not surface as an unhandled rejection.
  loading?.catch(() => undefined);
  if (restoring !== null && !anonymous) await restoring.promise;
  signal?.throwIfAborted();
  const current = anonymous ? null : session;
  const token = current ? await current.accessToken() : undefined;
  const url = apiUrl(path, query);
  const send = async (bearer: string | undefined): Promise<Answer> => {
    const init: RequestInit = {
      method,
      signal,
      credentials: 'same-origin',
      headers: {
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    };
    try {
      const answer = await fetch(url, init);
      return { status: answer.status, text: await answer.text() };
    } catch (error) {
      if (isAbort(error)) throw error;
      throw new ApiError({ code: NETWORK_ERROR, status: 0, cause: error });
    }
  };

  // A call without a token may find its answer already sent for by the entry (lib/earlyCalls.ts).
  const early =
    token === undefined && headers === undefined && (method === 'GET' || method === 'POST')
      ? takeEarlyAnswer({ method, url, body })
      : undefined;
  let response = (early ? await early : null) ?? (await send(token));
  signal?.throwIfAborted();
  // A refused session is refreshed once and the call retried before anything is shown; only a
  // second refusal (or a refresh that fails) ends the session.
  if (response.status === 401 && current !== null && current === session) {
    const fresh = await refreshOnce(current);
    if (fresh) response = await send(fresh);
    if (response.status === 401 && current === session) current.onUnauthorized();
  }
  const { status, text } = response;
  const ok = status >= 200 && status < 300;

  let payload: unknown;
  try {
    payload = text === '' ? undefined : JSON.parse(text);
  } catch {
    payload = undefined;
  }

  const apiError = readErrorBody(payload, status);
  if (apiError) throw apiError;
  if (!ok) {
    // No error body (a proxy page, an empty answer): the status is all we know.
    throw new ApiError({
      code: status === 404 ? 'not_found' : UNEXPECTED_ERROR,
      status: status || 500,
    });
  }
  if (!isRecord(payload) || !('data' in payload)) {
    throw new ApiError({ code: UNEXPECTED_ERROR, status });
  }
  if (!schema) return payload.data as T;
  let validator: ZodType<T>;
  if (loading) {
    try {
      validator = await loading;
    } catch (error) {
      throw new ApiError({ code: UNEXPECTED_ERROR, status, cause: error });
    }
  } else {
    validator = schema as ZodType<T>;
  }
  const parsed = validator.safeParse(payload.data);
  if (!parsed.success) {
    throw new ApiError({ code: UNEXPECTED_ERROR, status, cause: parsed.error });
  }
  return parsed.data;
}

export function apiPost<T>(
  path: string,
  body: unknown,
  options: Omit<RequestOptions<T>, 'method' | 'body'> = {},
) {
  return apiRequest<T>(path, { ...options, method: 'POST', body });
}

export function apiGet<T>(path: string, options: Omit<RequestOptions<T>, 'method' | 'body'> = {}) {
  return apiRequest<T>(path, { ...options, method: 'GET' });
}

/** The error code of anything thrown by a call; unknown failures are `unexpected`. */
export function errorCodeOf(error: unknown): string {
  return error instanceof ApiError ? error.code : UNEXPECTED_ERROR;
}

/**
 * A key for an Idempotency-Key header: one per user action, reused by every retry of it (the
 * server answers a retried key with the first answer, or resumes it).
 */
export function newIdempotencyKey(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') {
    return crypto.randomUUID();
  }
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}
