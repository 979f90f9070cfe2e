import { DomainError } from '../../core/errors';
import { httpHandler } from '../../core/http';
import { createItemBodySchema, itemsUserPathSchema } from '../../../shared/schemas/items';
import { readSwitches } from '../../../shared/switches';
import { createItem } from '../create-item';
import { requireCaller } from '../items';
import { createItemDeps } from '../items.deps';

const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_.:-]{8,128}$/;

/** POST /api/users/{id}/token/create (header Idempotency-Key required) */
export const handler = httpHandler(
  {
    auth: 'user',
    path: itemsUserPathSchema,
    body: createItemBodySchema({ mintableTypes: readSwitches(process.env).mintableTypes }),
  },
  async ({ path, body, auth, event, now }) => {
    const userId = requireCaller(auth, path.id);
    const idempotencyKey = event.headers?.['idempotency-key'];
    if (idempotencyKey === undefined || !IDEMPOTENCY_KEY_PATTERN.test(idempotencyKey)) {
      throw new DomainError('invalid_request', {
        message: 'The Idempotency-Key header is required (8–128 letters, digits, _ . : -).',
        fields: { 'Idempotency-Key': 'forms.validation.required' },
      });
    }
    return createItem(createItemDeps(), { userId, idempotencyKey, contract: body.contract }, now);
  },
);
