import { callerId } from '../../core/auth';
import { httpHandler } from '../../http';
import { ordersDeps } from '../orders.deps';
import { ordersRoutes } from '../orders.routes';
import { retrieveById } from '../queries';

/** POST /api/order/retrievebyid {order_id} */
export const handler = httpHandler(ordersRoutes.retrieveById, async ({ auth, body, now }) =>
  retrieveById(
    ordersDeps(),
    {
      callerId: callerId(auth),
      orderId: body.order_id,
      support: auth?.groups.includes('admin') === true,
    },
    now,
  ),
);
