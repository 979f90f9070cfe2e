import {
  httpHandler as middlewareStack,
  specOf,
  type CallInput,
  type CallSpec,
  type Reply,
} from './core/http';
import type { RouteDeclaration } from './core/route';
import { dynamoAnswerStore, type AnswerStore } from './core/answers';
import { dynamoDocumentClient } from './core/clients';
import { readEnv } from './core/env';
import { sessionCheck } from './accounts/index';

/** The table's answer store (calls declared `replayAnswer`). */
function answerStore(): AnswerStore {
  return dynamoAnswerStore({ doc: dynamoDocumentClient(), tableName: readEnv().tableName });
}

/**
 * The wiring of HTTP handlers: core's middleware stack, configured by the call's declaration
 * (`<domain>.routes.ts`), with what only a domain can give it injected here (the accounts
 * domain's per-call session check; the table's store of replayed answers), so core imports no
 * domain. Every HTTP handler is
 * `export const handler = httpHandler(<domain>Routes.<call>, async (input) => useCase(...))`.
 * `refine` replaces parts of the spec that depend on the environment (e.g. token/create's body
 * schema follows the mintableTypes switch) or on tests (clock, session).
 */
export function httpHandler<P, Q, B, R>(
  declaration: RouteDeclaration<P, Q, B>,
  run: (input: CallInput<P, Q, B>) => Promise<R | Reply<R>>,
  refine: Partial<CallSpec<P, Q, B>> = {},
) {
  return middlewareStack<P, Q, B, R>(
    {
      ...specOf(declaration),
      ...(declaration.auth === 'public' ? {} : { session: sessionCheck() }),
      ...(declaration.replayAnswer === true ? { answers: answerStore } : {}),
      ...refine,
    },
    run,
  );
}
