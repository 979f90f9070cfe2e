import middy from '@middy/core';
import httpCors from '@middy/http-cors';
import type {
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2,
  Context,
} from 'aws-lambda';
import type * as z from 'zod';
import type { ZodType } from 'zod';
import { isErrorCode, type ErrorBody } from '../../shared/errors/registry';
import { DomainError, isDomainError } from './errors';
import { readEnv } from './env';
import { logger } from './logger';
import { systemClock, type Clock } from './clock';
import { authFromEvent, requireAuth, type AuthContext } from './auth';
import type { AuthLevel, IdempotencyOption, RouteDeclaration } from './route';
import { idempotencyKeyOf } from './idempotency';
import { answerOnce, answerScope, requestFingerprint, type AnswerStore } from './answers';

/**
 * The HTTP middleware stack every call goes through, in order:
 *   request id + structured log context → CORS → JSON body parsing (400 `invalid_json`; a call
 *   without a body schema takes none, an empty one or a JSON object: `checkNoBody`) →
 *   auth context from JWT claims (401/403 by the route's level) → the session check of 'user' and
 *   'admin' routes (blocked 403, revoked or unknown 401; injected: functions/http.ts passes the
 *   accounts domain's) → zod validation of path, query and body (400 `invalid_request` naming
 *   every failing field) → the route's options: `owner` (the path's user id is the caller, else
 *   403) and `idempotency` (the Idempotency-Key header) → the use case → `{ data }`;
 *   any error is mapped last: DomainError → its status and code, anything else → 500 `unexpected`
 *   with the request id, logged, never leaking internals.
 */
export type HttpEvent = APIGatewayProxyEventV2;
export type HttpResult = APIGatewayProxyStructuredResultV2;

export interface CallInput<P, Q, B> {
  path: P;
  query: Q;
  body: B;
  auth: AuthContext | null;
  requestId: string;
  now: Date;
  /**
   * Milliseconds this invocation has left to answer (Lambda's `context.getRemainingTimeInMillis()`,
   * the route's declared budget counting down): a use case that retries takes it as its
   * `Budget` (core/clock.ts) and stops in time to answer.
   */
  remainingMs: () => number;
  event: HttpEvent;
  /** The Idempotency-Key header, checked, when the route has the `idempotency` option. */
  idempotencyKey: string | undefined;
}

/** The per-call session check of 'user'/'admin' routes (a blocked or logged-out caller throws). */
export type SessionCheck = (auth: AuthContext) => Promise<void>;

/**
 * Lets a use case answer another status than 200 (e.g. 201) or set headers. `unwrapped` answers
 * the body as it is instead of `{ data }` (only for documents with a standard shape, like OpenAPI).
 */
export class Reply<T> {
  constructor(
    readonly status: number,
    readonly data: T,
    readonly headers: Record<string, string> = {},
    readonly unwrapped = false,
  ) {}
}

/** An HTML page as the answer (a route declared `html: true`); `headers` add to the content type. */
export class HtmlReply {
  constructor(
    readonly status: number,
    readonly html: string,
    readonly headers: Record<string, string> = {},
  ) {}
}

export interface CallSpec<P, Q, B> {
  auth: AuthLevel;
  path?: ZodType<P>;
  query?: ZodType<Q>;
  body?: ZodType<B>;
  /** See RouteDeclaration.owner: the path parameter that must be the caller's user id. */
  owner?: string;
  idempotency?: IdempotencyOption;
  /**
   * See RouteDeclaration.replayAnswer: the answer of each Idempotency-Key is kept and replayed
   * (core/answers.ts), in `answers` (injected: functions/http.ts gives the table's).
   */
  replayAnswer?: boolean;
  answers?: () => AnswerStore;
  clock?: Clock;
  /**
   * The per-call session check of 'user'/'admin' routes (the accounts domain's: one strongly
   * consistent read of the caller's account; refuses blocked accounts (403 `login.errors.403`),
   * tokens signed in before a logout or block (401) and missing accounts (401)). Required for
   * them: core knows no domain, so functions/http.ts injects it and tests pass their own.
   */
  session?: SessionCheck;
  /**
   * The middleware leaves the body alone: for the catch-all (ANY /api/{proxy+}, 404 whatever the
   * body) and for calls that must answer 404 whatever the request while a switch is off; those
   * read the body themselves (or call `checkNoBody`) after their switch check. Every other call
   * without a body schema refuses a malformed body (`checkNoBody`).
   */
  ignoreBody?: boolean;
}

/** The middleware spec of a declared route (its auth, schemas and options). */
export function specOf<P, Q, B>(declaration: RouteDeclaration<P, Q, B>): CallSpec<P, Q, B> {
  return {
    auth: declaration.auth,
    ...declaration.request,
    ...(declaration.owner === undefined ? {} : { owner: declaration.owner }),
    ...(declaration.idempotency === undefined ? {} : { idempotency: declaration.idempotency }),
    ...(declaration.replayAnswer === true ? { replayAnswer: true } : {}),
    ...(declaration.rawBody === true ? { ignoreBody: true } : {}),
  };
}

/** 401 for a guest, 403 when the path's user id is not the caller's. */
export function requirePathOwner(auth: AuthContext | null, pathUserId: unknown): string {
  if (auth === null) {
    throw new DomainError('unauthenticated', { message: 'Session Expired or not logged in' });
  }
  if (auth.userId !== pathUserId) {
    throw new DomainError('forbidden', {
      message: 'This path names another user: you can only act on your own.',
    });
  }
  return auth.userId;
}

/** A Lambda's default budget when the context does not say (unit tests). */
const DEFAULT_BUDGET_MS = 10_000;

/** The invocation's countdown: its context's, else the default budget from now (unit tests). */
function remainingOf(context: Context | undefined): () => number {
  if (typeof context?.getRemainingTimeInMillis === 'function') {
    return () => context.getRemainingTimeInMillis();
  }
  const started = Date.now();
  return () => DEFAULT_BUDGET_MS - (Date.now() - started);
}

const JSON_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
};

function requestIdOf(event: HttpEvent, context: Context | undefined): string {
  return event.requestContext?.requestId ?? context?.awsRequestId ?? 'unknown';
}

export function errorResult(error: DomainError, requestId: string): HttpResult {
  const body: ErrorBody = {
    error: {
      code: error.code,
      message: error.message,
      ...(error.fields === undefined ? {} : { fields: error.fields }),
      ...(error.details === undefined ? {} : { details: error.details }),
      requestId,
    },
  };
  return {
    statusCode: error.status,
    headers: { ...JSON_HEADERS, 'x-request-id': requestId },
    body: JSON.stringify(body),
  };
}

/** Zod issues → `{ 'field.path': 'forms.validation.*' }`; the first issue of a field wins. */
export function fieldErrors(error: z.ZodError, prefix?: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const path = [prefix, ...issue.path.map(String)]
      .filter((part) => part !== undefined && part !== '')
      .join('.');
    const key = path === '' ? '_' : path;
    if (fields[key] !== undefined) continue;
    // A schema's message is kept when it is one of our codes (forms.validation.* or a registered
    // code such as market.create_product.validation.symbol); zod's own English is replaced.
    fields[key] =
      issue.message.startsWith('forms.validation.') || isErrorCode(issue.message)
        ? issue.message
        : codeForIssue(issue);
  }
  return fields;
}

function codeForIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'too_small':
      return 'forms.validation.too_small';
    case 'too_big':
      return 'forms.validation.too_big';
    case 'invalid_value':
      return 'forms.validation.enum';
    case 'invalid_type':
      return issue.input === undefined ? 'forms.validation.required' : 'forms.validation.invalid';
    default:
      return 'forms.validation.invalid';
  }
}

function validate<T>(
  schema: ZodType<T> | undefined,
  value: unknown,
  part: 'path' | 'query' | 'body',
): T {
  if (schema === undefined) return undefined as T;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new DomainError('invalid_request', {
    message: `The request ${part} is not valid.`,
    fields: fieldErrors(result.error),
  });
}

function parseBody(event: HttpEvent): unknown {
  if (event.body === undefined || event.body === null || event.body === '') return undefined;
  const text = event.isBase64Encoded
    ? Buffer.from(event.body, 'base64').toString('utf8')
    : event.body;
  const type = event.headers?.['content-type'] ?? '';
  if (type !== '' && !/^application\/(.+\+)?json\b/i.test(type)) {
    throw new DomainError('invalid_json', {
      message: 'The request body must be JSON (application/json).',
    });
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new DomainError('invalid_json', { message: 'The request body is not valid JSON.' });
  }
}

/**
 * A call that takes no body accepts none, an empty one, or a JSON object (its members are ignored,
 * as a body schema strips unknown members). Anything else is malformed and answered 400
 * `invalid_json`: a non-JSON content type, text that does not parse, or a JSON value that is not
 * an object (`[]`, `null`, `"text"`, `1`). The web sends `{}` on POSTs without payload.
 */
export function checkNoBody(event: HttpEvent): void {
  const value = parseBody(event);
  if (value === undefined) return;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new DomainError('invalid_json', {
      message: 'This call takes no body; send none or a JSON object.',
    });
  }
}

/**
 * Builds a Lambda handler for one call: `export const handler = httpHandler({ auth, query }, run)`.
 * `run` returns the data (answered 200 `{ data }`) or a Reply.
 */
export function httpHandler<P = undefined, Q = undefined, B = undefined, R = unknown>(
  spec: CallSpec<P, Q, B>,
  run: (input: CallInput<P, Q, B>) => Promise<R | Reply<R> | HtmlReply>,
) {
  const clock = spec.clock ?? systemClock;
  const checkSession = spec.session;
  if (spec.auth !== 'public' && checkSession === undefined) {
    throw new Error("a 'user' or 'admin' call needs the session check (functions/http.ts)");
  }
  const base = async (event: HttpEvent, context: Context): Promise<HttpResult> => {
    const requestId = requestIdOf(event, context);
    const auth = authFromEvent(event);
    requireAuth(spec.auth, auth);
    if (spec.auth !== 'public' && auth !== null) await checkSession?.(auth);
    // Calls without a body schema refuse a malformed body; the catch-all ignores it (its 404 must
    // not turn into a 400).
    let body = undefined as B;
    if (spec.body !== undefined) body = validate(spec.body, parseBody(event), 'body');
    else if (spec.ignoreBody !== true) checkNoBody(event);
    const path = validate(spec.path, event.pathParameters ?? {}, 'path');
    const query = validate(spec.query, event.queryStringParameters ?? {}, 'query');
    if (spec.owner !== undefined) {
      requirePathOwner(auth, (path as Record<string, unknown> | undefined)?.[spec.owner]);
    }
    const input: CallInput<P, Q, B> = {
      path,
      query,
      body,
      idempotencyKey:
        spec.idempotency === undefined
          ? undefined
          : idempotencyKeyOf(event.headers, spec.idempotency),
      auth,
      requestId,
      now: clock.now(),
      remainingMs: remainingOf(context),
      event,
    };
    const respond = async (): Promise<HttpResult> => {
      const result = await run(input);
      if (result instanceof HtmlReply) {
        return {
          statusCode: result.status,
          headers: {
            'content-type': 'text/html; charset=utf-8',
            'x-request-id': requestId,
            ...result.headers,
          },
          body: result.html,
        };
      }
      const reply = result instanceof Reply ? result : new Reply(200, result);
      return {
        statusCode: reply.status,
        headers: { ...JSON_HEADERS, 'x-request-id': requestId, ...reply.headers },
        body: JSON.stringify(reply.unwrapped ? reply.data : { data: reply.data }),
      };
    };
    if (spec.replayAnswer !== true || input.idempotencyKey === undefined || auth === null) {
      return respond();
    }
    const store = spec.answers?.();
    if (store === undefined) throw new Error('a replayAnswer call needs its answer store');
    const kept = await answerOnce(
      store,
      {
        scope: answerScope(auth.userId, event.routeKey),
        key: input.idempotencyKey,
        fingerprint: requestFingerprint(event.rawPath, event.body),
        // The claim's lease: this invocation's own deadline (a stopped one is taken over).
        deadline: Date.now() + input.remainingMs(),
        now: () => Date.now(),
      },
      async () => {
        try {
          const answer = await respond();
          return {
            status: answer.statusCode ?? 200,
            headers: (answer.headers ?? {}) as Record<string, string>,
            body: typeof answer.body === 'string' ? answer.body : '',
          };
        } catch (error) {
          // A refusal is the answer a retry gets too (a 5xx is not kept: the retry runs again).
          if (!isDomainError(error) || error.status >= 500) throw error;
          logger.info('request refused', { code: error.code, status: error.status });
          const answer = errorResult(error, requestId);
          return {
            status: answer.statusCode ?? error.status,
            headers: (answer.headers ?? {}) as Record<string, string>,
            body: typeof answer.body === 'string' ? answer.body : '',
          };
        }
      },
    );
    return {
      statusCode: kept.status,
      headers: {
        ...kept.headers,
        'x-request-id': requestId,
        ...(kept.replayed ? { 'idempotent-replayed': 'true' } : {}),
      },
      body: kept.body,
    };
  };

  return middy<HttpEvent, HttpResult>(base)
    .use({
      before: (request) => {
        const requestId = requestIdOf(request.event, request.context);
        logger.addContext(request.context);
        logger.appendKeys({ requestId, route: request.event.routeKey });
      },
      after: (request) => {
        logger.info('request done', { status: request.response?.statusCode });
        logger.resetKeys();
      },
      onError: (request) => {
        const requestId = requestIdOf(request.event, request.context);
        const error = request.error;
        if (isDomainError(error)) {
          logger.info('request refused', { code: error.code, status: error.status });
          request.response = errorResult(error, requestId);
        } else {
          logger.error(
            'unexpected error',
            error instanceof Error ? error : new Error(String(error)),
          );
          request.response = errorResult(
            new DomainError('unexpected', { message: 'Unexpected Error' }),
            requestId,
          );
        }
        logger.resetKeys();
      },
    })
    .use(httpCors({ origin: readEnv().webOrigin, credentials: true, vary: 'Origin' }));
}
