import { callerId } from '../../core/auth';
import { httpHandler } from '../../http';
import { listCards } from '../cards';
import { paymentsDeps } from '../payments.deps';
import { paymentsRoutes } from '../payments.routes';

/** GET /api/payment-gateway/payment-methods */
export const handler = httpHandler(paymentsRoutes.listPaymentMethods, async ({ auth, now }) =>
  listCards(paymentsDeps(), callerId(auth), now),
);
