import { httpHandler } from '../../core/http';
import { checkEmailPathSchema } from '../../../shared/schemas/accounts';
import { checkAvailability } from '../register';
import { accountsRepo } from '../register.deps';

/** GET /api/users/check-email/{value} */
export const handler = httpHandler(
  { auth: 'public', path: checkEmailPathSchema },
  async ({ path }) => checkAvailability({ repo: accountsRepo() }, 'email', path.value),
);
