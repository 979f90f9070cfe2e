import { callerId } from '../../core/auth';
import { httpHandler } from '../../http';
import { setDefaultCard } from '../cards';
import { paymentsDeps } from '../payments.deps';
import { paymentsRoutes } from '../payments.routes';

/** POST /api/payment-gateway/default-payment-method */
export const handler = httpHandler(
  paymentsRoutes.defaultPaymentMethod,
  async ({ auth, body, now }) =>
    setDefaultCard(
      paymentsDeps(),
      { userId: callerId(auth), paymentMethod: body.payment_method },
      now,
    ),
);
