import { httpHandler } from '../../http';
import { updateOrder } from '../fulfilment';
import { ordersDeps } from '../orders.deps';
import { ordersRoutes } from '../orders.routes';

/** POST /api/users/{id}/offering/updateorder/{orderId} */
export const handler = httpHandler(ordersRoutes.updateOrder, async ({ path, body, now }) =>
  updateOrder(ordersDeps(), { callerId: path.id, orderId: path.orderId, body }, now),
);
