import { httpHandler } from '../../core/http';
import { itemsUserPathSchema, switchVisibilityBodySchema } from '../../../shared/schemas/items';
import { requireCaller } from '../items';
import { queriesDeps } from '../items.deps';
import { switchVisibility } from '../queries';

/** POST /api/users/{id}/token/switch-visibility */
export const handler = httpHandler(
  { auth: 'user', path: itemsUserPathSchema, body: switchVisibilityBodySchema },
  async ({ path, body, auth }) =>
    switchVisibility(queriesDeps(), {
      userId: requireCaller(auth, path.id),
      itemId: body.item_id,
      visible: body.visible,
    }),
);
