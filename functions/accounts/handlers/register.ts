import { httpHandler } from '../../http';
import { Reply } from '../../core/http';
import { accountsRoutes } from '../accounts.routes';
import { register } from '../register';
import { registerDeps } from '../register.deps';

/** POST /api/users/register (optional Idempotency-Key header: the route's option) */
export const handler = httpHandler(
  accountsRoutes.register,
  async ({ body, idempotencyKey, now }) => {
    const { result } = await register(registerDeps(), { user: body.user, idempotencyKey }, now);
    return new Reply(201, result);
  },
);
