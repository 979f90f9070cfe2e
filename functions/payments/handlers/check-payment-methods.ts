import { callerId } from '../../core/auth';
import { httpHandler } from '../../http';
import { checkCards } from '../cards';
import { paymentsDeps } from '../payments.deps';
import { paymentsRoutes } from '../payments.routes';

/** POST /api/payment-gateway/check-payment-methods */
export const handler = httpHandler(paymentsRoutes.checkPaymentMethods, async ({ auth, now }) =>
  checkCards(paymentsDeps(), callerId(auth), now),
);
