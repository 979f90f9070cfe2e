import { httpHandler } from '../../http';
import { itemsRoutes } from '../items.routes';
import { uploadsDeps } from '../items.deps';
import { confirmUpload } from '../uploads';

/** POST /api/users/{id}/store-token-images/confirm */
export const handler = httpHandler(itemsRoutes.confirmTokenImage, async ({ path, body, now }) =>
  confirmUpload(uploadsDeps(), { userId: path.id, uploadId: body.upload_id }, now),
);
