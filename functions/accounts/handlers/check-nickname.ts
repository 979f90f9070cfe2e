import { httpHandler } from '../../http';
import { accountsRoutes } from '../accounts.routes';
import { checkAvailability } from '../register';
import { accountsRepo } from '../register.deps';

/** GET /api/users/check-nickname/{value} */
export const handler = httpHandler(accountsRoutes.checkNickname, async ({ path }) =>
  checkAvailability({ repo: accountsRepo() }, 'nick', path.value),
);
