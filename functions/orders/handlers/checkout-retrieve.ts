import { callerId } from '../../core/auth';
import { httpHandler } from '../../http';
import { ordersDeps } from '../orders.deps';
import { ordersRoutes } from '../orders.routes';
import { checkoutStatus } from '../payment';

/** POST /api/payment-gateway/checkout/retrieve {session_id} */
export const handler = httpHandler(ordersRoutes.checkoutRetrieve, async ({ auth, body, now }) =>
  checkoutStatus(ordersDeps(), { callerId: callerId(auth), sessionId: body.session_id }, now),
);
