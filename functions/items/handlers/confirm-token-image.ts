import { httpHandler } from '../../core/http';
import { itemsUserPathSchema, uploadConfirmBodySchema } from '../../../shared/schemas/items';
import { requireCaller } from '../items';
import { uploadsDeps } from '../items.deps';
import { confirmUpload } from '../uploads';

/** POST /api/users/{id}/store-token-images/confirm */
export const handler = httpHandler(
  { auth: 'user', path: itemsUserPathSchema, body: uploadConfirmBodySchema },
  async ({ path, body, auth, now }) =>
    confirmUpload(
      uploadsDeps(),
      { userId: requireCaller(auth, path.id), uploadId: body.upload_id },
      now,
    ),
);
