import { AsyncLocalStorage } from 'node:async_hooks';
import diagnosticsChannel from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';
import type { Context } from 'aws-lambda';
import { lambdaContext } from './workflows/invoke';

/**
 * One Lambda invocation on the twin, held to its time budget (the declaration's `timeoutSeconds`,
 * functions/core/budgets.ts `timeoutOf`) as Lambda holds a function to its timeout. Every emulator
 * that runs a handler (the HTTP and WebSocket gateways, the workflow runner, the scheduler, the
 * stream poller, the local user pool's triggers) runs it through `invokeWithin`.
 *
 * In AWS a function that outlives its timeout is stopped: the invocation fails with
 * `Task timed out after N.00 seconds` (error type `Sandbox.Timedout`), and nothing it would have
 * done afterwards happens. Handlers run in the twin's own process, so stopping is emulated:
 * - the invocation fails at the deadline with `LambdaTimeout`, which each emulator answers as its
 *   AWS service answers a timed-out function (the HTTP API 500, a Task state's error, a stream
 *   batch retried, a job's failed run logged);
 * - the handler runs in an AsyncLocalStorage context carrying its invocation; once the deadline
 *   has passed, every outbound HTTP request started from that context (the AWS SDK's, Stripe's,
 *   `fetch`) fails at once, and the requests still under way are destroyed. So a DynamoDB write or
 *   a Stripe call the handler would make after its deadline never lands, as in a frozen Lambda.
 * What it cannot stop: JavaScript that keeps running without I/O (a CPU loop, timers, logging)
 * runs on in-process, where Lambda would have frozen it. A request already sent when the deadline
 * passes may have reached its server, as in AWS.
 */

/** An invocation under way, as the outbound-request hooks see it. */
interface Invocation {
  handler: string;
  timeoutSeconds: number;
  /** Set once the budget is spent: the error any further I/O of the invocation fails with. */
  expired?: Error;
  /** Outbound HTTP requests under way: destroyed when the budget runs out. */
  requests: Set<ClientRequest>;
}

const current = new AsyncLocalStorage<Invocation>();

/** How Lambda fails an invocation that outlived its timeout (the Invoke answer's payload). */
export class LambdaTimeout extends Error {
  override readonly name = 'Sandbox.Timedout';
  constructor(
    readonly requestId: string,
    readonly timeoutSeconds: number,
  ) {
    super(
      `RequestId: ${requestId} Error: Task timed out after ${timeoutSeconds.toFixed(2)} seconds`,
    );
  }
}

/** What an outbound request of a timed-out invocation fails with. */
export class LambdaStopped extends Error {
  override readonly name = 'LambdaStopped';
  constructor(handler: string, timeoutSeconds: number) {
    super(
      `Lambda timed out: ${handler} after ${timeoutSeconds} s (the twin refuses the I/O of a ` +
        'function past its timeout, as Lambda stops it)',
    );
  }
}

// Node's http client (the AWS SDK and Stripe's SDK use it): each request as it is created, in the
// async context of the code that created it.
diagnosticsChannel.subscribe('http.client.request.start', (message) => {
  const invocation = current.getStore();
  if (invocation === undefined) return;
  const { request } = message as { request: ClientRequest };
  if (invocation.expired !== undefined) {
    request.destroy(invocation.expired);
    return;
  }
  invocation.requests.add(request);
  request.once('close', () => invocation.requests.delete(request));
});

// fetch (undici): a request created past the deadline fails before it is sent. (One under way
// when the deadline passes is left to finish; the product's only fetch is the JWKS download.)
diagnosticsChannel.subscribe('undici:request:create', (message) => {
  const expired = current.getStore()?.expired;
  if (expired === undefined) return;
  (message as { request: { onError(error: Error): void } }).request.onError(expired);
});

export interface InvocationSpec {
  /** The function's name in its context (`functionName`, the ARN). */
  functionName: string;
  /** The handler path, for messages. */
  handler: string;
  /** The budget: `timeoutOf(declaration)`. */
  timeoutSeconds: number;
  region: string;
  /** The context's clock (tests with a manual clock); the deadline itself is real time. */
  now?: () => number;
  /** The emulator's own context shape, given the budget in ms (default: workflows/invoke.ts's). */
  context?: (timeoutMs: number) => Context;
}

/**
 * Runs `call` as one invocation: with a Lambda context whose `getRemainingTimeInMillis` counts down
 * the budget, inside the invocation's async context. Resolves with the handler's result, rejects
 * with its error, or with `LambdaTimeout` once the budget is spent (the handler's later I/O then
 * fails, see above).
 */
export async function invokeWithin<T>(
  spec: InvocationSpec,
  call: (context: Context) => T | Promise<T>,
): Promise<Awaited<T>> {
  const timeoutMs = spec.timeoutSeconds * 1000;
  const context =
    spec.context?.(timeoutMs) ??
    lambdaContext(spec.functionName, {
      region: spec.region,
      timeoutMs,
      ...(spec.now === undefined ? {} : { now: spec.now }),
    });
  const invocation: Invocation = {
    handler: spec.handler,
    timeoutSeconds: spec.timeoutSeconds,
    requests: new Set(),
  };
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      invocation.expired = new LambdaStopped(spec.handler, spec.timeoutSeconds);
      for (const request of invocation.requests) request.destroy(invocation.expired);
      invocation.requests.clear();
      reject(new LambdaTimeout(context.awsRequestId, spec.timeoutSeconds));
    }, timeoutMs);
  });
  try {
    return await Promise.race([current.run(invocation, async () => call(context)), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
