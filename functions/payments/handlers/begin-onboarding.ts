import { callerId } from '../../core/auth';
import { httpHandler } from '../../http';
import { beginOnboarding } from '../onboarding';
import { paymentsDeps } from '../payments.deps';
import { paymentsRoutes } from '../payments.routes';

/** POST /api/payment-gateway/onboarding-minter/begin */
export const handler = httpHandler(paymentsRoutes.beginOnboarding, async ({ auth, body, now }) =>
  beginOnboarding(paymentsDeps(), { userId: callerId(auth), country: body.country }, now),
);
