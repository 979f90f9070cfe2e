import { httpHandler } from '../../core/http';
import { checkMobilePathSchema } from '../../../shared/schemas/accounts';
import { checkAvailability } from '../register';
import { accountsRepo } from '../register.deps';

/** GET /api/users/check-mobile/{value} */
export const handler = httpHandler(
  { auth: 'public', path: checkMobilePathSchema },
  async ({ path }) => checkAvailability({ repo: accountsRepo() }, 'phone', path.value),
);
