import * as z from 'zod';
import { bidderCount, type BidOutcome } from '../../shared/auction';
import { topicOf } from '../../shared/realtime/messages';
import { logger } from '../core/logger';
import type { BidLogLine } from './bids.repo';
import type { LotRecord } from './lot';
import type { BidsDeps } from './ports';

/**
 * What follows an accepted bid or cancellation (issue 13 §5): the watchers' live events on the
 * offering's topic, the bidder's answer on their own channel, the outbid bidders and the seller
 * told, and the offering's counters refreshed when due. None of it decides anything, so it runs
 * after the bid's answer, in the bid-events workflow (one execution per log line: a retried start
 * or task repeats nothing, notifications are keyed by the line), so the bidder never waits for a
 * thousand watchers. If the workflow cannot be started, the bid call does it itself.
 */
export const followUpSchema = z.object({
  offeringId: z.string().regex(/^oF[0-9A-HJKMNP-TV-Z]{26}$/),
  sellerId: z.string(),
  currency: z.string(),
  index: z.number().int().min(0),
  kind: z.enum(['bid', 'cancel']),
  bidderId: z.string(),
  nick: z.string(),
  /** The bid's visible amount per copy (its price if it holds copies, else its maximum). */
  visible: z.number().int(),
  quantity: z.number().int(),
  held: z.boolean(),
  /**
   * The bidder's first bid on the lot (or their first since retracting): the seller is told of a
   * new bidder, not of every rebid (a hot lot's rebids would flood them; the page shows the rest).
   */
  newBidder: z.boolean().default(true),
  outbid: z.array(z.string()),
  /** The outbid bidders' nicks, as watchers see them. */
  outbidNicks: z.array(z.string()).default([]),
  extended: z.boolean(),
  /** Refresh the offering's counters (cards, delisting) now. */
  sync: z.boolean(),
  minimBid: z.number().int(),
  highestBid: z.number().int().nullable(),
  bids: z.number().int(),
  endAt: z.string(),
  item: z.object({ title: z.string(), image: z.string(), id: z.string() }),
});
export type FollowUp = z.infer<typeof followUpSchema>;

/** The bid-events workflow (infra/workflows/bid-events.asl.json). */
export const BID_EVENTS_WORKFLOW = 'bid-events';

export function followUpOf(
  lot: LotRecord,
  change: {
    outcome: Extract<BidOutcome, { ok: true }>;
    sync: boolean;
    bidderId: string;
    line: BidLogLine;
    /** The bidder had no standing bid on the lot before this line. */
    newBidder: boolean;
  },
): FollowUp {
  const { standing } = change.outcome;
  const held = standing.allocation.find((w) => w.bidder_id === change.bidderId);
  const outbid = change.outcome.outbid.filter((userId) => userId !== change.bidderId);
  return {
    offeringId: lot.offering_id,
    sellerId: lot.seller_id,
    currency: lot.currency,
    index: change.line.index,
    kind: change.line.kind,
    bidderId: change.bidderId,
    nick: change.line.nick,
    visible: held?.price ?? change.line.max,
    quantity: change.line.quantity,
    held: held !== undefined,
    newBidder: change.newBidder,
    outbid,
    // From the whole book the change was decided on: an outbid bid may be left out of the lot's.
    outbidNicks: outbid.map(
      (userId) =>
        change.outcome.state.book.find((entry) => entry.bidder_id === userId)?.bidder_nick ?? '',
    ),
    extended: change.outcome.extended,
    sync: change.sync,
    minimBid: standing.min_next,
    highestBid: standing.highest,
    bids: bidderCount(lot.auction),
    endAt: lot.auction.end_at,
    item: { title: lot.item_title, image: lot.item_image, id: lot.item_id },
  };
}

/** Hands the follow-up to the bid-events workflow; does it here if the workflow cannot start. */
export async function followUp(deps: BidsDeps, input: FollowUp): Promise<void> {
  try {
    await deps.startFollowUp(input);
  } catch (error) {
    logger.warn('the bid-events workflow did not start: following up in the call', {
      offeringId: input.offeringId,
      index: input.index,
      error: error as Error,
    });
    await performFollowUp(deps, input, new Date());
  }
}

/** The bid-events task: every step is attempted; a failure is logged and thrown for the retry. */
export async function performFollowUp(deps: BidsDeps, input: FollowUp, now: Date): Promise<void> {
  const topic = topicOf('offering', input.offeringId);
  const payload = {
    itemName: input.item.title,
    itemmarket: input.item.id,
    offeringId: input.offeringId,
    tokenImage: input.item.image,
  };
  const currency = input.currency as 'EUR';
  const steps: (() => Promise<unknown>)[] = [];
  if (input.kind === 'bid') {
    steps.push(() =>
      deps.publishTopic(topic, {
        type: 'bid.new',
        offeringId: input.offeringId,
        amount: input.visible,
        quantity: input.quantity,
        minimBid: input.minimBid,
        highestBid: input.highestBid,
        nick: input.nick,
        outbid: input.outbidNicks,
        bids: input.bids,
        end_at: input.endAt,
      }),
    );
  }
  if (input.newBidder) {
    steps.push(() =>
      deps.notify({
        to: input.sellerId,
        activity: 'market_bidcreated',
        eventKey: `bid:${input.offeringId}:${input.index}`,
        sourceid: input.bidderId,
        payload: {
          ...payload,
          sourcenick: input.nick,
          amount: { amount: input.visible * input.quantity, currency },
        },
      }),
    );
  }
  if (input.kind === 'cancel') {
    steps.push(() =>
      deps.publishTopic(topic, {
        type: 'offering.stats',
        offeringId: input.offeringId,
        bids: input.bids,
        highestBid: input.highestBid,
        minimBid: input.minimBid,
        end_at: input.endAt,
      }),
    );
  }
  if (input.extended) {
    steps.push(() =>
      deps.publishTopic(topic, {
        type: 'auction.extended',
        offeringId: input.offeringId,
        end_at: input.endAt,
      }),
    );
  }
  steps.push(() =>
    deps.publish(input.bidderId, {
      type: 'bid.response',
      offeringId: input.offeringId,
      status: input.kind === 'cancel' ? 'cancelled' : input.held ? 'active' : 'outbid',
      minimBid: input.minimBid,
    }),
  );
  for (const userId of input.outbid) {
    steps.push(() =>
      deps.publish(userId, {
        type: 'bid.outbid',
        offeringId: input.offeringId,
        minimBid: input.minimBid,
      }),
    );
    steps.push(() =>
      deps.notify({
        to: userId,
        activity: 'market_outbid',
        eventKey: `outbid:${input.offeringId}:${input.index}:${userId}`,
        sourceid: input.bidderId,
        payload: { ...payload, amount: { amount: input.minimBid, currency } },
      }),
    );
  }
  if (input.sync) {
    steps.push(() =>
      deps.offerings.apply(
        input.offeringId,
        {
          type: 'bids',
          index: input.index,
          bids: input.bids,
          highest_bid: input.highestBid,
          end_at: input.endAt,
        },
        now,
      ),
    );
  }
  const results = await Promise.allSettled(steps.map((step) => step()));
  const failed = results.filter((result) => result.status === 'rejected');
  for (const result of failed) {
    logger.error('a bid follow-up failed', {
      offeringId: input.offeringId,
      index: input.index,
      error: result.reason as Error,
    });
  }
  if (failed.length > 0) throw new Error(`${failed.length} bid follow-ups failed`);
}
