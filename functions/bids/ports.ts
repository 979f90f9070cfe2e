import type { ServerMessageDraft, Topic } from '../../shared/realtime/messages';
import type { SavedCard } from '../../shared/schemas/payments';
import type { OfferingCard } from '../../shared/schemas/offerings';
import type { NotifyInput } from '../notifications/index';
import type { ListingEvent, OfferingRecord } from '../offerings/index';
import type { BidsRepo } from './bids.repo';
import type { AuctionOfferInput, AuctionOrderCopies, OfferState } from '../orders/index';

/**
 * The bids domain's dependencies: its repo and the other domains' public modules, plugged in by
 * bids.deps.ts (the twin in integration tests).
 */
export interface BidsDeps {
  repo: BidsRepo;
  offerings: {
    get(offeringId: string): Promise<OfferingRecord | undefined>;
    /** Applies a listing event (bids, close, end) through the offerings domain; false if refused. */
    apply(offeringId: string, event: ListingEvent, now: Date): Promise<boolean>;
    /** The offerings' cards as the market shows them (My Bids). */
    cards(offeringIds: readonly string[], now: Date): Promise<OfferingCard[]>;
    /** A private offering's invitation (add-invitations may come after the lot opened). */
    isInvited(offeringId: string, userId: string): Promise<boolean>;
    /** Users who favourited the offering (the end reminders). */
    favoriters(offeringId: string): Promise<string[]>;
  };
  /** Orders' side of the close (orders' public module: auction.ts). */
  orders: {
    makeOffer(input: AuctionOfferInput, now: Date): Promise<{ orderId: string; state: OfferState }>;
    states(orderIds: readonly string[]): Promise<Record<string, OfferState>>;
    copies(orderIds: readonly string[]): Promise<AuctionOrderCopies[]>;
  };
  /** The user's saved cards, read from Stripe (payments' listCards). */
  cardsOf(userId: string, now: Date): Promise<SavedCard[]>;
  nickOf(userId: string): Promise<string | undefined>;
  /** How an item reaches its buyer (items: its shipping). */
  shippingOf(
    itemId: string,
  ): Promise<{ delivery: 'delivery' | 'pickup' | 'none'; countries: string[] }>;
  notify(input: NotifyInput): Promise<void>;
  /** The user's own live channel (quiet). */
  publish(userId: string, message: ServerMessageDraft): Promise<void>;
  /** Everyone watching a topic (quiet). */
  publishTopic(topic: Topic, message: ServerMessageDraft): Promise<void>;
  /**
   * Starts the lot's auction-close workflow: `open` at publication (one execution per offering),
   * or a `resume` by the sweeper (a new execution that carries on from where the lot stands).
   */
  startClose(offeringId: string, reason: 'open' | 'resume', now?: Date): Promise<void>;
  imagesBaseUrl: string;
  /** The soft-close window for lots opened now (operator setting AUCTION_SOFT_CLOSE_MINUTES). */
  softCloseMs: number;
}
