import { callerId } from '../../core/auth';
import { httpHandler } from '../../http';
import { userBalance } from '../onboarding';
import { paymentsDeps } from '../payments.deps';
import { paymentsRoutes } from '../payments.routes';

/** GET /api/payment-gateway/getuserbalance */
export const handler = httpHandler(paymentsRoutes.userBalance, async ({ auth }) =>
  userBalance(paymentsDeps(), callerId(auth)),
);
