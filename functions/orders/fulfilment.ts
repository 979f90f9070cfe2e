import { DomainError } from '../core/errors';
import type { Order, UpdateOrderBody } from '../../shared/schemas/orders';
import { applyOrderEvent, copiesBackPieces, orderNotFound } from './apply';
import type { OrderEvent } from './order.machine';
import { toOrder } from './orders';
import type { OrdersDeps } from './ports';

/**
 * `POST users/{id}/offering/updateorder/{orderId}` (issue 12 §5): the seller ships (carrier and
 * tracking number), cancels before shipping (a full refund, the copies back), or asks for a
 * deposit order's balance; the buyer confirms receipt. A cancel takes the copies back in the same
 * write as its status (refused, 409 `orders.errors.copies_not_returnable`, when the buyer listed or
 * moved them since), then refunds. Each moves the order through its machine,
 * which notifies the other side; a repeated action answers the order as it is.
 */
const SELLER_ACTIONS: readonly UpdateOrderBody['action'][] = ['ship', 'cancel', 'ready'];

export async function updateOrder(
  deps: OrdersDeps,
  input: { callerId: string; orderId: string; body: UpdateOrderBody },
  now: Date,
): Promise<Order> {
  const record = await deps.repo.get(input.orderId);
  if (
    record === undefined ||
    (record.buyer.id !== input.callerId && record.seller.id !== input.callerId)
  ) {
    throw orderNotFound();
  }
  const sellerAction = SELLER_ACTIONS.includes(input.body.action);
  if (sellerAction !== (record.seller.id === input.callerId)) {
    throw new DomainError('orders.errors.not_party', {
      message: sellerAction
        ? 'Only the seller can do that.'
        : 'Only the buyer can confirm receipt.',
    });
  }
  const body = input.body;
  let event: OrderEvent;
  switch (body.action) {
    case 'ship':
      event = { type: 'ship', carrier: body.carrier, tracking: body.tracking };
      break;
    case 'confirm_receipt':
      event = { type: 'confirm_receipt' };
      break;
    case 'cancel':
      event = { type: 'cancel', reason: body.reason };
      break;
    case 'ready':
      event = { type: 'ready' };
      break;
  }
  const { record: next } = await applyOrderEvent(deps, record.id, event, now, {
    strict: true,
    patch:
      body.action === 'ship'
        ? () => ({
            shipment: {
              carrier: body.carrier,
              tracking: body.tracking,
              shipped_at: now.toISOString(),
            },
          })
        : undefined,
    // The copies come back in the same write as the cancel, or the cancel is refused: a refund
    // never leaves the buyer the copies.
    with:
      body.action === 'cancel'
        ? (current) => copiesBackPieces(deps, current, now, { all: true })
        : undefined,
  });
  return toOrder(next, input.callerId, deps.imagesBaseUrl, now);
}
