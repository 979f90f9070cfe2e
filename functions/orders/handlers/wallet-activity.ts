import { callerId } from '../../core/auth';
import { httpHandler } from '../../http';
import { ordersDeps } from '../orders.deps';
import { ordersRoutes } from '../orders.routes';
import { walletActivity } from '../queries';

/** GET /api/payment-gateway/activity?cursor= */
export const handler = httpHandler(ordersRoutes.walletActivity, async ({ auth, query }) =>
  walletActivity(ordersDeps(), { callerId: callerId(auth), cursor: query.cursor }),
);
