import type { HttpRoute, WebSocketRoute, WorkflowTask } from './route';

/**
 * Time budgets: how long each function may run, declared with it (`timeoutSeconds` of a route, a
 * WebSocket route, a workflow task, a scheduled job or a stream trigger). This module holds the
 * defaults and the limits; `timeoutOf` is the one place a budget is read: CDK sets it as the Lambda
 * timeout, and every emulator of the twin stops an invocation there as Lambda stops a function
 * (infra/local/invocation.ts). No other file holds these numbers.
 */

/** A route's default: API calls answer a person, who should not wait longer. */
export const DEFAULT_API_TIMEOUT_SECONDS = 10;
/** A task's, job's or stream trigger's default: it loads state, decides, writes, performs effects. */
export const DEFAULT_TASK_TIMEOUT_SECONDS = 60;
/**
 * API Gateway's integration timeout for HTTP APIs (a quota that cannot be raised); past it the
 * client gets 503 `{"message":"Service Unavailable"}` while the function may still be running.
 */
export const API_INTEGRATION_TIMEOUT_SECONDS = 30;
/**
 * The most a route (HTTP or WebSocket) may declare: a second under the integration timeout, so a
 * function that runs too long is stopped by Lambda (answered 500, its work cut off) rather than
 * abandoned by API Gateway (503) while it carries on.
 */
export const MAX_API_TIMEOUT_SECONDS = API_INTEGRATION_TIMEOUT_SECONDS - 1;
/** Lambda's own maximum (15 minutes). */
export const MAX_LAMBDA_TIMEOUT_SECONDS = 900;
/** Cognito waits 5 s for a user-pool trigger (CDK sets it; the local user pool stops one there). */
export const COGNITO_TRIGGER_TIMEOUT_SECONDS = 5;
/**
 * How much longer than its Lambda's budget a Step Functions Task state must wait
 * (`TimeoutSeconds`): a cold start's Init phase (up to 10 s) runs before the function's own
 * timeout starts. Otherwise the state could time out first (`States.Timeout`, which a retrier on
 * `States.TaskFailed` does not match) while the function is still running, and a retry would run
 * beside it.
 */
export const TASK_STATE_MARGIN_SECONDS = 10;

/** Anything that declares a budget. */
export type Budgeted = HttpRoute | WebSocketRoute | WorkflowTask;

function isApiCall(declaration: Budgeted): declaration is HttpRoute | WebSocketRoute {
  return 'path' in declaration || 'routeKey' in declaration;
}

function nameOf(declaration: Budgeted): string {
  if ('path' in declaration) return `${declaration.method} ${declaration.path}`;
  if ('routeKey' in declaration) return `WebSocket route ${declaration.routeKey}`;
  return declaration.handler;
}

/**
 * The declaration's budget in seconds: its `timeoutSeconds`, else the default of its kind. Throws
 * on a budget Lambda or API Gateway would not honour (not a whole number of seconds, or over the
 * limit), so CDK's synth and the twin's start both refuse it.
 */
export function timeoutOf(declaration: Budgeted): number {
  const api = isApiCall(declaration);
  const seconds =
    declaration.timeoutSeconds ??
    (api ? DEFAULT_API_TIMEOUT_SECONDS : DEFAULT_TASK_TIMEOUT_SECONDS);
  const max = api ? MAX_API_TIMEOUT_SECONDS : MAX_LAMBDA_TIMEOUT_SECONDS;
  if (!Number.isInteger(seconds) || seconds < 1) {
    throw new Error(
      `${nameOf(declaration)}: timeoutSeconds must be a whole number of seconds, at least 1 (got ${seconds})`,
    );
  }
  if (seconds > max) {
    throw new Error(
      api
        ? `${nameOf(declaration)}: timeoutSeconds ${seconds} is over ${max}: API Gateway gives up on ` +
            `an integration after ${API_INTEGRATION_TIMEOUT_SECONDS} s, so a call must finish before; ` +
            'move longer work off the request path (a workflow or a stream trigger)'
        : `${nameOf(declaration)}: timeoutSeconds ${seconds} is over Lambda's ${max}`,
    );
  }
  return seconds;
}
