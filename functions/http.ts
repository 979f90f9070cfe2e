import {
  httpHandler as middlewareStack,
  specOf,
  type CallInput,
  type CallSpec,
  type Reply,
} from './core/http';
import type { RouteDeclaration } from './core/route';
import { sessionCheck } from './accounts/index';

/**
 * The wiring of HTTP handlers: core's middleware stack, configured by the call's declaration
 * (`<domain>.routes.ts`), with what only a domain can give it injected here (the accounts
 * domain's per-call session check), so core imports no domain. Every HTTP handler is
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
      ...refine,
    },
    run,
  );
}
