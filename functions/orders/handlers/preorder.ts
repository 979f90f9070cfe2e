import { Reply } from '../../core/http';
import { httpHandler } from '../../http';
import { preorder } from '../booking';
import { ordersDeps } from '../orders.deps';
import { ordersRoutes } from '../orders.routes';

/** POST /api/users/{id}/offering/assigntoken2preorder: 201 and the booked order. */
export const handler = httpHandler(
  ordersRoutes.preorder,
  async ({ path, body, idempotencyKey, now }) =>
    new Reply(
      201,
      await preorder(
        ordersDeps(),
        {
          callerId: path.id,
          offeringId: body.order.offeringid,
          quantity: body.order.quantity,
          postaladdress: body.order.postaladdress,
          idempotencyKey,
        },
        now,
      ),
    ),
);
