import type Stripe from 'stripe';
import type { ServerMessageDraft } from '../../shared/realtime/messages';
import type { SellerStatusStore } from '../profiles/index';
import type { PaymentsRepo } from './payments.repo';
import type { StripeKeys } from './payments.stripe';
import type { NotifyInput } from '../notifications/index';
import type { MoneyFinding, MoneyMovement } from './reconcile';

/**
 * What the payments use cases need. Stripe is the official SDK (pointed at Stripe or at the twin
 * by configuration); the rest are ports: the domain's repo, the profile's seller status, the
 * account's contact, the live channel.
 */
export interface PaymentsDeps {
  stripe: () => Promise<Stripe>;
  keys: () => Promise<StripeKeys>;
  repo: PaymentsRepo;
  sellers: SellerStatusStore;
  /** The user's e-mail and account type, to prefill Stripe (undefined for an unknown user). */
  userOf: (
    userId: string,
  ) => Promise<{ email: string; user_option: 'individual' | 'company' } | undefined>;
  /** The onboarding status kept on the user's profile (before a sync), if any. */
  storedStatusOf: (userId: string) => Promise<string | undefined>;
  /** Tells the user (functions/notifications notify(): idempotent per event key). */
  notify: (input: NotifyInput) => Promise<void>;
  /** Sends a live event to the user's open tabs; a failure is logged, never fatal. */
  publish: (userId: string, message: ServerMessageDraft) => Promise<void>;
  /** Origin of the web app: Stripe's return and refresh URLs point at its pages. */
  webOrigin: string;
  /**
   * Orders (functions/orders, plugged in by payments.deps.ts): what Stripe's payment events mean
   * for an order. Each reads the object from Stripe again; an object of no order is ignored.
   */
  orders: OrderEvents;
}

export interface OrderEvents {
  paymentIntentChanged(paymentIntentId: string, now: Date): Promise<void>;
  checkoutCompleted(sessionId: string, now: Date): Promise<void>;
  checkoutExpired(sessionId: string, now: Date): Promise<void>;
  chargeRefunded(paymentIntentId: string, now: Date): Promise<void>;
  /** The user's payout account can receive transfers: pay the shares kept waiting. */
  payoutsReady(userId: string, now: Date): Promise<void>;
  /**
   * Reconciliation: one money movement Stripe made for an order, checked against the order (what
   * it lacks applied); what still disagrees is answered.
   */
  auditMovement(movement: MoneyMovement, now: Date): Promise<MoneyFinding | null>;
  /** The buyer's bank disputes an order's payment (charge.dispute.*), as Stripe has it now. */
  disputeChanged(facts: DisputeFacts, now: Date): Promise<void>;
}

/** A dispute of a payment, as payments reads it from Stripe for orders. */
export interface DisputeFacts {
  dispute_id: string;
  order_id: string;
  payment_intent_id: string;
  /** Stripe's status (needs_response, under_review, warning_*, won, lost). */
  status: string;
  reason: string;
  amount: number;
  currency: string;
  evidence_due_by: string | null;
  created: string;
}

/** The web pages Stripe sends the browser back to (001 §2 card provider return pages). */
export const RETURN_PAGES = {
  onboardingReturn: '/stripe/onboarding/minter',
  onboardingRefresh: '/stripe/payment/refresh',
  checkoutSuccess: '/stripe/payment/success',
  checkoutCancel: '/stripe/payment/cancel',
} as const;
