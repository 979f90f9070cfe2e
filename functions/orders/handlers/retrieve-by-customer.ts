import { callerId } from '../../core/auth';
import { httpHandler } from '../../http';
import { ordersDeps } from '../orders.deps';
import { ordersRoutes } from '../orders.routes';
import { retrieveByCustomer } from '../queries';

/** POST /api/order/retrievebycustomeruser {last} */
export const handler = httpHandler(ordersRoutes.retrieveByCustomer, async ({ auth, body, now }) =>
  retrieveByCustomer(ordersDeps(), { callerId: callerId(auth), cursor: body.last }, now),
);
