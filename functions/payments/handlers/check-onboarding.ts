import { callerId } from '../../core/auth';
import { httpHandler } from '../../http';
import { checkOnboarding } from '../onboarding';
import { paymentsDeps } from '../payments.deps';
import { paymentsRoutes } from '../payments.routes';

/** GET /api/payment-gateway/onboarding-minter/check */
export const handler = httpHandler(paymentsRoutes.checkOnboarding, async ({ auth }) =>
  checkOnboarding(paymentsDeps(), callerId(auth)),
);
