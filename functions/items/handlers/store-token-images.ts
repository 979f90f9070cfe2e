import { httpHandler } from '../../http';
import { itemsRoutes } from '../items.routes';
import { uploadsDeps } from '../items.deps';
import { createUpload } from '../uploads';

/** POST /api/users/{id}/store-token-images */
export const handler = httpHandler(itemsRoutes.storeTokenImages, async ({ path, body, now }) =>
  createUpload(uploadsDeps(), { userId: path.id, body }, now),
);
