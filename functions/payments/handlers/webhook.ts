import { httpHandler } from '../../http';
import { paymentsDeps } from '../payments.deps';
import { paymentsRoutes } from '../payments.routes';
import { handleWebhook } from '../webhook';

/** POST /api/payment-gateway/webhook (public; the raw body is what Stripe signed). */
export const handler = httpHandler(paymentsRoutes.webhook, async ({ event, now }) => {
  const raw = event.body ?? '';
  const payload = event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
  return handleWebhook(
    paymentsDeps(),
    { payload, signature: event.headers?.['stripe-signature'] },
    now,
  );
});
