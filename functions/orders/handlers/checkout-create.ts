import { callerId } from '../../core/auth';
import { httpHandler } from '../../http';
import { ordersDeps } from '../orders.deps';
import { ordersRoutes } from '../orders.routes';
import { startCheckout } from '../payment';

/** POST /api/payment-gateway/checkout/create {order_id} */
export const handler = httpHandler(ordersRoutes.checkoutCreate, async ({ auth, body, now }) =>
  startCheckout(ordersDeps(), { callerId: callerId(auth), orderId: body.order_id }, now),
);
