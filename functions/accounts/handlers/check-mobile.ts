import { httpHandler } from '../../http';
import { accountsRoutes } from '../accounts.routes';
import { checkAvailability } from '../register';
import { accountsRepo } from '../register.deps';

/** GET /api/users/check-mobile/{value} */
export const handler = httpHandler(accountsRoutes.checkMobile, async ({ path }) =>
  checkAvailability({ repo: accountsRepo() }, 'phone', path.value),
);
