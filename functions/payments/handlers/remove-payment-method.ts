import { callerId } from '../../core/auth';
import { httpHandler } from '../../http';
import { removeCard } from '../cards';
import { paymentsDeps } from '../payments.deps';
import { paymentsRoutes } from '../payments.routes';

/** POST /api/payment-gateway/remove-payment-method */
export const handler = httpHandler(
  paymentsRoutes.removePaymentMethod,
  async ({ auth, body, now }) =>
    removeCard(paymentsDeps(), { userId: callerId(auth), paymentMethod: body.payment_method }, now),
);
