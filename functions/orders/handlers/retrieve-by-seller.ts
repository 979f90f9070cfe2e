import { callerId } from '../../core/auth';
import { httpHandler } from '../../http';
import { ordersDeps } from '../orders.deps';
import { ordersRoutes } from '../orders.routes';
import { retrieveBySeller } from '../queries';

/** POST /api/order/retrievebyselleruser {last} */
export const handler = httpHandler(ordersRoutes.retrieveBySeller, async ({ auth, body, now }) =>
  retrieveBySeller(ordersDeps(), { callerId: callerId(auth), cursor: body.last }, now),
);
