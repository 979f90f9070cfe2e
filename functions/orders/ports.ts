import type { ServerMessageDraft } from '../../shared/realtime/messages';
import type { ListingEffect, OfferingRecord } from '../offerings/index';
import type { ItemsRepo } from '../items/index';
import type { NotifyInput } from '../notifications/index';
import type {
  CheckoutFacts,
  MoneyFinding,
  OrderCharge,
  PaymentFacts,
  RefundFacts,
  ReversalOutcome,
  ShareTransfer,
  TransferOutcome,
} from '../payments/index';
import type { OrdersRepo } from './orders.repo';

/**
 * What the orders domain needs (composition in orders.deps.ts; fakes in tests): its repo, and the
 * other domains' public modules — items (copies, provenance, holdings), offerings (the offering
 * sold from), payments (every Stripe call), notifications and the live channel, and the two
 * timers (booking expiry, payout release) that run as workflows.
 */
export interface OrderPayments {
  createCheckout(
    charge: OrderCharge,
    input: {
      successPath: string;
      cancelPath: string;
      expiresAt: Date;
      saveCard: boolean;
      idempotencyKey: string;
    },
    now: Date,
  ): Promise<{ session_id: string; url: string; expires_at: string }>;
  retrieveCheckout(sessionId: string): Promise<CheckoutFacts | undefined>;
  expireCheckout(sessionId: string): Promise<void>;
  /** The order's PaymentIntent for one charge, created once per key (payments' openOrderIntent). */
  openIntent(charge: OrderCharge, input: { idempotencyKey: string }, now: Date): Promise<string>;
  /** Confirms it with a saved card; a card's refusal is answered, a provider's failure thrown. */
  confirmIntent(
    intentId: string,
    input: {
      userId: string;
      paymentMethod: string | undefined;
      offSession: boolean;
      returnPath: string;
      fresh: boolean;
    },
    now: Date,
  ): Promise<PaymentFacts>;
  retrievePayment(paymentIntentId: string): Promise<PaymentFacts | undefined>;
  refund(input: {
    paymentIntentId: string;
    orderId: string;
    amount?: number;
    idempotencyKey: string;
  }): Promise<RefundFacts>;
  /** Every refund of a payment, ours or made in Stripe's dashboard. */
  refundsOf(paymentIntentId: string): Promise<RefundFacts[]>;
  /** What reconciliation with Stripe found, newest first (support's money page). */
  findings(limit: number): Promise<(MoneyFinding & { found_at: string })[]>;
  payoutAccountOf(userId: string): Promise<string | undefined>;
  transfer(input: ShareTransfer): Promise<TransferOutcome>;
  reverseTransfer(input: {
    transferId: string;
    orderId: string;
    idempotencyKey: string;
  }): Promise<ReversalOutcome | null>;
}

export type OrderItemsRepo = Pick<
  ItemsRepo,
  'getItem' | 'listCopies' | 'getCopy' | 'lastHistory' | 'getHolding'
>;

export interface OrderOfferings {
  get(offeringId: string): Promise<OfferingRecord | undefined>;
  /** The effects of a committed sale (market entries, the seller's tabs). */
  afterSale(record: OfferingRecord, effects: readonly ListingEffect[]): Promise<void>;
}

export interface OrdersDeps {
  /**
   * The bids domain's side of buying an auction's copies now (plugged in by orders.deps.ts): the
   * piece a booking joins (no bid yet, copies taken out of the lot) and the return of an expired
   * booking's copies.
   */
  auctions: {
    buyNowPiece(offeringId: string, quantity: number): Record<string, unknown>;
    returnBuyNow(offeringId: string, quantity: number): Promise<void>;
  };
  repo: OrdersRepo;
  items: OrderItemsRepo;
  offerings: OrderOfferings;
  payments: OrderPayments;
  partyOf(userId: string): Promise<{ id: string; nick: string } | undefined>;
  /** Starts the booking-expiry workflow (idempotent per order). */
  startBookingExpiry(orderId: string, expiresAt: string): Promise<void>;
  /** Starts the wait that releases payouts 14 days after shipping (idempotent per order). */
  startPayoutRelease(orderId: string, releaseAt: string): Promise<void>;
  notify(input: NotifyInput): Promise<void>;
  publish(userId: string, message: ServerMessageDraft): Promise<void>;
  /** Support's accounts (the deployment's admins), told of what needs a person (a dispute). */
  supportUserIds(): Promise<string[]>;
  imagesBaseUrl: string;
}
