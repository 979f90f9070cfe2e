import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Context } from 'aws-lambda';

/**
 * In-process Lambda invocation for the twin: a handler path of the route table
 * (`realtime/handlers/connect`) is the module `functions/<path>.ts`, whose `handler` export is
 * called with the event and a Lambda-like context. Used by the workflow runner and the WebSocket
 * gateway (the HTTP gateway has its own).
 */
export type LambdaHandler = (event: never, context: Context) => unknown;

export const FUNCTIONS_DIR = fileURLToPath(new URL('../../../functions/', import.meta.url));

export function handlerFile(handlerPath: string, functionsDir: string = FUNCTIONS_DIR): string {
  return path.join(functionsDir, `${handlerPath}.ts`);
}

/** Throws when the module of a handler path does not exist (checked at startup, loudly). */
export function assertHandlerExists(handlerPath: string, functionsDir: string = FUNCTIONS_DIR) {
  const file = handlerFile(handlerPath, functionsDir);
  if (!existsSync(file)) throw new Error(`handler module not found: ${file}`);
}

const loaded = new Map<string, Promise<LambdaHandler>>();

export function loadHandler(
  handlerPath: string,
  functionsDir: string = FUNCTIONS_DIR,
): Promise<LambdaHandler> {
  const file = handlerFile(handlerPath, functionsDir);
  let pending = loaded.get(file);
  if (pending === undefined) {
    pending = import(pathToFileURL(file).href).then((module: { handler?: unknown }) => {
      if (typeof module.handler !== 'function') {
        throw new Error(`${file} does not export a function named "handler"`);
      }
      return module.handler as LambdaHandler;
    });
    pending.catch(() => loaded.delete(file));
    loaded.set(file, pending);
  }
  return pending;
}

/** Where an emulated event source finds its handlers: `<functionsDir>/<path>.ts`, or given (tests). */
export interface HandlerSource {
  /** Default: functions/. */
  functionsDir?: string;
  /** Resolves a handler path to its function instead of importing it (tests). */
  loadHandler?: (handlerPath: string) => Promise<LambdaHandler>;
}

/**
 * The loader an event source's emulator uses (the scheduler, the stream poller): `load` a handler,
 * and `check` at start that its module exists (a handler given by a test is not checked).
 */
export function handlerResolver(source: HandlerSource): {
  load: (handlerPath: string) => Promise<LambdaHandler>;
  check: (handlerPath: string) => void;
} {
  const functionsDir = source.functionsDir ?? FUNCTIONS_DIR;
  const given = source.loadHandler;
  return {
    load: given ?? ((handlerPath) => loadHandler(handlerPath, functionsDir)),
    check: (handlerPath) => {
      if (given === undefined) assertHandlerExists(handlerPath, functionsDir);
    },
  };
}

/** A Lambda context as the Node.js runtime passes it (the parts handlers read). */
export function lambdaContext(
  functionName: string,
  options: { region: string; timeoutMs: number; now?: () => number },
): Context {
  const now = options.now ?? Date.now;
  const deadline = now() + options.timeoutMs;
  const requestId = randomUUID();
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${options.region}:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: `local/${requestId}`,
    getRemainingTimeInMillis: () => Math.max(0, deadline - now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
