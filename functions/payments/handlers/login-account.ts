import { callerId } from '../../core/auth';
import { httpHandler } from '../../http';
import { loginAccount } from '../onboarding';
import { paymentsDeps } from '../payments.deps';
import { paymentsRoutes } from '../payments.routes';

/** POST /api/payment-gateway/login-account */
export const handler = httpHandler(paymentsRoutes.loginAccount, async ({ auth }) =>
  loginAccount(paymentsDeps(), callerId(auth)),
);
