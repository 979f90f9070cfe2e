import * as z from 'zod';
import { bidderCount, standingOf, type BidOutcome } from '../../shared/auction';
import { topicOf } from '../../shared/realtime/messages';
import { logger } from '../core/logger';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { changesOf, type BidLogLine } from './bids.repo';
import type { LotRecord } from './lot';
import type { BidsDeps } from './ports';

/**
 * What follows an accepted bid or cancellation (issue 13 §5): the watchers' live events on the
 * offering's topic, the bidder's answer on their own channel, the outbid bidders and the seller
 * told, and the offering's counters refreshed when due. None of it decides anything, so the bid
 * leaves what the lot cannot tell of it in its note on the lot, in its own write, and the
 * `bidEvents` stream trigger performs it from the lot's image on the table's stream: the bidder
 * waits for none of it, a crash right after the bid loses none of it, and a batch delivered twice
 * tells nobody twice (notifications are keyed by the line).
 */
export interface FollowUp {
  offeringId: string;
  sellerId: string;
  currency: string;
  index: number;
  kind: 'bid' | 'cancel';
  bidderId: string;
  nick: string;
  /** The bid's visible amount per copy (its price if it holds copies, else its maximum). */
  visible: number;
  quantity: number;
  held: boolean;
  /**
   * The bidder's first bid on the lot (or their first since retracting): the seller is told of a
   * new bidder, not of every rebid (a hot lot's rebids would flood them; the page shows the rest).
   */
  newBidder: boolean;
  outbid: string[];
  /** The outbid bidders' nicks, as watchers see them. */
  outbidNicks: string[];
  extended: boolean;
  /** Refresh the offering's counters (cards, delisting) now. */
  sync: boolean;
  minimBid: number;
  highestBid: number | null;
  bids: number;
  endAt: string;
  item: { title: string; image: string; id: string };
}

/**
 * What a change's note keeps of what follows it: only what the lot it wrote cannot tell (who lost
 * copies, whether the end moved, whether the counters are due, whether the bidder is new). The
 * rest (the standing, the item, the end) comes from the lot's image on the stream.
 */
export const followNoteSchema = z.object({
  outbid: z.array(z.string()),
  /** The outbid bidders' nicks, as watchers see them. */
  outbidNicks: z.array(z.string()),
  extended: z.boolean(),
  sync: z.boolean(),
  newBidder: z.boolean(),
});
export type FollowNote = z.infer<typeof followNoteSchema>;

export function followNoteOf(change: {
  outcome: Extract<BidOutcome, { ok: true }>;
  sync: boolean;
  bidderId: string;
  /** The bidder had no standing bid on the lot before this line. */
  newBidder: boolean;
}): FollowNote {
  const outbid = change.outcome.outbid.filter((userId) => userId !== change.bidderId);
  return {
    outbid,
    // From the whole book the change was decided on: an outbid bid may be left out of the lot's.
    outbidNicks: outbid.map(
      (userId) =>
        change.outcome.state.book.find((entry) => entry.bidder_id === userId)?.bidder_nick ?? '',
    ),
    extended: change.outcome.extended,
    sync: change.sync,
    newBidder: change.newBidder,
  };
}

/**
 * What follows a change, from the lot as the change wrote it (its image on the stream) and its
 * note. The lot's book is its contending part, whose standing is the whole book's.
 */
export function followUpOf(
  lot: LotRecord,
  line: Omit<BidLogLine, 'follow'>,
  note: FollowNote,
): FollowUp {
  const standing = standingOf(lot.auction);
  const held = standing.leaders.find((w) => w.bidder_id === line.bidder_id);
  return {
    offeringId: lot.offering_id,
    sellerId: lot.seller_id,
    currency: lot.currency,
    index: line.index,
    kind: line.kind,
    bidderId: line.bidder_id,
    nick: line.nick,
    visible: held?.price ?? line.max,
    quantity: line.quantity,
    held: held !== undefined,
    newBidder: note.newBidder,
    outbid: note.outbid,
    outbidNicks: note.outbidNicks,
    extended: note.extended,
    sync: note.sync,
    minimBid: standing.min_next,
    highestBid: standing.highest,
    bids: bidderCount(lot.auction),
    endAt: lot.auction.end_at,
    item: { title: lot.item_title, image: lot.item_image, id: lot.item_id },
  };
}

type Step = () => Promise<unknown>;

/**
 * The bidder's answer on their own channel (their other tabs and devices) for their lines of a lot
 * handled together: the newest line's status once, as watchers get the newest state (a bidder
 * rebidding fast gets one answer per batch, never an older status last).
 */
function answerStep(deps: BidsDeps, latest: FollowUp): Step {
  return () =>
    deps.publish(latest.bidderId, {
      type: 'bid.response',
      offeringId: latest.offeringId,
      status: latest.kind === 'cancel' ? 'cancelled' : latest.held ? 'active' : 'outbid',
      minimBid: latest.minimBid,
    });
}

/**
 * How follow-ups are performed: `live` as the stream hands the changes over (everything); `replay`
 * for a batch Lambda gave up on and kept, handed over again maybe hours later
 * (core/failed-batches.ts): what is kept for good (notifications, keyed by the line, so a part
 * done before is not done twice; the offering's counters, which take an index and never go back)
 * but not the live events, since the watchers and the bidder's tabs hold a newer state by then
 * (an old one would take them back, and a page load reads the lot as it stands).
 */
export type FollowUpMode = 'live' | 'replay';

/** What one line alone is owed: the outbid bidders and the seller told. */
function ownSteps(deps: BidsDeps, input: FollowUp, mode: FollowUpMode): Step[] {
  const payload = {
    itemName: input.item.title,
    itemmarket: input.item.id,
    offeringId: input.offeringId,
    tokenImage: input.item.image,
  };
  const currency = input.currency as 'EUR';
  const steps: Step[] = [];
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
  for (const userId of input.outbid) {
    if (mode === 'live') {
      steps.push(() =>
        deps.publish(userId, {
          type: 'bid.outbid',
          offeringId: input.offeringId,
          minimBid: input.minimBid,
        }),
      );
    }
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
  return steps;
}

/**
 * What the watchers of one lot hear for consecutive lines of it (in order): the newest line's
 * state once, as `bid.new` when it is a bid (else `offering.stats`), `auction.extended` with the
 * newest end if any line extended it, and the offering's counters if any line made them due.
 * Watchers only show a lot's newest state, so lines handled together are conflated (a hot lot's
 * thousand watchers get one event per batch, not one per bid, and never an older state last).
 */
function lotSteps(
  deps: BidsDeps,
  lines: readonly FollowUp[],
  now: Date,
  mode: FollowUpMode,
): Step[] {
  const latest = lines.at(-1);
  if (latest === undefined) return [];
  const topic = topicOf('offering', latest.offeringId);
  const steps: Step[] = [];
  if (mode === 'replay') {
    // Only the counters: the watchers' events would be older than what they show.
  } else if (latest.kind === 'bid') {
    steps.push(() =>
      deps.publishTopic(topic, {
        type: 'bid.new',
        offeringId: latest.offeringId,
        amount: latest.visible,
        quantity: latest.quantity,
        minimBid: latest.minimBid,
        highestBid: latest.highestBid,
        nick: latest.nick,
        outbid: latest.outbidNicks,
        bids: latest.bids,
        end_at: latest.endAt,
      }),
    );
  } else {
    steps.push(() =>
      deps.publishTopic(topic, {
        type: 'offering.stats',
        offeringId: latest.offeringId,
        bids: latest.bids,
        highestBid: latest.highestBid,
        minimBid: latest.minimBid,
        end_at: latest.endAt,
      }),
    );
  }
  if (mode === 'live' && lines.some((line) => line.extended)) {
    steps.push(() =>
      deps.publishTopic(topic, {
        type: 'auction.extended',
        offeringId: latest.offeringId,
        end_at: latest.endAt,
      }),
    );
  }
  if (lines.some((line) => line.sync)) {
    steps.push(() =>
      deps.offerings.apply(
        latest.offeringId,
        {
          type: 'bids',
          index: latest.index,
          bids: latest.bids,
          highest_bid: latest.highestBid,
          end_at: latest.endAt,
        },
        now,
      ),
    );
  }
  return steps;
}

/** Runs steps together; answers how many failed (each logged). */
async function attempt(steps: readonly Step[], input: FollowUp): Promise<number> {
  const results = await Promise.allSettled(steps.map((step) => step()));
  const failed = results.filter((result) => result.status === 'rejected');
  for (const result of failed) {
    logger.error('a bid follow-up failed', {
      offeringId: input.offeringId,
      index: input.index,
      error: result.reason as Error,
    });
  }
  return failed.length;
}

/**
 * The bidEvents stream trigger: the follow-ups of a batch of changes, in stream order. Every step
 * is attempted; answers the positions of the lines to deliver again (a line whose own step failed;
 * the newest line of a conflated group whose step failed), so the retry starts at the first.
 */
export async function performFollowUps(
  deps: BidsDeps,
  inputs: readonly FollowUp[],
  now: Date,
  mode: FollowUpMode = 'live',
): Promise<number[]> {
  const failed = new Set<number>();
  const groups = (key: (input: FollowUp) => string) => {
    const found = new Map<string, number[]>();
    inputs.forEach((input, position) => {
      const positions = found.get(key(input)) ?? [];
      positions.push(position);
      found.set(key(input), positions);
    });
    return [...found.values()];
  };
  const conflated = async (positions: number[], steps: (lines: FollowUp[]) => Step[]) => {
    const lines = positions.map((position) => inputs[position] as FollowUp);
    if ((await attempt(steps(lines), lines.at(-1) as FollowUp)) > 0) {
      failed.add(positions.at(-1) as number);
    }
  };
  await Promise.all([
    ...inputs.map(async (input, position) => {
      if ((await attempt(ownSteps(deps, input, mode), input)) > 0) failed.add(position);
    }),
    ...(mode === 'live'
      ? groups((input) => `${input.offeringId}\n${input.bidderId}`).map((positions) =>
          conflated(positions, (lines) => [answerStep(deps, lines.at(-1) as FollowUp)]),
        )
      : []),
    ...groups((input) => input.offeringId).map((positions) =>
      conflated(positions, (lines) => lotSteps(deps, lines, now, mode)),
    ),
  ]);
  return [...failed].sort((a, b) => a - b);
}

/**
 * Carries out a batch; answers the sequence numbers of the records to deliver again. A replayed
 * batch's lines are written as any (idempotent), and what follows them only for lots still open:
 * once a lot is closed its bidders and its seller have been told how it ended, and an outbid
 * notice or the counters of a bid from before would come after that.
 */
export async function carryOut(
  deps: BidsDeps,
  event: DynamoDBStreamEvent,
  mode: FollowUpMode,
  now: Date,
): Promise<string[]> {
  const changes = changesOf(event);
  await deps.repo.applyChanges(changes);
  const open =
    mode === 'live'
      ? undefined
      : new Set(
          (await deps.repo.getLots(changes.map(({ lot }) => lot.offering_id)))
            .filter((lot) => lot.phase !== 'closed')
            .map((lot) => lot.offering_id),
        );
  const lines: { sequence: string; input: FollowUp }[] = [];
  for (const { sequence, note, lot } of changes) {
    if (open !== undefined && !open.has(lot.offering_id)) continue;
    const parsed = followNoteSchema.safeParse(note.line.follow);
    if (parsed.success) lines.push({ sequence, input: followUpOf(lot, note.line, parsed.data) });
    else
      logger.error('a bid change carries no valid follow-up', {
        sequence,
        issues: parsed.error.issues,
      });
  }
  const failed = await performFollowUps(
    deps,
    lines.map((line) => line.input),
    now,
    mode,
  );
  return failed.map((position) => (lines[position] as { sequence: string }).sequence);
}
