import { httpHandler } from '../../http';
import { itemsRoutes } from '../items.routes';
import { queriesDeps } from '../items.deps';
import { switchVisibility } from '../queries';

/** POST /api/users/{id}/token/switch-visibility */
export const handler = httpHandler(itemsRoutes.switchVisibility, async ({ path, body }) =>
  switchVisibility(queriesDeps(), {
    userId: path.id,
    itemId: body.item_id,
    visible: body.visible,
  }),
);
