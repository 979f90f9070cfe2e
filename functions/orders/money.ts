import type { MoneyOverview, Order } from '../../shared/schemas/orders';
import type { OrdersDeps } from './ports';

/** At most this many of each list (support reads the soonest; the rest follow as they are dealt with). */
const LIMIT = 100;

/**
 * `GET /api/admin/money` (support): what needs a person about money — the orders whose payment is
 * disputed (soonest evidence deadline first: Stripe closes a dispute unanswered as lost), the
 * accounts that owe the platform (reversals Stripe refused, what was kept back since) with their
 * nicks, and what reconciliation with Stripe found (refused payouts among them).
 */
export async function moneyOverview(deps: OrdersDeps): Promise<MoneyOverview> {
  const [disputed, owed, findings] = await Promise.all([
    deps.repo.openDisputes(LIMIT),
    deps.repo.listOwed(LIMIT),
    deps.payments.findings(LIMIT),
  ]);
  const nicks = new Map(
    await Promise.all(
      [...new Set(owed.map((account) => account.user_id))].map(
        async (userId) => [userId, (await deps.partyOf(userId))?.nick ?? null] as const,
      ),
    ),
  );
  return {
    disputes: disputed.flatMap((record) =>
      record.dispute === undefined || record.dispute === null
        ? []
        : [
            {
              order_id: record.id,
              item_title: record.item.title,
              seller: record.seller,
              buyer: record.buyer,
              dispute: {
                ...record.dispute,
                currency: record.dispute.currency as Order['currency'],
              },
            },
          ],
    ),
    owed: owed.map((account) => ({
      user_id: account.user_id,
      nick: nicks.get(account.user_id) ?? null,
      currency: account.currency as Order['currency'],
      amount: account.amount,
      lines: account.lines,
    })),
    findings,
  };
}
