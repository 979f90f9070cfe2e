import { describe, expect, it } from 'vitest';
import type { ServerMessageDraft, Topic } from '../../shared/realtime/messages';
import { cancelBid as cancelRule, placeBid as placeRule, standingOf } from '../../shared/auction';
import type { NotifyInput } from '../notifications/index';
import type { BookEntry } from '../../shared/auction';
import type { BidLogLine, BidderRecord, BidsRepo, LotChangeNote } from './bids.repo';
import { mergedBook, newLot, type LotRecord } from './lot';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { LOT_TYPE, lotKey } from './bids.keys';
import {
  carryOut,
  followNoteSchema,
  followUpOf,
  performFollowUps,
  type FollowUp,
} from './follow-up';
import { cancelBid, createBid, forgetRecentLots } from './place';
import type { BidsDeps } from './ports';
import { bidInput } from './testing/inputs';
import { manualBudget } from '../core/clock';

/**
 * What follows a bid (issue 13 §5, §7): the seller hears of each new bidder once, not of every
 * rebid; an outbid bidder is told on their channel and by a notification; watchers get one
 * `bid.new` per bid that names who was outbid. Driven through createBid / cancelBid on a lot kept
 * in memory, with the workflow's task run in place of the workflow.
 */
const OFFERING = 'oF01KAXD0000000000000000000A';
const SELLER = '01KAXD0000000000000000SELL';
const NOW = new Date('2026-11-25T10:00:00.000Z');

function harness() {
  forgetRecentLots();
  let stored: LotRecord | undefined = newLot(
    {
      id: OFFERING,
      item_id: 'it01',
      seller_id: SELLER,
      issuer_id: SELLER,
      currency: 'EUR',
      start_at: '2026-11-24T10:00:00.000Z',
      end_at: '2026-11-28T10:00:00.000Z',
      copies: 1,
      price: 1_000,
      reserve_price: null,
      multi_copy: false,
      access: 'public',
      invited_ids: [],
      item_title: 'A print',
      item_image: 'https://images.example/a.webp',
      delivery: 'none',
      countries: [],
    },
    5 * 60_000,
  );
  const log: BidLogLine[] = [];
  /** Each commit's note, as the lot's write carries it to the table's stream. */
  const notes: LotChangeNote[] = [];
  /** Each commit's entries written with the lot (whole, and evicted bidders' standing bids). */
  const writes: { bidders: number; evicted: number }[] = [];
  /** The lot's versions whose write put it on the sweeper's list of lagging counters. */
  const staleMarks: number[] = [];
  const notified: NotifyInput[] = [];
  const published: { to: string; message: ServerMessageDraft }[] = [];
  const onTopic: { topic: Topic; message: ServerMessageDraft }[] = [];
  const followUps: FollowUp[] = [];
  const reads = { count: 0, bidders: 0, cards: 0 };
  const entries = new Map<string, BidderRecord>();
  const repo = {
    getLot: async () => {
      reads.count += 1;
      return stored === undefined ? undefined : structuredClone(stored);
    },
    biddersOf: async () => [...entries.values()].map((entry) => structuredClone(entry)),
    getBidder: async (_offeringId: string, userId: string) => {
      reads.bidders += 1;
      const entry = entries.get(userId);
      return entry === undefined ? undefined : structuredClone(entry);
    },
    async commit(
      lot: LotRecord,
      expected: number,
      note: LotChangeNote,
      bidders: readonly BidderRecord[],
      evicted: readonly BookEntry[] = [],
      markStale = false,
    ) {
      if ((stored?.version ?? 0) !== expected) {
        return { written: false, current: structuredClone(stored), conflict: false };
      }
      for (const entry of bidders) {
        const current = entries.get(entry.bidder_id);
        if ((current?.version ?? 0) !== entry.version - 1) {
          return {
            written: false,
            current: undefined,
            conflict: false,
            bidder: { current: structuredClone(current) },
          };
        }
      }
      for (const standing of evicted) {
        if (!entries.has(standing.bidder_id)) throw new Error('an evicted bidder without an entry');
      }
      stored = structuredClone(lot);
      for (const entry of bidders) entries.set(entry.bidder_id, structuredClone(entry));
      for (const standing of evicted) {
        const entry = entries.get(standing.bidder_id) as BidderRecord;
        entries.set(standing.bidder_id, {
          ...entry,
          standing: structuredClone(standing),
          last_at: standing.placed_at,
          lot_version: lot.version,
          version: entry.version + 1,
        });
      }
      writes.push({ bidders: bidders.length, evicted: evicted.length });
      if (markStale) staleMarks.push(lot.version);
      log.push(note.line);
      notes.push(structuredClone(note));
      // The table's stream hands the lot's note to the bidEvents trigger: the entry left to it,
      // then what follows.
      const derived = note.entry;
      if (derived !== undefined) {
        const entry = entries.get(derived.bidder_id) as BidderRecord;
        if ((entry.lot_version ?? 0) < note.version) {
          entries.set(derived.bidder_id, {
            ...entry,
            standing: structuredClone(derived.standing),
            last_at: derived.last_at,
            lot_version: note.version,
          });
        }
      }
      const input = followUpOf(lot, note.line, followNoteSchema.parse(note.line.follow));
      followUps.push(input);
      await performFollowUps(deps as unknown as BidsDeps, [input], NOW);
      return { written: true };
    },
  } as unknown as BidsRepo;
  const deps = {
    repo,
    offerings: { isInvited: async () => false, apply: async () => true },
    cardsOf: async () => [
      ((reads.cards += 1),
      {
        id: 'pm_card',
        brand: 'visa',
        funding: 'credit',
        last4: '4242',
        exp_month: 12,
        exp_year: 2034,
        created: NOW.toISOString(),
        default: true,
        expired: false,
      }),
    ],
    nickOf: async (userId: string) => `nick-${userId.slice(-4)}`,
    notify: async (input: NotifyInput) => {
      notified.push(input);
    },
    publish: async (to: string, message: ServerMessageDraft) => {
      published.push({ to, message });
    },
    publishTopic: async (topic: Topic, message: ServerMessageDraft) => {
      onTopic.push({ topic, message });
    },
    imagesBaseUrl: 'https://images.example',
    softCloseMs: 5 * 60_000,
  };
  const bid = (callerId: string, bidprice: number) =>
    createBid(
      deps as unknown as BidsDeps,
      bidInput(callerId, OFFERING, bidprice),
      NOW,
      manualBudget(29_000),
    );
  const sellerHeard = () =>
    notified.filter((entry) => entry.activity === 'market_bidcreated' && entry.to === SELLER);
  /** Another writer (another container's bid, a close step) rewrites the lot. */
  const rewrite = (change: (lot: LotRecord) => LotRecord) => {
    if (stored === undefined) throw new Error('no lot');
    stored = { ...change(structuredClone(stored)), version: stored.version + 1 };
  };
  /** Another container rewrites a bidder's entry (their bid in another tab). */
  const rewriteEntry = (userId: string, change: (entry: BidderRecord) => BidderRecord) => {
    const entry = entries.get(userId);
    if (entry === undefined) throw new Error('no entry');
    entries.set(userId, { ...change(structuredClone(entry)), version: entry.version + 1 });
  };
  const cancel = (callerId: string) =>
    cancelBid(
      deps as unknown as BidsDeps,
      { callerId, offeringId: OFFERING },
      NOW,
      manualBudget(29_000),
    );
  return {
    bid,
    cancel,
    rewrite,
    rewriteEntry,
    entries,
    reads,
    deps,
    notified,
    published,
    onTopic,
    followUps,
    sellerHeard,
    log,
    notes,
    writes,
    staleMarks,
    lot: () => stored as LotRecord,
  };
}

/** A bid as the rules take it (another container's, written behind this one's back). */
const bidInputOf = (bidderId: string, amount: number) => ({
  bidder_id: bidderId,
  bidder_nick: `nick-${bidderId.slice(-4)}`,
  amount,
  max: null,
  quantity: 1,
});

const ALICE = '01KAXD000000000000000ALICE';
const BOB = '01KAXD0000000000000000BOB0';
const CAROL = '01KAXD00000000000000CAROL0';
const DAVE = '01KAXD000000000000000DAVE0';
const ERIN = '01KAXD000000000000000ERIN0';
const FRANK = '01KAXD00000000000000FRANK0';

describe('what follows a bid', () => {
  it('tells the seller of a new bidder once, not of each of their rebids', async () => {
    const h = harness();
    await h.bid(ALICE, 1_000);
    await h.bid(ALICE, 1_500);
    await h.bid(ALICE, 2_000);
    expect(h.sellerHeard()).toHaveLength(1);
    expect(h.sellerHeard()[0]).toMatchObject({ sourceid: ALICE, eventKey: `bid:${OFFERING}:0` });
    await h.bid(BOB, 3_000);
    expect(h.sellerHeard().map((entry) => entry.sourceid)).toEqual([ALICE, BOB]);
    // Every bid still reaches the watchers and the bidder's own channel.
    expect(h.onTopic.filter((entry) => entry.message.type === 'bid.new')).toHaveLength(4);
    expect(h.published.filter((entry) => entry.message.type === 'bid.response')).toHaveLength(4);
  });

  it("puts the lot on the sweeper's list of lagging counters once per sync interval, with the bid that makes them lag", async () => {
    const h = harness();
    const at = (seconds: number) => new Date(NOW.getTime() + seconds * 1_000);
    const bidAt = (callerId: string, bidprice: number, seconds: number) =>
      createBid(
        h.deps as unknown as BidsDeps,
        bidInput(callerId, OFFERING, bidprice),
        at(seconds),
        manualBudget(29_000),
      );
    // The first bid brings the counters up to date at once (the market's card shows a bid).
    await bidAt(ALICE, 1_000, 0);
    expect(h.lot().stale).toBe(false);
    // Within the interval they lag: the first such bid lists the lot, the next ones find it listed.
    const first = h.lot().version;
    await bidAt(BOB, 1_500, 1);
    await bidAt(ALICE, 2_000, 2);
    await bidAt(BOB, 2_500, 3);
    expect(h.lot().stale).toBe(true);
    expect(h.staleMarks).toEqual([first + 1]);
    // Past the interval a bid syncs them again, and the next bid lists the lot again.
    await bidAt(ALICE, 3_000, 31);
    expect(h.lot().stale).toBe(false);
    const synced = h.lot().version;
    await bidAt(BOB, 3_500, 32);
    expect(h.staleMarks).toEqual([first + 1, synced + 1]);
    // A retraction that leaves them lagging lists nothing new.
    await h.cancel(BOB);
    expect(h.staleMarks).toHaveLength(2);
  });

  it('tells a bidder who retracted and bid again as a new bidder', async () => {
    const h = harness();
    await h.bid(ALICE, 1_000);
    await h.cancel(ALICE);
    expect(h.onTopic.at(-1)?.message.type).toBe('offering.stats');
    await h.bid(ALICE, 1_000);
    expect(h.sellerHeard()).toHaveLength(2);
  });

  it('names the outbid bidder to the watchers and tells them on their channel and by a notification', async () => {
    const h = harness();
    await h.bid(ALICE, 1_000);
    await h.bid(BOB, 1_500);
    const news = h.onTopic.filter((entry) => entry.message.type === 'bid.new');
    expect(news[0]?.message).toMatchObject({ nick: 'nick-LICE', outbid: [] });
    expect(news[1]?.message).toMatchObject({ nick: 'nick-BOB0', outbid: ['nick-LICE'] });
    expect(h.published).toContainEqual({
      to: ALICE,
      message: expect.objectContaining({ type: 'bid.outbid', offeringId: OFFERING }),
    });
    expect(h.notified.filter((entry) => entry.activity === 'market_outbid')).toEqual([
      expect.objectContaining({ to: ALICE, sourceid: BOB }),
    ]);
    // The bidder who holds the copy is not told they were outbid by their own rebid.
    await h.bid(BOB, 2_000);
    expect(h.notified.filter((entry) => entry.activity === 'market_outbid')).toHaveLength(1);
  });

  it('keeps a bid accepted when a follow-up fails, and reports the failure for the retry', async () => {
    const h = harness();
    const failing = {
      ...h.deps,
      publishTopic: async () => {
        throw new Error('gone');
      },
    } as unknown as BidsDeps;
    await h.bid(ALICE, 1_000);
    const input = h.followUps[0] as FollowUp;
    // The line is reported to be delivered again.
    expect(await performFollowUps(failing, [input], NOW)).toEqual([0]);
    expect(h.log).toHaveLength(1);
  });
});

describe('a lot keeps its leading bids alone', () => {
  const BIDDERS = [
    '01KAXD000000000000000000B1',
    '01KAXD000000000000000000B2',
    '01KAXD000000000000000000B3',
    '01KAXD000000000000000000B4',
    '01KAXD000000000000000000B5',
    '01KAXD000000000000000000B6',
  ];
  const ids = (lot: LotRecord) => lot.auction.book.map((entry) => entry.bidder_id).sort();

  it('the winner and the next three; a bidder left out rebids from their entry; a retraction brings one back', async () => {
    const h = harness();
    for (const [index, bidder] of BIDDERS.entries()) await h.bid(bidder, 1_000 + index * 100);
    const [b1, b2, b3, b4, b5, b6] = BIDDERS as [string, string, string, string, string, string];
    // Six bidders, the lot holds the winner and the next three; the first two are on their entries.
    expect(ids(h.lot())).toEqual([b3, b4, b5, b6].sort());
    expect(h.lot().auction.bidders).toBe(6);
    expect(h.entries.get(b1)?.standing).toMatchObject({ bidder_id: b1, max: 1_000 });
    // A bidder left out sees their bid, outbid, among the leading ones; the count is everyone.
    const view = await h.bid(b1, 1_700);
    expect(view.mine).toMatchObject({ status: 'active', max: 1_700 });
    expect(view.bids).toBe(6);
    expect(view.bidlist.map((entry) => entry.status)).toEqual([
      'active',
      'outbid',
      'outbid',
      'outbid',
    ]);
    // b1's rebid started from their entry's bid and outbid b6, named to the watchers.
    expect(h.onTopic.at(-1)?.message).toMatchObject({ type: 'bid.new', outbid: ['nick-00B6'] });
    expect(ids(h.lot())).toEqual([b1, b4, b5, b6].sort());
    // b2, left out, sees their own bid too (outbid), with the leading ones.
    const second = await h.bid(b2, 1_000 + 100 * 20);
    expect(second.mine?.status).toBe('active');
    expect(ids(h.lot())).toEqual([b1, b2, b5, b6].sort());
    // b2 retracts: b1 wins again, and the margin takes back b4's bid from b4's entry.
    const back = await h.cancel(b2);
    expect(back.mine?.status).toBe('cancelled');
    expect(standingOf(h.lot().auction).allocation.map((w) => w.bidder_id)).toEqual([b1]);
    expect(ids(h.lot())).toEqual([b1, b4, b5, b6].sort());
    expect(h.lot().auction.bidders).toBe(5);
    expect(h.entries.get(b2)?.standing).toBeNull();
  });
});

describe("the container's copy of a lot", () => {
  it('bids again without reading the lot it just wrote', async () => {
    const h = harness();
    await h.bid(ALICE, 1_000);
    const readsAfterFirst = h.reads.count;
    await h.bid(ALICE, 1_500);
    await h.bid(BOB, 2_000);
    expect(h.reads.count).toBe(readsAfterFirst);
    expect(h.log.map((line) => [line.index, line.bidder_id])).toEqual([
      [0, ALICE],
      [1, ALICE],
      [2, BOB],
    ]);
  });

  it('decides again on the lot DynamoDB hands back when another writer came first', async () => {
    const h = harness();
    await h.bid(ALICE, 1_000);
    await h.bid(BOB, 1_500);
    // Another container wrote the lot meanwhile: this container's copy is one version behind.
    h.rewrite((lot) => lot);
    const reads = h.reads.count;
    const view = await h.bid(ALICE, 3_000);
    expect(view.mine?.status).toBe('active');
    // The failed write returned the lot: no read, and nothing lost or doubled.
    expect(h.reads.count).toBe(reads);
    expect(h.log.map((line) => line.index)).toEqual([0, 1, 2]);
  });

  it('never refuses on a stale copy: a retraction elsewhere makes a lower bid valid', async () => {
    const h = harness();
    await h.bid(ALICE, 1_000);
    const staleMinimum = (await h.bid(BOB, 2_000)).minimBid;
    // Bob retracts through another container; this one still holds the lot with Bob's bid.
    const retracted = cancelRule(h.lot().auction, BOB, NOW);
    if (!retracted.ok) throw new Error(retracted.code);
    h.rewrite((lot) => ({ ...lot, auction: retracted.state, log: lot.log + 1 }));
    const freshMinimum = standingOf(h.lot().auction).min_next;
    expect(freshMinimum).toBeLessThan(staleMinimum);
    const reads = h.reads.count;
    const view = await h.bid(CAROL, freshMinimum);
    expect(view.mine?.status).toBe('active');
    expect(h.reads.count).toBe(reads + 1);
  });

  it("keeps each bidder's card on their entry, checked with Stripe once, not on the lot", async () => {
    const h = harness();
    await h.bid(ALICE, 1_000);
    await h.bid(BOB, 1_500);
    await h.bid(ALICE, 2_000);
    // Stripe is asked once per bidder; the rebid finds the card on Alice's entry.
    expect(h.reads.cards).toBe(2);
    expect(h.entries.get(ALICE)).toMatchObject({
      nick: 'nick-LICE',
      card: { id: 'pm_card', brand: 'visa', last4: '4242' },
      first_at: NOW.toISOString(),
      cancelled_at: null,
      // Her rebid kept her in the lot's book: it wrote the lot alone, and the stream brought
      // her entry up to it (her standing bid, for My Bids).
      version: 1,
      lot_version: 3,
      standing: { amount: 2_000 },
    });
    expect(h.writes).toEqual([
      { bidders: 1, evicted: 0 },
      { bidders: 1, evicted: 0 },
      { bidders: 0, evicted: 0 },
    ]);
    // The lot holds the bids alone.
    expect(JSON.stringify(h.lot())).not.toContain('pm_card');
    expect((await h.bid(ALICE, 2_500)).mine).toMatchObject({
      nick: 'nick-LICE',
      card: { last4: '4242' },
      status: 'active',
    });
  });

  it("writes the entry of a bidder a bid leaves out of the lot's book with the lot, and theirs when they come back", async () => {
    const h = harness();
    // One copy: the winner and the next three stay in the lot's book.
    await h.bid(ALICE, 1_000);
    await h.bid(BOB, 1_500);
    // Alice rebids while in the book: the lot alone.
    await h.bid(ALICE, 2_000);
    expect(h.writes.at(-1)).toEqual({ bidders: 0, evicted: 0 });
    expect(h.entries.get(ALICE)).toMatchObject({ version: 1, standing: { amount: 2_000 } });
    // Were the stream to lag, her entry would still say 1,000.
    h.entries.set(ALICE, {
      ...(h.entries.get(ALICE) as BidderRecord),
      standing: { ...(h.entries.get(ALICE)?.standing as BookEntry), amount: 1_000, max: 1_000 },
      lot_version: 1,
    });
    await h.bid(CAROL, 2_500);
    await h.bid(DAVE, 3_000);
    // Erin's bid pushes Bob, the lowest, out of the book: his entry is written with the lot.
    await h.bid(ERIN, 3_500);
    expect(h.writes.at(-1)).toEqual({ bidders: 1, evicted: 1 });
    expect(h.entries.get(BOB)).toMatchObject({ version: 2, lot_version: 6 });
    // Frank's pushes Alice out: her standing bid as the lot held it goes on her entry at once.
    await h.bid(FRANK, 4_000);
    expect(h.lot().auction.book.map((entry) => entry.bidder_id)).not.toContain(ALICE);
    expect(h.writes.at(-1)).toEqual({ bidders: 1, evicted: 1 });
    expect(h.entries.get(ALICE)).toMatchObject({
      version: 2,
      lot_version: 7,
      last_at: NOW.toISOString(),
      standing: { amount: 2_000, max: 2_000 },
    });
    // Her comeback is decided on that entry and writes it with the lot; Carol, now the lowest
    // kept, is left out in turn.
    await h.bid(ALICE, 5_000);
    expect(h.writes.at(-1)).toEqual({ bidders: 1, evicted: 1 });
    expect(h.entries.get(ALICE)).toMatchObject({ version: 3, standing: { amount: 5_000 } });
    expect(h.entries.get(CAROL)).toMatchObject({ lot_version: 8, standing: { amount: 2_500 } });
    // The whole book, as the close takes it: the lot's bids, the others' entries.
    expect(
      mergedBook(h.lot().auction.book, [...h.entries.values()])
        .map((entry) => [entry.bidder_id, entry.amount])
        .sort(),
    ).toEqual(
      [
        [ALICE, 5_000],
        [BOB, 1_500],
        [CAROL, 2_500],
        [DAVE, 3_000],
        [ERIN, 3_500],
        [FRANK, 4_000],
      ].sort(),
    );
  });

  it("decides again on the bidder's entry handed back when it moved on through another container", async () => {
    const h = harness();
    await h.bid(ALICE, 1_000);
    await h.bid(BOB, 1_500);
    await h.bid(CAROL, 2_000);
    await h.bid(DAVE, 2_500);
    await h.bid(ERIN, 3_000);
    // Alice, left out of the book, bid in another tab through another container: the lot and
    // her entry moved on.
    h.rewrite((lot) => lot);
    h.rewriteEntry(ALICE, (entry) => ({ ...entry, last_at: '2026-11-25T09:59:00.000Z' }));
    const bidderReads = h.reads.bidders;
    const view = await h.bid(ALICE, 3_500);
    expect(view.mine?.status).toBe('active');
    // Both came back with the failed writes: nothing read, nothing lost or doubled.
    expect(h.reads.bidders).toBe(bidderReads);
    expect(h.entries.get(ALICE)).toMatchObject({ version: 4, first_at: NOW.toISOString() });
    expect(h.log.map((line) => [line.index, line.bidder_id])).toEqual([
      [0, ALICE],
      [1, BOB],
      [2, CAROL],
      [3, DAVE],
      [4, ERIN],
      [5, ALICE],
    ]);
  });

  it("refuses on the lot handed back without reading it or the bidder's entry again", async () => {
    const h = harness();
    await h.bid(ALICE, 1_000);
    await h.bid(BOB, 1_500);
    // Bob raised his bid through another container: this container's lot is one bid behind.
    h.rewrite((lot) => {
      const raised = placeRule(lot.auction, bidInputOf(BOB, 3_000), NOW);
      if (!raised.ok) throw new Error(raised.code);
      return { ...lot, auction: raised.state, log: lot.log + 1 };
    });
    const reads = { lots: h.reads.count, entries: h.reads.bidders };
    // Alice's 2,000 beats the lot she holds; the lot handed back by the failed write refuses it,
    // and her own bid is in that lot, so her cached entry does not count.
    await expect(h.bid(ALICE, 2_000)).rejects.toMatchObject({ code: 'market.bid.errors.beaten' });
    expect({ lots: h.reads.count, entries: h.reads.bidders }).toEqual(reads);
  });

  it('refuses on the lot as it stands', async () => {
    const h = harness();
    await h.bid(ALICE, 1_000);
    await expect(h.bid(BOB, 1_000)).rejects.toMatchObject({ code: 'market.bid.errors.beaten' });
  });
});

describe('a kept bidEvents batch handed over again (replay)', () => {
  /** The lot's write as the table's stream carries it: the lot with its note (`last`). */
  function streamed(lot: LotRecord, note: LotChangeNote): DynamoDBStreamEvent {
    return {
      Records: [
        {
          eventName: 'MODIFY',
          dynamodb: {
            SequenceNumber: '100',
            NewImage: marshall(
              { ...lotKey(OFFERING), type: LOT_TYPE, ...lot, last: note },
              { removeUndefinedValues: true },
            ) as never,
          },
        },
      ],
    };
  }

  it("writes the lines and, for a lot still open, sends what is kept for good; for a closed lot, what the lot's record keeps only", async () => {
    const h = harness();
    await h.bid(ALICE, 1_000);
    await h.bid(BOB, 1_100);
    const note = h.notes.at(-1) as LotChangeNote;
    const lot = h.lot();
    const event = streamed(lot, note);
    const replayWith = async (phase: LotRecord['phase']) => {
      const applied: number[] = [];
      const notified: NotifyInput[] = [];
      const pushed: unknown[] = [];
      const deps = {
        ...h.deps,
        repo: {
          ...h.deps.repo,
          applyChanges: async (changes: readonly { note: LotChangeNote }[]) => {
            applied.push(...changes.map((change) => change.note.line.index));
          },
          getLots: async () => [{ ...lot, phase }],
        },
        notify: async (input: NotifyInput) => {
          notified.push(input);
        },
        publish: async (...args: unknown[]) => {
          pushed.push(args);
        },
        publishTopic: async (...args: unknown[]) => {
          pushed.push(args);
        },
      } as unknown as BidsDeps;
      const failed = await carryOut(deps, event, 'replay', NOW);
      return { failed, applied, notified, pushed };
    };
    // Open: the line is written, the seller told of a new bidder and Alice that she was outbid
    // (keyed by the line: a notice sent before the batch failed is not sent twice), and no live
    // event (the watchers know newer).
    const open = await replayWith('open');
    expect(open.failed).toEqual([]);
    expect(open.applied).toEqual([note.line.index]);
    expect(open.notified.map((n) => [n.activity, n.to, n.eventKey]).sort()).toEqual([
      ['market_bidcreated', SELLER, `bid:${OFFERING}:${note.line.index}`],
      ['market_outbid', ALICE, `outbid:${OFFERING}:${note.line.index}:${ALICE}`],
    ]);
    expect(open.pushed).toEqual([]);
    // Closed: everyone was told how it ended; the line is written and nobody is told anything.
    const closed = await replayWith('closed');
    expect(closed.failed).toEqual([]);
    expect(closed.applied).toEqual([note.line.index]);
    expect(closed.notified).toEqual([]);
    expect(closed.pushed).toEqual([]);
  });
});
