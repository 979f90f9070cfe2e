import { httpHandler } from '../../http';
import { accountsRoutes } from '../accounts.routes';
import { checkAvailability } from '../register';
import { accountsRepo } from '../register.deps';

/** GET /api/users/check-email/{value} */
export const handler = httpHandler(accountsRoutes.checkEmail, async ({ path }) =>
  checkAvailability({ repo: accountsRepo() }, 'email', path.value),
);
