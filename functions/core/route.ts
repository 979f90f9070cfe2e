import type { ZodType } from 'zod';

/**
 * A call's declaration: THE one place a call is listed. Each domain declares its calls in
 * `functions/<domain>/<domain>.routes.ts`; `functions/routes.ts` composes them into the route
 * table (CDK makes one Lambda and one HTTP API route per entry, the local gateway answers the same
 * entries), GET /api/openapi.json is generated from them, and each handler hands its declaration to
 * `httpHandler`, so auth, validation and the middleware options come from here too.
 */

/** 'ANY' matches every method (API Gateway semantics); used only by the catch-all. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'ANY';
/** 'public' needs no token; 'user' needs a valid access token; 'admin' a token of an admin. */
export type AuthLevel = 'public' | 'user' | 'admin';
/**
 * The CloudFormation stack the function lives in (stacks are split by domain group to stay under
 * 500 resources each).
 */
export type StackGroup = 'core' | 'accounts' | 'market' | 'orders' | 'social';

/** What the deployment needs of a call (CDK, the local gateway, the bundler). */
export interface HttpRoute {
  method: HttpMethod;
  /** API Gateway path syntax: `/api/users/{nick}`. Always starts with `/api/`. */
  path: string;
  /** The module path under `functions/` without extension; the module exports `handler`. */
  handler: string;
  auth: AuthLevel;
  group: StackGroup;
  /**
   * What the function may touch, where the method's default (GET reads the table; other methods
   * write it and the buckets) is not enough. CDK grants exactly this.
   */
  access?: {
    table?: 'read' | 'write';
    images?: 'read' | 'write' | 'readwrite';
    files?: 'read' | 'write' | 'readwrite';
  };
  /** Native modules the handler loads at run time (kept out of the bundle, shipped beside it). */
  native?: readonly string[];
  /** Memory in MB when the default (512) is not enough, e.g. image processing. */
  memoryMb?: number;
  /**
   * The handler publishes to the live channel (functions/realtime publishToUser/Topic): CDK gives
   * it the WebSocket connections endpoint and `execute-api:ManageConnections`.
   */
  live?: boolean;
  /**
   * The answer is an HTML page rendered with the web's server build, not JSON (the page calls of
   * functions/pages; the use case answers an HtmlReply; its errors are still JSON). The bundler
   * ships the web build's render folder beside the handler.
   */
  html?: true;
  /**
   * The handler notifies users (functions/notifications notify()): it publishes live (as `live`)
   * and may send notification e-mails, so CDK also gives it EMAIL_SENDER and `ses:SendEmail` from
   * that address.
   */
  notify?: true;
  /**
   * The workflows (infra/workflows/<name>.asl.json) the handler may start (functions/core/workflows.ts
   * `startWorkflow`): CDK gives it WORKFLOW_ARN_PREFIX and `states:StartExecution` on exactly those
   * state machines; the twin gives every function the runner's prefix.
   */
  workflows?: readonly string[];
  /**
   * The workflows whose callback tasks the handler settles (functions/core/workflows.ts
   * `settleTask`): CDK allows `states:SendTaskSuccess|Failure|Heartbeat` on those state machines.
   */
  callbacks?: readonly string[];
  /**
   * The handler calls Stripe (functions/payments): CDK gives it the name of the Stripe secret
   * (STRIPE_SECRET_NAME) and `secretsmanager:GetSecretValue` on that secret only; the twin gives it
   * the twin's keys and endpoint instead.
   */
  stripe?: true;
  /**
   * The handler reads the body itself, untouched (a signed webhook: the signature covers the exact
   * bytes). No JSON parsing and no body schema.
   */
  rawBody?: true;
  /**
   * The function's time budget in whole seconds (its Lambda timeout; the twin stops it there as
   * Lambda does). Default 10; at most 29, since the HTTP API gives up on an integration after 30 s
   * (core/budgets.ts). A route above the default says why at its declaration.
   */
  timeoutSeconds?: number;
}

/** A WebSocket route of the live channel (`webSocketRoutes` of functions/routes.ts). */
export interface WebSocketRoute {
  /** `$connect`, `$disconnect`, `$default` or a custom route key matched on the `action` field. */
  routeKey: string;
  handler: string;
  /** As for an HTTP route: default 10 s, at most 29 (the WebSocket API's integration limit). */
  timeoutSeconds?: number;
}

/**
 * A workflow task's deployment (`workflowTasks` of functions/routes.ts): its handler module and,
 * as for a route, whether it notifies users (`notify`: the live channel and notification e-mails)
 * and which workflows it may start. Every task reads and writes the table.
 */
export interface WorkflowTask {
  handler: string;
  notify?: true;
  workflows?: readonly string[];
  callbacks?: readonly string[];
  /** The task calls Stripe (CDK grants it the Stripe secret, as for a route). */
  stripe?: true;
  /**
   * The function's time budget in whole seconds (its Lambda timeout; the twin stops it there).
   * Default 60, at most 900 (Lambda's limit); core/budgets.ts. A task's ASL Task states must
   * allow it (TimeoutSeconds: infra/lib/budgets.test.ts).
   */
  timeoutSeconds?: number;
}

/**
 * A Lambda triggered by the table's DynamoDB stream (an event source mapping): CDK maps the
 * function to the stream with these settings, the twin's poller (infra/local/streams.ts) runs the
 * same handler with the same batches; a parity test checks both. Its options mean what they mean
 * for a workflow task (CDK grants exactly those).
 */
export interface StreamTrigger extends WorkflowTask {
  /**
   * Lambda event filter patterns on the stream record (FilterCriteria): a record passing any of
   * them is delivered, the others never reach the function.
   */
  filters: readonly Record<string, unknown>[];
  /** Records per invocation at most. */
  batchSize: number;
  /** Retries of a failing batch before its records are skipped (logged). */
  maxRetryAttempts: number;
  /** Records older than this are skipped rather than retried. */
  maxRecordAgeSeconds: number;
}

/**
 * The Idempotency-Key header: 'required' refuses a call without one (400 `invalid_request` on
 * `Idempotency-Key`), 'optional' accepts its absence; a malformed key is always 400. The use case
 * receives the key (core/idempotency.ts stores and checks the replays).
 */
export type IdempotencyOption = 'required' | 'optional';

/** A call as declared: the deployment fields, its contract, and the middleware options. */
export interface RouteDeclaration<P = unknown, Q = unknown, B = unknown> extends HttpRoute {
  /** One line for OpenAPI: what the call does, its notable answers. */
  summary: string;
  tags: readonly string[];
  request?: { path?: ZodType<P>; query?: ZodType<Q>; body?: ZodType<B> };
  /** Schema of `data` in the success answer (of the whole answer when `unwrapped`). */
  response: ZodType;
  /** Success status when not 200 (201 for creations; 404 for the catch-all). */
  status?: number;
  /** The answer is the document itself, not `{ data }` (OpenAPI). */
  unwrapped?: boolean;
  /**
   * The name of a path parameter that must be the caller's own user id: 401 for guests, 403
   * `forbidden` for anyone else (DESIGN §4: a user id in the path is a capability of its owner).
   */
  owner?: string;
  idempotency?: IdempotencyOption;
  /**
   * For calls whose use case keeps no replay record of its own (paying, a bid, an order's update):
   * the middleware keeps the answer of each (caller, call, Idempotency-Key) for 24 hours and
   * answers a retry with it; a retry during the first waits for its answer (core/answers.ts).
   * Needs `idempotency` and a 'user' or 'admin' route.
   */
  replayAnswer?: true;
}

/** Declares a call; keeps the schemas' types for `httpHandler`. */
export function route<P = undefined, Q = undefined, B = undefined>(
  declaration: RouteDeclaration<P, Q, B>,
): RouteDeclaration<P, Q, B> {
  if (declaration.owner !== undefined && declaration.auth === 'public') {
    throw new Error(`${declaration.method} ${declaration.path}: owner needs a 'user' route`);
  }
  if (
    declaration.replayAnswer === true &&
    (declaration.idempotency === undefined || declaration.auth === 'public')
  ) {
    throw new Error(
      `${declaration.method} ${declaration.path}: replayAnswer needs idempotency and a signed-in caller`,
    );
  }
  if (declaration.owner !== undefined && !declaration.path.includes(`{${declaration.owner}}`)) {
    throw new Error(`${declaration.method} ${declaration.path}: no {${declaration.owner}} in path`);
  }
  return declaration;
}
