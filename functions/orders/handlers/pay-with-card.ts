import { callerId } from '../../core/auth';
import { httpHandler } from '../../http';
import { ordersDeps } from '../orders.deps';
import { ordersRoutes } from '../orders.routes';
import { payWithSavedCard } from '../payment';

/** POST /api/payment-gateway/create-payment-intent {order_id, payment_method?} */
export const handler = httpHandler(ordersRoutes.payWithCard, async ({ auth, body, now }) =>
  payWithSavedCard(
    ordersDeps(),
    { callerId: callerId(auth), orderId: body.order_id, paymentMethod: body.payment_method },
    now,
  ),
);
