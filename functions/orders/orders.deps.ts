import { dynamoDocumentClient } from '../core/clients';
import { readEnv } from '../core/env';
import { executionName, startWorkflow } from '../core/workflows';
import { accountsDirectory } from '../accounts/index';
import { createBidsRepo } from '../bids/index';
import { createItemsRepo } from '../items/index';
import { notify, notifyDeps } from '../notifications/index';
import { afterSale, createOfferingsRepo, offeringsDeps } from '../offerings/index';
import {
  confirmOrderIntent,
  createOrderCheckout,
  openOrderIntent,
  expireCheckout,
  paymentsDeps,
  payoutAccountOf,
  refundPayment,
  refundsOf,
  retrieveCheckout,
  retrievePayment,
  reverseTransfer,
  transferShare,
} from '../payments/index';
import { createProfileStore } from '../profiles/index';
import { publishToUserQuietly } from '../realtime/index';
import { createOrdersRepo } from './orders.repo';
import type { OrdersDeps } from './ports';

/** The booking-expiry workflow (infra/workflows/booking-expiry.asl.json). */
export const BOOKING_EXPIRY_WORKFLOW = 'booking-expiry';
/** The wait that releases a shipped order's payouts (infra/workflows/payout-release.asl.json). */
export const PAYOUT_RELEASE_WORKFLOW = 'payout-release';

/**
 * The orders calls' and tasks' real dependencies (composition): items' copies and holdings,
 * offerings, payments (every Stripe call), profiles (nicks), notifications, the live channel and
 * the two timer workflows.
 */
export function ordersDeps(): OrdersDeps {
  const env = readEnv();
  const doc = dynamoDocumentClient(env);
  const tableName = env.tableName;
  const profiles = createProfileStore({ doc, tableName });
  const offerings = createOfferingsRepo({ doc, tableName });
  const payments = paymentsDeps();
  const lots = createBidsRepo({ doc, tableName });
  return {
    auctions: {
      buyNowPiece: (offeringId, quantity) => lots.buyNowPiece(offeringId, quantity),
      returnBuyNow: (offeringId, quantity) => lots.returnBuyNow(offeringId, quantity),
    },
    repo: createOrdersRepo({ doc, tableName }),
    items: createItemsRepo({ doc, tableName }),
    offerings: {
      get: (offeringId) => offerings.get(offeringId),
      afterSale: (record, effects) => afterSale(offeringsDeps(), record, effects),
    },
    payments: {
      createCheckout: (charge, input, now) => createOrderCheckout(payments, charge, input, now),
      retrieveCheckout: (sessionId) => retrieveCheckout(payments, sessionId),
      expireCheckout: (sessionId) => expireCheckout(payments, sessionId),
      openIntent: (charge, input, now) => openOrderIntent(payments, charge, input, now),
      confirmIntent: (intentId, input, now) => confirmOrderIntent(payments, intentId, input, now),
      retrievePayment: (paymentIntentId) => retrievePayment(payments, paymentIntentId),
      refund: (input) => refundPayment(payments, input),
      refundsOf: (paymentIntentId) => refundsOf(payments, paymentIntentId),
      findings: (limit) => payments.repo.listFindings(limit),
      payoutAccountOf: (userId) => payoutAccountOf(payments, userId),
      transfer: (input) => transferShare(payments, input),
      reverseTransfer: (input) => reverseTransfer(payments, input),
    },
    async partyOf(userId) {
      const profile = await profiles.getProfile(userId);
      return profile === undefined ? undefined : { id: profile.id, nick: profile.nick };
    },
    async startBookingExpiry(orderId, expiresAt) {
      await startWorkflow({
        workflow: BOOKING_EXPIRY_WORKFLOW,
        name: executionName('booking', orderId),
        input: { orderId, at: expiresAt },
      });
    },
    async startPayoutRelease(orderId, releaseAt) {
      await startWorkflow({
        workflow: PAYOUT_RELEASE_WORKFLOW,
        name: executionName('payout', orderId),
        input: { orderId, at: releaseAt },
      });
    },
    async notify(input) {
      await notify(notifyDeps(env), input, new Date());
    },
    publish: (userId, message) => publishToUserQuietly(userId, message),
    supportUserIds: () => accountsDirectory().supportUserIds(),
    imagesBaseUrl: env.imagesBaseUrl,
  };
}
