import { callerId } from '../../core/auth';
import { httpHandler } from '../../http';
import { refreshOnboarding } from '../onboarding';
import { paymentsDeps } from '../payments.deps';
import { paymentsRoutes } from '../payments.routes';

/** POST /api/payment-gateway/onboarding-minter/refresh */
export const handler = httpHandler(paymentsRoutes.refreshOnboarding, async ({ auth }) =>
  refreshOnboarding(paymentsDeps(), callerId(auth)),
);
