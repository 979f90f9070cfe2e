import type { CurrencyCode } from '../../shared/money';
import type { ProductType } from '../../shared/switches';
import type { Order, OrderStatus, PostalAddress } from '../../shared/schemas/orders';
import { splitPayment, type Split } from '../../shared/split';
import { imageUrls, type StoredImage } from '../items/index';
import {
  buyerPartition,
  OPEN_DISPUTES_PARTITION,
  offeringOrdersPartition,
  openDisputeSort,
  orderDuePartition,
  orderDueSort,
  sellerPartition,
} from './orders.keys';
import {
  canCancel,
  canConfirmReceipt,
  canShip,
  isBooked,
  type OrderState,
  type StoredPayment,
} from './order.machine';

export type { StoredPayment };

/**
 * The order record (spec 000 §3 Order; issue 12) and what the calls answer of it. One order is one
 * line: copies of one offering bought by one buyer. The record keeps what it needs to act without
 * reading other domains again (the parties, the item's summary, the split's inputs), and the
 * history of its payments and transfers, so the order page is one GetItem.
 */
export interface OrderParty {
  id: string;
  nick: string;
}

export interface StoredTransfer {
  party: 'seller' | 'creator' | 'beneficiary';
  user: OrderParty;
  amount: number;
  /** The charge it is paid from (one transfer per party per charge). */
  charge_id: string;
  state:
    'held' | 'paid' | 'reversed' | 'waiting_account' | 'reversal_failed' | 'blocked' | 'frozen';
  /** Taken back because the payment was disputed: due again if the dispute is won. */
  clawed_back?: true;
  /** How many times the share was paid out again after a won dispute (its transfer's key). */
  round?: number;
  /** Why Stripe refused to pay the share out (state `blocked`: support looks into it). */
  blocked_reason?: string;
  transfer_id: string | null;
  /** Kept back from this share to pay off what the account owed (orders.repo settleOwed). */
  netted?: number;
  /** A reversal Stripe refused: what the account still owes of this share. */
  owed?: number;
}

export interface OrderItem {
  id: string;
  title: string;
  product_type: ProductType;
  image: StoredImage;
}

export interface TimelineEntry {
  status: OrderStatus;
  label: string;
  at: string;
}

export interface OrderRecord extends OrderState {
  id: string;
  offering_id: string;
  item: OrderItem;
  seller: OrderParty;
  buyer: OrderParty;
  creator: OrderParty;
  beneficiary: (OrderParty & { share: number }) | null;
  royalty_percent: number | null;
  /** The seller is the item's creator. */
  first_sale: boolean;
  sub_scope: 'purchase' | 'auction';
  /** Auction orders (spec 000 §3 Order assignround): made for a winner or a substitute. */
  assignround: 'winner' | 'substitute' | null;
  /** Bought at an auction's buy-now price (its copies came out of the lot's bidding). */
  buy_now?: boolean;
  quantity: number;
  /** The copies' serials (booked, then sold). */
  serials: number[];
  currency: CurrencyCode;
  /** Price per copy. */
  unit_price: number;
  /** Deposit per copy (deposit mode), else null. */
  unit_deposit: number | null;
  postaladdress: PostalAddress | null;
  pickup: Order['pickup'];
  /** The open Checkout Session (payment page), if any. */
  session_id: string | null;
  session_url: string | null;
  /**
   * The PaymentIntent each kind of charge is paid with from saved cards (one per order and kind:
   * payments' openOrderIntent); absent until the first saved-card attempt.
   */
  card_intents?: Partial<Record<StoredPayment['kind'], string>>;
  transfers: StoredTransfer[];
  refunded: number;
  shipment: { carrier: string; tracking: string; shipped_at: string } | null;
  timeline: TimelineEntry[];
  idempotency_key: string | null;
  fingerprint: string;
  created_at: string;
  updated_at: string;
  version: number;
}

/** What the buyer pays in all. */
export function totalOf(record: Pick<OrderRecord, 'unit_price' | 'quantity'>): number {
  return record.unit_price * record.quantity;
}

/** What checkout charges now: the whole price, or the deposits. */
export function dueNowOf(
  record: Pick<OrderRecord, 'unit_price' | 'unit_deposit' | 'quantity' | 'payment_mode'>,
): number {
  return record.payment_mode === 'deposit' && record.unit_deposit !== null
    ? record.unit_deposit * record.quantity
    : record.unit_price * record.quantity;
}

/**
 * What a deposit order still owes after its own payments so far (minor units); 0 for full price.
 * An extra payment (refunded at once) pays nothing of it.
 */
export function balanceOwedOf(
  record: Pick<OrderRecord, 'payment_mode' | 'unit_price' | 'quantity' | 'payments'>,
): number {
  if (record.payment_mode !== 'deposit') return 0;
  const own = record.payments
    .filter(
      (payment) =>
        payment.extra !== true && (payment.status === 'succeeded' || payment.status === 'refunded'),
    )
    .reduce((sum, payment) => sum + payment.amount, 0);
  return Math.max(0, totalOf(record) - own);
}

/** Every amount the buyer's card was charged for the order (`refunded` says what went back). */
export function paidOf(record: Pick<OrderRecord, 'payments'>): number {
  return record.payments
    .filter((payment) => payment.status === 'succeeded' || payment.status === 'refunded')
    .reduce((sum, payment) => sum + payment.amount, 0);
}

/** The split of an amount of this order (shared/split.ts). */
export function splitOf(record: OrderRecord, amount: number): Split {
  return splitPayment({
    gross: { amount, currency: record.currency },
    firstSale: record.first_sale,
    royaltyPercent: record.royalty_percent,
    beneficiaryPercent: record.beneficiary?.share ?? null,
  });
}

/**
 * The index keys its status implies: a seller (and the offering's list) sees an order once a
 * payment succeeded for it, including one refunded at once (payment_expired).
 */
export function indexKeysOf(record: OrderRecord): Record<string, string> {
  const keys: Record<string, string> = {
    gsi1pk: buyerPartition(record.buyer.id),
    gsi1sk: record.id,
  };
  if (!isBooked(record) && record.status !== 'order_expired') {
    keys.gsi2pk = sellerPartition(record.seller.id);
    keys.gsi2sk = record.id;
    keys.gsi3pk = offeringOrdersPartition(record.offering_id);
    keys.gsi3sk = record.id;
  }
  const due = dueAtOf(record);
  if (due !== null) {
    keys.gsi4pk = orderDuePartition(record.id);
    keys.gsi4sk = orderDueSort(due, record.id);
  }
  if (record.dispute?.status === 'open') {
    keys.gsi5pk = OPEN_DISPUTES_PARTITION;
    keys.gsi5sk = openDisputeSort(
      record.dispute.evidence_due_by ?? record.dispute.opened_at,
      record.id,
    );
  }
  return keys;
}

/**
 * When the order next needs acting on if its own timer or call does not (the order sweeper's
 * index): the booking's end while it is booked, the payouts' release while a shipped or picked-up
 * order waits for it, and at once (its last write) while money or copies are left half-moved — a
 * sale being honoured, a refund or a reversal not done, an extra payment not refunded yet, held
 * shares of a fulfilled order, a balance asked for and not charged. null: nothing is due.
 */
export function dueAtOf(record: OrderRecord): string | null {
  if (isBooked(record)) return record.booking_expires_at;
  if (
    record.status === 'paid' &&
    record.release_at !== null &&
    (record.fulfilment === 'shipped' || record.delivery === 'pickup')
  ) {
    return record.release_at;
  }
  // A digital order's payout hold (its shares held until then).
  if (record.status === 'fulfilled' && record.delivery === 'none' && record.release_at !== null) {
    return record.release_at;
  }
  return unsettled(record) ? record.updated_at : null;
}

/** Money or copies left half-moved by a step that did not finish (see dueAtOf). */
function unsettled(record: OrderRecord): boolean {
  const succeeded = (payment: StoredPayment) => payment.status === 'succeeded';
  if (record.payments.some((payment) => payment.extra === true && succeeded(payment))) return true;
  switch (record.status) {
    case 'payment_intent_success':
      return true;
    case 'cancelled':
      return (
        record.payments.some(succeeded) ||
        record.transfers.some(
          (entry) => entry.state !== 'reversed' && entry.state !== 'reversal_failed',
        )
      );
    case 'payment_expired':
      return record.payments.some(succeeded);
    case 'fulfilled':
      return payoutsReleased(record) && record.transfers.some((entry) => entry.state === 'held');
    case 'checkout_complete':
      return balanceUncharged(record);
    default:
      return false;
  }
}

/**
 * Whether the order's payouts are released: fulfilled, and (for an order with nothing to send)
 * past its payout hold (release_due cleared `release_at`).
 */
export function payoutsReleased(
  record: Pick<OrderRecord, 'status' | 'delivery' | 'release_at'>,
): boolean {
  return (
    record.status === 'fulfilled' && (record.delivery !== 'none' || record.release_at === null)
  );
}

/** A deposit order's balance was asked for and has no outcome yet (no payment, no refusal). */
export function balanceUncharged(
  record: Pick<OrderRecord, 'status' | 'balance_requested' | 'payment_error' | 'payments'>,
): boolean {
  return (
    record.status === 'checkout_complete' &&
    record.balance_requested &&
    record.payment_error === null &&
    !record.payments.some((payment) => payment.kind === 'balance' && payment.extra !== true)
  );
}

export function nftUniqueIdOf(itemId: string, serial: number): string {
  return `${itemId}-${String(serial).padStart(3, '0')}`;
}

type OrderAction = Order['actions'][number];

/**
 * A deposit order whose balance was asked for and could not be charged off session (a declined
 * card, one that needs the buyer): the buyer pays it in checkout.
 */
export function balanceDue(
  record: Pick<OrderRecord, 'status' | 'balance_requested' | 'payment_error'>,
): boolean {
  return (
    record.status === 'checkout_complete' &&
    record.balance_requested &&
    record.payment_error !== null
  );
}

function actionsOf(record: OrderRecord, role: 'buyer' | 'seller', now: Date): OrderAction[] {
  const actions: OrderAction[] = [];
  if (role === 'buyer') {
    if (
      (isBooked(record) && now.getTime() < Date.parse(record.booking_expires_at)) ||
      balanceDue(record)
    ) {
      actions.push('pay');
    }
    if (canConfirmReceipt(record)) actions.push('confirm_receipt');
    return actions;
  }
  if (canShip(record)) actions.push('ship');
  if (
    record.status === 'checkout_complete' &&
    (!record.balance_requested || record.payment_error !== null)
  ) {
    actions.push('ready');
  }
  if (canCancel(record)) actions.push('cancel');
  return actions;
}

/** The order as the buyer or the seller sees it. */
export function toOrder(
  record: OrderRecord,
  viewerId: string,
  imagesBaseUrl: string,
  now: Date,
): Order {
  const role = viewerId === record.seller.id ? 'seller' : 'buyer';
  const total = totalOf(record);
  const dueNow = dueNowOf(record);
  const paid = paidOf(record);
  // The split the payouts follow: one per charge (a deposit order has two), summed.
  const charges = record.payment_mode === 'deposit' ? [dueNow, total - dueNow] : [total];
  const split = charges
    .filter((amount) => amount > 0)
    .map((amount) => splitOf(record, amount))
    .reduce(
      (sum, part) => ({
        gross: { ...sum.gross, amount: sum.gross.amount + part.gross.amount },
        fee: { ...sum.fee, amount: sum.fee.amount + part.fee.amount },
        royalty: { ...sum.royalty, amount: sum.royalty.amount + part.royalty.amount },
        creator: { ...sum.creator, amount: sum.creator.amount + part.creator.amount },
        beneficiary: {
          ...sum.beneficiary,
          amount: sum.beneficiary.amount + part.beneficiary.amount,
        },
        seller: { ...sum.seller, amount: sum.seller.amount + part.seller.amount },
      }),
      splitOf(record, 0),
    );
  return {
    id: record.id,
    status: record.status,
    scope: 'market',
    subScope: record.sub_scope,
    // An auction's orders share their offering as group; a purchase is its own.
    ordergroupid: record.sub_scope === 'auction' ? record.offering_id : record.id,
    assignround: record.assignround ?? null,
    offering_id: record.offering_id,
    item: {
      id: record.item.id,
      title: record.item.title,
      product_type: record.item.product_type,
      image: imageUrls(record.item.image, imagesBaseUrl),
    },
    seller: record.seller,
    buyer: record.buyer,
    sellerNick: record.seller.nick,
    lineItems: [
      {
        id: record.offering_id,
        name: record.item.title,
        deposit: record.unit_deposit,
        currency: record.currency as Order['currency'],
        amount: record.unit_price,
        quantity: record.quantity,
        nftuniqueids: record.serials.map((serial) => nftUniqueIdOf(record.item.id, serial)),
      },
    ],
    currency: record.currency as Order['currency'],
    payment_mode: record.payment_mode,
    total,
    due_now: dueNow,
    balance_due: balanceOwedOf(record),
    paid,
    refunded: record.refunded,
    split: {
      gross: split.gross.amount,
      fee: split.fee.amount,
      royalty: split.royalty.amount,
      creator: split.creator.amount,
      beneficiary: split.beneficiary.amount,
      seller: split.seller.amount,
      first_sale: record.first_sale,
      royalty_percent: record.first_sale ? null : record.royalty_percent,
      beneficiary_percent: record.beneficiary?.share ?? null,
    },
    payments: record.payments.map((payment) => ({
      kind: payment.kind,
      amount: payment.amount,
      currency: record.currency as Order['currency'],
      status: payment.status,
      payment_intent_id: payment.payment_intent_id,
      receipt_url: payment.receipt_url,
      paid_at: payment.paid_at,
      extra: payment.extra === true,
    })),
    transfers:
      role === 'seller' || record.transfers.some((entry) => entry.user.id === viewerId)
        ? record.transfers.map((entry) => ({
            party: entry.party,
            user: entry.user,
            amount: entry.amount,
            currency: record.currency as Order['currency'],
            state: entry.state,
            transfer_id: entry.transfer_id,
            netted: entry.netted ?? 0,
          }))
        : [],
    delivery: record.delivery,
    postaladdress: record.postaladdress,
    pickup: record.pickup,
    fulfilment: record.fulfilment,
    shipment: record.shipment,
    release_at: record.release_at,
    booking_expires_at: record.booking_expires_at,
    cancel_reason: record.cancel_reason,
    dispute:
      record.dispute === undefined || record.dispute === null
        ? null
        : { ...record.dispute, currency: record.dispute.currency as Order['currency'] },
    payment_error: record.payment_error,
    timeline: record.timeline,
    actions: actionsOf(record, role, now),
    role,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}
