import { dynamoDocumentClient } from '../core/clients';
import { readEnv } from '../core/env';
import { executionName, settleTask, startWorkflow } from '../core/workflows';
import { accountsDirectory } from '../accounts/index';
import { bidsDeps, createBidsRepo, openAuction } from '../bids/index';
import { createCollectionsRepo, findCollections } from '../collections/index';
import { claimImageUploadUpdate, createItemsRepo, readClaimableImageUpload } from '../items/index';
import { notify, notifyDeps, startFollowerFanOut } from '../notifications/index';
import { createProfileStore } from '../profiles/index';
import { publishToUserQuietly } from '../realtime/index';
import { createOfferingsRepo } from './offerings.repo';
import type { OfferingsDeps } from './ports';

/** The listing workflow (infra/workflows/listing.asl.json). */
export const LISTING_WORKFLOW = 'listing';

/**
 * The offerings calls' and tasks' real dependencies (composition): items' copies, profiles (the
 * seller's onboarding), accounts (nicks), collections, notifications, the live channel and the
 * listing workflow.
 */
export function offeringsDeps(): OfferingsDeps {
  const env = readEnv();
  const doc = dynamoDocumentClient(env);
  const tableName = env.tableName;
  const profiles = createProfileStore({ doc, tableName });
  const directory = accountsDirectory();
  const collections = {
    repo: createCollectionsRepo({
      doc,
      tableName,
      uploads: { read: readClaimableImageUpload, claimUpdate: claimImageUploadUpdate },
    }),
    imagesBaseUrl: env.imagesBaseUrl,
  };
  return {
    repo: createOfferingsRepo({ doc, tableName }),
    copies: createItemsRepo({ doc, tableName }),
    async partyOf(userId) {
      const profile = await profiles.getProfile(userId);
      if (profile === undefined) return undefined;
      return {
        id: profile.id,
        nick: profile.nick,
        user_option: profile.user_option,
        is_verified: profile.is_verified,
        onboarding_status: profile.onboarding_status ?? null,
      };
    },
    userIdByNick: (nick) => directory.userIdByNick(nick),
    async collectionOwner(collectionId) {
      return (await collections.repo.get(collectionId))?.owner_id;
    },
    async collectionsOf(ownerId) {
      return (await findCollections(collections, { ownerId })).items;
    },
    async startListing(offeringId) {
      await startWorkflow({
        workflow: LISTING_WORKFLOW,
        name: executionName('listing', offeringId),
        input: { offeringId },
      });
    },
    settle: settleTask,
    async notify(input) {
      await notify(notifyDeps(env), input, new Date());
    },
    async fanOut(input) {
      await startFollowerFanOut(input);
    },
    publish: (userId, message) => publishToUserQuietly(userId, message),
    auctions: {
      open: (record) => openAuction(bidsDeps(), record),
      delistGuard: (offeringId) => createBidsRepo({ doc, tableName }).delistGuardPiece(offeringId),
    },
    imagesBaseUrl: env.imagesBaseUrl,
    webOrigin: env.webOrigin,
  };
}
