import { httpHandler } from '../../http';
import { itemsRoutes } from '../items.routes';
import { createItemBodySchema } from '../../../shared/schemas/items';
import { readSwitches } from '../../../shared/switches';
import { createItem } from '../create-item';
import { createItemDeps } from '../items.deps';

/**
 * POST /api/users/{id}/token/create (header Idempotency-Key required: the route's option). The
 * body schema follows this deployment's mintableTypes switch.
 */
export const handler = httpHandler(
  itemsRoutes.createToken,
  async ({ path, body, idempotencyKey, now }) => {
    if (idempotencyKey === undefined) throw new Error('idempotency middleware let a call through');
    return createItem(
      createItemDeps(),
      { userId: path.id, idempotencyKey, contract: body.contract },
      now,
    );
  },
  { body: createItemBodySchema({ mintableTypes: readSwitches(process.env).mintableTypes }) },
);
