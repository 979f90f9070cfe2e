import { httpHandler } from '../../core/http';
import { itemPathSchema } from '../../../shared/schemas/items';
import { abandonCreation } from '../create-item';
import { requireCaller } from '../items';
import { itemsRepo } from '../items.deps';

/** DELETE /api/users/{id}/token/create/{itemId} */
export const handler = httpHandler({ auth: 'user', path: itemPathSchema }, async ({ path, auth }) =>
  abandonCreation(
    { repo: itemsRepo() },
    { userId: requireCaller(auth, path.id), itemId: path.itemId },
  ),
);
