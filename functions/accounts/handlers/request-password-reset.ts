import { DomainError } from '../../core/errors';
import { checkNoBody } from '../../core/http';
import { httpHandler } from '../../http';
import { accountsRoutes } from '../accounts.routes';
import { passwordEmailPathSchema } from '../../../shared/schemas/accounts';
import { requestPasswordReset } from '../password-reset';
import { parseInput, passwordResetDeps } from '../password-reset.deps';

/**
 * POST /api/password/email/{email} (spec 001 §7 `GET password/email/{email}`: it sends an e-mail
 * and writes a token, so a POST at the same path; docs/api.md). 404 while passwordLogin is off.
 */
export const handler = httpHandler(
  accountsRoutes.requestPasswordReset,
  async ({ event, now }) => {
    const deps = passwordResetDeps();
    if (!deps.passwordLogin) {
      throw new DomainError('not_found', { message: 'This page could not be found' });
    }
    checkNoBody(event);
    const path = parseInput(passwordEmailPathSchema, event.pathParameters ?? {}, 'path');
    return requestPasswordReset(deps, { email: path.email }, now);
  },
  // Validated inside, after the passwordLogin switch: a switched-off deployment answers 404 first.
  { path: undefined, ignoreBody: true },
);
