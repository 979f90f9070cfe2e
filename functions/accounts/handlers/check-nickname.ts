import { httpHandler } from '../../core/http';
import { checkNickPathSchema } from '../../../shared/schemas/accounts';
import { checkAvailability } from '../register';
import { accountsRepo } from '../register.deps';

/** GET /api/users/check-nickname/{value} */
export const handler = httpHandler(
  { auth: 'public', path: checkNickPathSchema },
  async ({ path }) => checkAvailability({ repo: accountsRepo() }, 'nick', path.value),
);
