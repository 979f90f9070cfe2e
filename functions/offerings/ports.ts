import type { Collection } from '../../shared/schemas/items';
import type { ServerMessageDraft } from '../../shared/realtime/messages';
import type { TaskSettler } from '../core/workflows';
import type { CopiesRepo } from '../items/index';
import type { FanOutInput, NotifyInput } from '../notifications/index';
import type { OfferingsRepo } from './offerings.repo';
import type { OfferingRecord } from './offerings';

/** What a user is to the offerings domain (their profile, read through profiles). */
export interface Party {
  id: string;
  nick: string;
  user_option: 'individual' | 'company';
  is_verified: boolean;
  onboarding_status: string | null;
}

/**
 * The offerings domain's dependencies: its repo, and the other domains' public modules plugged in
 * by offerings.deps.ts (fakes in tests).
 */
export interface OfferingsDeps {
  repo: OfferingsRepo;
  /** The items domain's copies (functions/items/copies.ts). */
  copies: CopiesRepo;
  partyOf(userId: string): Promise<Party | undefined>;
  userIdByNick(nick: string): Promise<string | undefined>;
  /** The collection's owner, or undefined when there is no such collection. */
  collectionOwner(collectionId: string): Promise<string | undefined>;
  collectionsOf(ownerId: string): Promise<Collection[]>;
  /** Starts the listing workflow of an offering (idempotent per offering). */
  startListing(offeringId: string): Promise<void>;
  settle: TaskSettler;
  notify(input: NotifyInput): Promise<void>;
  fanOut(input: FanOutInput): Promise<void>;
  /** The user's own live channel (quiet: a failure is logged). */
  publish(userId: string, message: ServerMessageDraft): Promise<void>;
  /**
   * The bids domain's side of an auction (plugged in by offerings.deps.ts): opening its lot and
   * auction-close workflow when it is published, and the piece a delisting joins so it cannot
   * race a first bid (spec 000 §4: delisting only without registered bids).
   */
  auctions: {
    open(record: OfferingRecord, now: Date): Promise<void>;
    delistGuard(offeringId: string): Record<string, unknown>;
  };
  imagesBaseUrl: string;
  webOrigin: string;
}
