import { DomainError } from '../../core/errors';
import { httpHandler } from '../../http';
import { accountsRoutes } from '../accounts.routes';
import { passwordResetBodySchema } from '../../../shared/schemas/accounts';
import { resetPassword } from '../password-reset';
import { jsonBody, parseInput, passwordResetDeps } from '../password-reset.deps';

/** POST /api/password/reset {password, token} (spec 001 §7). 404 while passwordLogin is off. */
export const handler = httpHandler(
  accountsRoutes.resetPassword,
  async ({ event, now }) => {
    const deps = passwordResetDeps();
    if (!deps.passwordLogin) {
      throw new DomainError('not_found', { message: 'This page could not be found' });
    }
    const body = parseInput(passwordResetBodySchema, jsonBody(event), 'body');
    return resetPassword(deps, body, now);
  },
  // Validated inside, after the passwordLogin switch: a switched-off deployment answers 404 first.
  { body: undefined, ignoreBody: true },
);
