import * as z from 'zod';
import { FIAT_CURRENCIES } from '../money';
import { addressInputSchema } from './addresses';
import { itemImageSchema, productTypeSchema } from './items';
import { OFFERING_ID_PATTERN, PAYMENT_MODES } from './offerings';

/**
 * Orders, booking and card checkout (spec 000 §2 checkout, §3 Order, §4 order status and
 * checkout booking, §5 Bid and buy, §7 order/* and card payment calls; issue 12). Shared by the
 * calls (validation, answers, OpenAPI) and the web (the checkout and order pages).
 */

/** Spec 000 §4 order status, in the order a paid order passes them. */
export const ORDER_STATUSES = [
  'accepted',
  'payment_intent_created',
  'payment_intent_success',
  'checkout_complete',
  'paid',
  'fulfilled',
  'cancelled',
  'payment_expired',
  'order_expired',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Statuses an order never leaves. */
export const FINAL_ORDER_STATUSES: readonly OrderStatus[] = [
  'fulfilled',
  'cancelled',
  'payment_expired',
  'order_expired',
];

/** Where a paid physical order is (the seller ships, the buyer confirms receipt). */
export const FULFILMENT_STATES = ['none', 'shipped', 'received'] as const;
export type FulfilmentState = (typeof FULFILMENT_STATES)[number];

/** How the item reaches the buyer (from the item's shipping): delivered, picked up, or nothing to send. */
export const DELIVERY_MODES = ['delivery', 'pickup', 'none'] as const;
export type DeliveryMode = (typeof DELIVERY_MODES)[number];

/** Copies one order may book (one transaction moves them all: two writes each, at most 100). */
export const MAX_ORDER_COPIES = 40;

/** Order ids: `oR` + a ULID, told apart from offerings (`oF`) and items. */
export const ORDER_ID_PATTERN = /^oR[0-9A-HJKMNP-TV-Z]{26}$/;
export const orderIdSchema = z
  .string({ error: 'forms.validation.required' })
  .regex(ORDER_ID_PATTERN, { error: 'forms.validation.invalid' });

const offeringIdField = z
  .string({ error: 'forms.validation.required' })
  .regex(OFFERING_ID_PATTERN, { error: 'forms.validation.invalid' });

export const quantitySchema = z
  .number({ error: 'forms.validation.required' })
  .int({ error: 'forms.validation.invalid' })
  .min(1, { error: 'forms.validation.too_small' })
  .max(MAX_ORDER_COPIES, { error: 'market.buy.errors.quantity' });

/** The delivery address: the address form's fields (the web sends a saved address's fields). */
export const postalAddressSchema = addressInputSchema.omit({ default: true });
export type PostalAddress = z.infer<typeof postalAddressSchema>;

/**
 * `POST users/{id}/offering/assigntoken2preorder` (spec: `order {offeringid, quantity,
 * postaladdress}`): books copies for 5 minutes and answers the order. `postaladdress` is required
 * when the item is delivered, and ignored otherwise.
 */
export const preorderBodySchema = z.object({
  order: z.object({
    offeringid: offeringIdField,
    quantity: quantitySchema,
    postaladdress: postalAddressSchema.nullish().transform((value) => value ?? null),
  }),
});
export type PreorderBody = z.infer<typeof preorderBodySchema>;

/**
 * `POST /order/create` (spec: `checkout.items[itemId, quantity]` and scope): the same booking, in
 * the card-payment calls' shape; `itemId` is the offering's id (one line per order).
 */
export const createOrderBodySchema = z.object({
  checkout: z.object({
    items: z
      .array(z.object({ itemId: offeringIdField, quantity: quantitySchema }))
      .length(1, { error: 'market.buy.errors.one_line' }),
  }),
  scope: z.literal('market', { error: 'forms.validation.enum' }),
  postaladdress: postalAddressSchema.nullish().transform((value) => value ?? null),
});
export type CreateOrderBody = z.infer<typeof createOrderBodySchema>;

export const orderIdBodySchema = z.object({ order_id: orderIdSchema });
export type OrderIdBody = z.infer<typeof orderIdBodySchema>;

export const sessionIdBodySchema = z.object({
  session_id: z
    .string({ error: 'forms.validation.required' })
    .regex(/^cs_[A-Za-z0-9_]{1,200}$/, { error: 'forms.validation.invalid' }),
});

/** `POST /payment-gateway/create-payment-intent {order_id, type}`: pay with a saved card. */
export const payWithCardBodySchema = z.object({
  order_id: orderIdSchema,
  type: z.literal('card', { error: 'forms.validation.enum' }).default('card'),
  /** The saved card (`pm_…`); the default card when absent. */
  payment_method: z
    .string()
    .regex(/^pm_\w{1,200}$/, { error: 'forms.validation.invalid' })
    .optional(),
});
export type PayWithCardBody = z.infer<typeof payWithCardBodySchema>;

export const UPDATE_ORDER_ACTIONS = ['ship', 'confirm_receipt', 'cancel', 'ready'] as const;
export type UpdateOrderAction = (typeof UPDATE_ORDER_ACTIONS)[number];

export const CARRIER_MAX = 60;
export const TRACKING_MAX = 100;
export const CANCEL_REASON_MAX = 500;

/**
 * `POST users/{id}/offering/updateorder/{orderId}`: a party moves its order. The spec's payload
 * (paymentauths, walletpayment, postaladdress) served the wallet; ours names the action.
 * - `ship` (seller, a delivered physical order): carrier and tracking number;
 * - `confirm_receipt` (buyer, once shipped or for a pick-up);
 * - `cancel` (seller, before shipping): a full refund, the copies back to the seller;
 * - `ready` (seller, a deposit order): charges the balance to the buyer's saved card.
 */
export const updateOrderBodySchema = z.discriminatedUnion(
  'action',
  [
    z.object({
      action: z.literal('ship'),
      carrier: z
        .string({ error: 'forms.validation.required' })
        .trim()
        .min(1, { error: 'forms.validation.required' })
        .max(CARRIER_MAX, { error: 'forms.validation.too_big' }),
      tracking: z
        .string({ error: 'forms.validation.required' })
        .trim()
        .min(1, { error: 'forms.validation.required' })
        .max(TRACKING_MAX, { error: 'forms.validation.too_big' }),
    }),
    z.object({ action: z.literal('confirm_receipt') }),
    z.object({
      action: z.literal('cancel'),
      reason: z
        .string()
        .trim()
        .max(CANCEL_REASON_MAX, { error: 'forms.validation.too_big' })
        .nullish()
        .transform((value) =>
          value === undefined || value === null || value === '' ? null : value,
        ),
    }),
    z.object({ action: z.literal('ready') }),
  ],
  { error: 'forms.validation.enum' },
);
export type UpdateOrderBody = z.infer<typeof updateOrderBodySchema>;

const cursorSchema = z
  .string()
  .min(1, { error: 'forms.validation.cursor' })
  .max(2048, { error: 'forms.validation.cursor' });

/** `POST order/retrievebycustomeruser`, `retrievebyselleruser` (spec: `last`, the cursor). */
export const orderListBodySchema = z.object({ last: cursorSchema.optional() });
export type OrderListBody = z.infer<typeof orderListBodySchema>;

/** `POST order/retrievebyofferinguser {offeringid, customerNick}`. */
export const offeringOrdersBodySchema = z.object({
  offeringid: offeringIdField,
  customerNick: z.string().trim().toLowerCase().max(30).optional(),
  last: cursorSchema.optional(),
});
export type OfferingOrdersBody = z.infer<typeof offeringOrdersBodySchema>;

export const activityQuerySchema = z.object({ cursor: cursorSchema.optional() });

const moneyAmount = z.number().int();
const currency = z.enum(FIAT_CURRENCIES);
const party = z.object({ id: z.string(), nick: z.string() });

/** The split of the order's payments (shared/split.ts), summed over its charges. */
export const orderSplitSchema = z.object({
  gross: moneyAmount,
  fee: moneyAmount,
  royalty: moneyAmount,
  creator: moneyAmount,
  beneficiary: moneyAmount,
  seller: moneyAmount,
  first_sale: z.boolean(),
  royalty_percent: z.number().int().nullable(),
  beneficiary_percent: z.number().int().nullable(),
});
export type OrderSplit = z.infer<typeof orderSplitSchema>;

/** Spec 000 §3 Order lineItems: one line per order here (the offering's copies). */
export const lineItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Deposit per copy (deposit mode), else null. */
  deposit: moneyAmount.nullable(),
  currency,
  /** Price per copy. */
  amount: moneyAmount,
  quantity: z.number().int(),
  /** The copies' unique ids, once booked. */
  nftuniqueids: z.array(z.string()),
});

export const TRANSFER_PARTIES = ['seller', 'creator', 'beneficiary'] as const;
/**
 * `reversal_failed`: the share was paid out and Stripe refused to take it back (the account's
 * balance could not cover it); the account owes it, and it is kept back from its next payouts.
 * `blocked`: Stripe refused to pay the share out (its charge refunded in part meanwhile, an account
 * that cannot receive it); support looks into it. `frozen`: not paid out while the buyer's bank
 * disputes the payment (released if the dispute is won, never if it is lost).
 */
export const TRANSFER_STATES = [
  'held',
  'paid',
  'reversed',
  'waiting_account',
  'reversal_failed',
  'blocked',
  'frozen',
] as const;

export const orderTransferSchema = z.object({
  party: z.enum(TRANSFER_PARTIES),
  user: party,
  amount: moneyAmount,
  currency,
  state: z.enum(TRANSFER_STATES),
  transfer_id: z.string().nullable(),
  /** Kept back from this share to pay off what the account owed (minor units; 0 when none). */
  netted: moneyAmount,
});

export const orderPaymentSchema = z.object({
  /** `full`, or a deposit order's `deposit` and `balance`. */
  kind: z.enum(['full', 'deposit', 'balance']),
  amount: moneyAmount,
  currency,
  status: z.enum(['pending', 'succeeded', 'failed', 'refunded', 'requires_action']),
  payment_intent_id: z.string().nullable(),
  receipt_url: z.string().nullable(),
  paid_at: z.string().nullable(),
  /**
   * Money the order did not ask for (a second payment of what was paid, a payment after the order
   * ended): refunded at once, never paid out.
   */
  extra: z.boolean(),
});

/**
 * A dispute of the order's payment opened by the buyer's bank (a chargeback): `open` until the
 * bank decides, then `won` (the money stays) or `lost` (the bank took it back: the order is
 * cancelled). `stripe_status` is Stripe's own (needs_response, under_review, won, lost…).
 */
export const DISPUTE_STATUSES = ['open', 'won', 'lost'] as const;

export const orderDisputeSchema = z.object({
  id: z.string(),
  status: z.enum(DISPUTE_STATUSES),
  stripe_status: z.string(),
  /** The bank's reason (fraudulent, product_not_received, …). */
  reason: z.string(),
  amount: moneyAmount,
  currency,
  /** Stripe's deadline for the evidence (ISO), while the dispute needs a response. */
  evidence_due_by: z.string().nullable(),
  opened_at: z.string(),
  closed_at: z.string().nullable(),
});
export type OrderDispute = z.infer<typeof orderDisputeSchema>;

export const orderEventSchema = z.object({
  status: z.enum(ORDER_STATUSES),
  /** What happened (the status's step, or `shipped`, `received`, `payout`, `refund`). */
  label: z.string(),
  at: z.string(),
});

export const orderSchema = z.object({
  id: z.string(),
  status: z.enum(ORDER_STATUSES),
  scope: z.literal('market'),
  /** Spec 000 §3 subScope: how the order came about (`purchase` here; `auction` for winners). */
  subScope: z.enum(['purchase', 'auction']),
  ordergroupid: z.string(),
  /** Spec 000 §3 assignround: an auction order's round (winner, substitute); null for purchases. */
  assignround: z.enum(['winner', 'substitute']).nullable(),
  offering_id: z.string(),
  item: z.object({
    id: z.string(),
    title: z.string(),
    product_type: productTypeSchema,
    image: itemImageSchema,
  }),
  seller: party,
  buyer: party,
  sellerNick: z.string(),
  lineItems: z.array(lineItemSchema),
  currency,
  payment_mode: z.enum(PAYMENT_MODES),
  /** What the buyer pays in all (price × copies). */
  total: moneyAmount,
  /** What is charged now at checkout (the total, or the deposits). */
  due_now: moneyAmount,
  /** What a deposit order still owes (charged when the seller marks it ready). */
  balance_due: moneyAmount,
  paid: moneyAmount,
  refunded: moneyAmount,
  split: orderSplitSchema,
  payments: z.array(orderPaymentSchema),
  transfers: z.array(orderTransferSchema),
  delivery: z.enum(DELIVERY_MODES),
  postaladdress: postalAddressSchema.nullable(),
  /** The item's pick-up address and instructions (delivery `pickup`). */
  pickup: z
    .object({
      country: z.string(),
      line1: z.string(),
      city: z.string(),
      postalcode: z.string(),
      instructions: z.string(),
    })
    .nullable(),
  fulfilment: z.enum(FULFILMENT_STATES),
  shipment: z
    .object({ carrier: z.string(), tracking: z.string(), shipped_at: z.string() })
    .nullable(),
  /** When the payouts are released without the buyer's confirmation (14 days after shipping). */
  release_at: z.string().nullable(),
  /** The booking's end (accepted, payment_intent_created): the copies are the buyer's until then. */
  booking_expires_at: z.string(),
  cancel_reason: z.string().nullable(),
  /** The dispute of the order's payment, if the buyer's bank opened one. */
  dispute: orderDisputeSchema.nullable(),
  /** Why the last payment did not go through (an error code), or null. */
  payment_error: z.string().nullable(),
  timeline: z.array(orderEventSchema),
  /** What the caller may do now. */
  actions: z.array(z.enum(['pay', 'ship', 'confirm_receipt', 'cancel', 'ready'])),
  /** The caller's side of the order. */
  role: z.enum(['buyer', 'seller']),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Order = z.infer<typeof orderSchema>;

export const orderPageSchema = z.object({
  items: z.array(orderSchema),
  nextCursor: z.string().nullable(),
});
export type OrderPage = z.infer<typeof orderPageSchema>;

/** `POST /payment-gateway/checkout/create`: Stripe Checkout's page for the order. */
export const checkoutSessionSchema = z.object({
  session_id: z.string(),
  url: z.string(),
  expires_at: z.string(),
});
export type CheckoutSession = z.infer<typeof checkoutSessionSchema>;

/** `POST /payment-gateway/checkout/retrieve`: where a payment session stands. */
export const checkoutStatusSchema = z.object({
  session_id: z.string(),
  order_id: z.string().nullable(),
  status: z.enum(['open', 'complete', 'expired']),
  payment_status: z.enum(['paid', 'unpaid', 'no_payment_required']),
});
export type CheckoutStatus = z.infer<typeof checkoutStatusSchema>;

/**
 * `POST /payment-gateway/create-payment-intent`: the saved-card payment. `succeeded` (the order
 * follows by webhook), `requires_action` with Stripe's authentication page, or `failed` with the
 * card's error code (the booking keeps running; the buyer may try Checkout).
 */
export const cardPaymentSchema = z.object({
  order_id: z.string(),
  payment_intent_id: z.string(),
  status: z.enum(['succeeded', 'processing', 'requires_action', 'failed']),
  next_action_url: z.string().nullable(),
  error: z.string().nullable(),
});
export type CardPayment = z.infer<typeof cardPaymentSchema>;

/** One line of the wallet activity (001 §2 columns that apply to card payments). */
export const walletActivitySchema = z.object({
  id: z.string(),
  date: z.string(),
  /** payment (the buyer paid), refund, payout (a share transferred to the caller), reversal. */
  event: z.enum(['payment', 'refund', 'payout', 'reversal']),
  /** The order's kind: purchase, royalty, beneficiary. */
  type: z.enum(['purchase', 'sale', 'royalty', 'beneficiary']),
  currency,
  amount: moneyAmount,
  amount_paid: moneyAmount,
  amount_received: moneyAmount,
  app_commission: moneyAmount,
  total: moneyAmount,
  receipt: z.string().nullable(),
  tx_id: z.string().nullable(),
  description: z.string(),
  order_id: z.string(),
});
export type WalletActivity = z.infer<typeof walletActivitySchema>;

export const walletActivityPageSchema = z.object({
  items: z.array(walletActivitySchema),
  nextCursor: z.string().nullable(),
});

export const orderPathSchema = z.object({ id: z.string().min(1).max(64), orderId: orderIdSchema });

/**
 * `GET /api/admin/money` (support): what needs a person about money — open disputes (soonest
 * evidence deadline first), accounts that owe the platform (refused reversals, what was kept back
 * since), and what reconciliation with Stripe found (refused payouts included).
 */
export const moneyOverviewSchema = z.object({
  disputes: z.array(
    z.object({
      order_id: z.string(),
      item_title: z.string(),
      seller: party,
      buyer: party,
      dispute: orderDisputeSchema,
    }),
  ),
  owed: z.array(
    z.object({
      user_id: z.string(),
      nick: z.string().nullable(),
      currency,
      amount: moneyAmount,
      lines: z.array(
        z.object({
          ref: z.string(),
          order_id: z.string(),
          amount: moneyAmount,
          at: z.string(),
          reason: z.string(),
        }),
      ),
    }),
  ),
  findings: z.array(
    z.object({
      order_id: z.string(),
      ref: z.string(),
      code: z.string(),
      detail: z.string(),
      found_at: z.string(),
    }),
  ),
});
export type MoneyOverview = z.infer<typeof moneyOverviewSchema>;
