import { callerId } from '../../core/auth';
import { httpHandler } from '../../http';
import { ordersDeps } from '../orders.deps';
import { ordersRoutes } from '../orders.routes';
import { retrieveMarket } from '../queries';

/** GET /api/order/retrievemarket?cursor= */
export const handler = httpHandler(ordersRoutes.retrieveMarket, async ({ auth, query, now }) =>
  retrieveMarket(ordersDeps(), { callerId: callerId(auth), cursor: query.cursor }, now),
);
