import { callerId } from '../../core/auth';
import { Reply } from '../../core/http';
import { httpHandler } from '../../http';
import { preorder } from '../booking';
import { ordersDeps } from '../orders.deps';
import { ordersRoutes } from '../orders.routes';

/** POST /api/order/create: the booking in the card payment calls' shape (one line). */
export const handler = httpHandler(
  ordersRoutes.createOrder,
  async ({ auth, body, idempotencyKey, now }) => {
    const [line] = body.checkout.items;
    if (line === undefined) throw new Error('the schema lets no empty order through');
    return new Reply(
      201,
      await preorder(
        ordersDeps(),
        {
          callerId: callerId(auth),
          offeringId: line.itemId,
          quantity: line.quantity,
          postaladdress: body.postaladdress,
          idempotencyKey,
        },
        now,
      ),
    );
  },
);
