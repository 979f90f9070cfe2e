import { httpHandler } from '../../core/http';
import { itemsUserPathSchema, uploadRequestSchema } from '../../../shared/schemas/items';
import { requireCaller } from '../items';
import { uploadsDeps } from '../items.deps';
import { createUpload } from '../uploads';

/** POST /api/users/{id}/store-token-images */
export const handler = httpHandler(
  { auth: 'user', path: itemsUserPathSchema, body: uploadRequestSchema },
  async ({ path, body, auth, now }) =>
    createUpload(uploadsDeps(), { userId: requireCaller(auth, path.id), body }, now),
);
