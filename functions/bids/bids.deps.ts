import { dynamoDocumentClient } from '../core/clients';
import { readEnv } from '../core/env';
import { logger } from '../core/logger';
import { executionName, startWorkflow } from '../core/workflows';
import { createItemsRepo } from '../items/index';
import { notify, notifyDeps } from '../notifications/index';
import {
  applyEvent,
  getOfferingCards,
  offeringsDeps,
  createOfferingsRepo,
} from '../offerings/index';
import {
  auctionOfferStates,
  auctionOrderCopies,
  orderAuctionOffer,
  ordersDeps,
} from '../orders/index';
import { listCards, paymentsDeps } from '../payments/index';
import { createProfileStore } from '../profiles/index';
import { publishToTopic, publishToUserQuietly } from '../realtime/index';
import { createBidsRepo } from './bids.repo';
import type { BidsDeps } from './ports';

/** The auction-close workflow (infra/workflows/auction-close.asl.json). */
export const AUCTION_CLOSE_WORKFLOW = 'auction-close';

/**
 * The bids calls' and tasks' real dependencies (composition): offerings (the offering, its
 * counters, its close), payments (the bidders' saved cards, read from Stripe), profiles (nicks),
 * notifications and the live channel.
 */
export function bidsDeps(): BidsDeps {
  const env = readEnv();
  const doc = dynamoDocumentClient(env);
  const tableName = env.tableName;
  const profiles = createProfileStore({ doc, tableName });
  const offerings = createOfferingsRepo({ doc, tableName });
  const items = createItemsRepo({ doc, tableName });
  return {
    repo: createBidsRepo({ doc, tableName }),
    offerings: {
      get: (offeringId) => offerings.get(offeringId),
      async apply(offeringId, event, now) {
        const applied = await applyEvent(offeringsDeps(), offeringId, event, now, {
          strict: false,
        });
        return applied.applied;
      },
      favoriters: (offeringId) => offerings.favoritersOf(offeringId),
      isInvited: (offeringId, userId) => offerings.isInvited(offeringId, userId),
      cards: (offeringIds, now) =>
        getOfferingCards({ repo: offerings, imagesBaseUrl: env.imagesBaseUrl }, offeringIds, now),
    },
    orders: {
      makeOffer: (input, now) => orderAuctionOffer(ordersDeps(), input, now),
      states: (orderIds) => auctionOfferStates(ordersDeps(), orderIds),
      copies: (orderIds) => auctionOrderCopies(ordersDeps(), orderIds),
    },
    async cardsOf(userId, now) {
      return (await listCards(paymentsDeps(), userId, now)).payment_methods;
    },
    async shippingOf(itemId) {
      const item = await items.getItem(itemId);
      const shipping = item?.product_type === 'physical' ? (item.shipping ?? null) : null;
      if (shipping === null) return { delivery: 'none', countries: [] };
      return shipping.mode === 'delivery'
        ? { delivery: 'delivery', countries: [...shipping.countries] }
        : { delivery: 'pickup', countries: [] };
    },
    async nickOf(userId) {
      return (await profiles.getProfile(userId))?.nick;
    },
    async notify(input) {
      await notify(notifyDeps(env), input, new Date());
    },
    publish: (userId, message) => publishToUserQuietly(userId, message),
    async publishTopic(topic, message) {
      try {
        await publishToTopic(topic, message);
      } catch (error) {
        logger.warn('a topic message was not delivered', { topic, error: error as Error });
      }
    },
    async startClose(offeringId, reason, now = new Date()) {
      await startWorkflow({
        workflow: AUCTION_CLOSE_WORKFLOW,
        name:
          reason === 'open'
            ? executionName('auction', offeringId)
            : executionName('auction', `${offeringId}-${now.getTime()}`),
        input: { offeringId },
      });
    },
    imagesBaseUrl: env.imagesBaseUrl,
    softCloseMs: env.auctionSoftCloseMinutes * 60_000,
  };
}
