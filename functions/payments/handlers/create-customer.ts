import { callerId } from '../../core/auth';
import { httpHandler } from '../../http';
import { ensureCustomer } from '../cards';
import { paymentsDeps } from '../payments.deps';
import { paymentsRoutes } from '../payments.routes';

/** POST /api/payment-gateway/create-customer */
export const handler = httpHandler(paymentsRoutes.createCustomer, async ({ auth, now }) => ({
  customer_id: await ensureCustomer(paymentsDeps(), callerId(auth), now),
}));
