import { moneyOverviewSchema, type MoneyOverview } from '@shared/schemas/orders';
import { sessionSchema, type Session } from '@shared/schemas/sessions';
import { apiGet } from '../../../lib/api';

export const adminKeys = {
  session: (userId: string) => ['admin', 'session', userId] as const,
  money: ['admin', 'money'] as const,
};

/** GET /api/session: the caller as the API sees them, with the `admin` flag (support). */
export function fetchSession(signal?: AbortSignal): Promise<Session> {
  return apiGet('/session', { schema: sessionSchema, signal });
}

/**
 * GET /api/admin/money (support): open disputes (soonest evidence deadline first), accounts that
 * owe the platform, and what reconciliation with Stripe found.
 */
export function fetchMoneyOverview(signal?: AbortSignal): Promise<MoneyOverview> {
  return apiGet('/admin/money', { schema: moneyOverviewSchema, signal });
}
