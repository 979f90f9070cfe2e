import { callerId } from '../../core/auth';
import { httpHandler } from '../../http';
import { createCardSetup } from '../cards';
import { paymentsDeps } from '../payments.deps';
import { paymentsRoutes } from '../payments.routes';

/** POST /api/payment-gateway/create-setup-intent */
export const handler = httpHandler(paymentsRoutes.createSetupIntent, async ({ auth, now }) =>
  createCardSetup(paymentsDeps(), callerId(auth), now),
);
