import { dynamoDocumentClient } from '../core/clients';
import { readEnv } from '../core/env';
import { accountsDirectory } from '../accounts/index';
import { createProfileStore } from '../profiles/index';
import { notify, notifyDeps } from '../notifications/index';
import { publishToUserQuietly } from '../realtime/index';
import {
  auditMovement,
  chargeRefunded,
  disputeChanged,
  checkoutCompleted,
  checkoutExpired,
  ordersDeps,
  paymentIntentChanged,
  releaseWaitingPayouts,
} from '../orders/index';
import type { PaymentsDeps } from './payments';
import { createPaymentsRepo } from './payments.repo';
import { stripeClient, stripeKeys } from './payments.stripe';

/** The payment calls' real dependencies, from the environment. */
export function paymentsDeps(): PaymentsDeps {
  const env = readEnv();
  const doc = dynamoDocumentClient(env);
  const profiles = createProfileStore({ doc, tableName: env.tableName });
  const directory = accountsDirectory();
  return {
    stripe: () => stripeClient(),
    keys: () => stripeKeys(),
    repo: createPaymentsRepo({ doc, tableName: env.tableName }),
    sellers: profiles,
    async userOf(userId) {
      const [contact, profile] = await Promise.all([
        directory.contactOf(userId),
        profiles.getProfile(userId),
      ]);
      if (contact === undefined || profile === undefined) return undefined;
      return { email: contact.email, user_option: profile.user_option };
    },
    publish: (userId, message) => publishToUserQuietly(userId, message),
    storedStatusOf: async (userId) =>
      (await profiles.getProfile(userId))?.onboarding_status ?? undefined,
    async notify(input) {
      await notify(notifyDeps(env), input, new Date());
    },
    webOrigin: env.webOrigin,
    orders: {
      paymentIntentChanged: (id, now) => paymentIntentChanged(ordersDeps(), id, now),
      checkoutCompleted: (id, now) => checkoutCompleted(ordersDeps(), id, now),
      checkoutExpired: (id, now) => checkoutExpired(ordersDeps(), id, now),
      chargeRefunded: (id, now) => chargeRefunded(ordersDeps(), id, now),
      async payoutsReady(userId, now) {
        await releaseWaitingPayouts(ordersDeps(), userId, now);
      },
      auditMovement: (movement, now) => auditMovement(ordersDeps(), movement, now),
      disputeChanged: (facts, now) => disputeChanged(ordersDeps(), facts, now),
    },
  };
}
