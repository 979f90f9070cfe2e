import { httpHandler } from '../../http';
import { moneyOverview } from '../money';
import { ordersDeps } from '../orders.deps';
import { ordersRoutes } from '../orders.routes';

/** GET /api/admin/money (admins) */
export const handler = httpHandler(ordersRoutes.adminMoney, () => moneyOverview(ordersDeps()));
