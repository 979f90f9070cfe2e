import { Reply } from '../../core/http';
import { httpHandler } from '../../http';
import { createOffering } from '../create-offering';
import { offeringsDeps } from '../offerings.deps';
import { offeringsRoutes } from '../offerings.routes';

/** POST /api/users/{id}/offering/create (Idempotency-Key required): 202 and the progress. */
export const handler = httpHandler(
  offeringsRoutes.createOffering,
  async ({ path, body, idempotencyKey, now }) => {
    if (idempotencyKey === undefined) throw new Error('idempotency middleware let a call through');
    return new Reply(
      202,
      await createOffering(offeringsDeps(), path.id, body.offering, idempotencyKey, now),
    );
  },
);
