import { callerId } from '../../core/auth';
import { httpHandler } from '../../http';
import { ordersDeps } from '../orders.deps';
import { ordersRoutes } from '../orders.routes';
import { retrieveByOffering } from '../queries';

/** POST /api/order/retrievebyofferinguser {offeringid, customerNick} */
export const handler = httpHandler(ordersRoutes.retrieveByOffering, async ({ auth, body, now }) =>
  retrieveByOffering(
    ordersDeps(),
    {
      callerId: callerId(auth),
      offeringId: body.offeringid,
      customerNick: body.customerNick,
      cursor: body.last,
    },
    now,
  ),
);
