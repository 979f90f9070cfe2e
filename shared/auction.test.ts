import { describe, expect, it } from 'vitest';
import {
  AUCTION_LIMITS,
  BID_INCREMENTS,
  bidderCount,
  bidExpiryOf,
  CONTENDING_MARGIN,
  contending,
  cancelBid,
  incrementAt,
  placeBid,
  replay,
  standingOf,
  substitutesFor,
  winnersOf,
  type AuctionState,
  type BidRefusal,
  type BookEntry,
  type BookAction,
  type Offer,
} from './auction';

const END = '2026-12-01T12:00:00.000Z';
/** A time `minutes` before the end. */
const before = (minutes: number) => new Date(Date.parse(END) - minutes * 60_000);
const DAY = 24 * 60;

function lot(overrides: Partial<AuctionState> = {}): AuctionState {
  return {
    copies: 1,
    min_price: 1_000,
    reserve: null,
    multi_copy: false,
    soft_close_ms: AUCTION_LIMITS.softCloseMs,
    end_at: END,
    seq: 0,
    book: [],
    ...overrides,
  };
}

/** A step: who bids what (amount, optional max, quantity), or cancels, and when (minutes left). */
type Step =
  | { bid: string; amount: number; max?: number; quantity?: number; left?: number }
  | { cancel: string; left?: number };

interface Expect {
  /** bidder:copies@price, rank order. */
  allocation?: string[];
  /** The same for who leads, the reserve met or not. */
  leaders?: string[];
  min_next?: number;
  highest?: number | null;
  reserve_met?: boolean | null;
  /** The last step's refusal. */
  refused?: BidRefusal;
  /** The last step moved the end. */
  extended?: boolean;
  /** The last step's outbid bidders. */
  outbid?: string[];
}

function run(start: AuctionState, steps: Step[]) {
  let state = start;
  let last: ReturnType<typeof placeBid> | undefined;
  for (const step of steps) {
    const at = before(step.left ?? 2 * DAY);
    last =
      'bid' in step
        ? placeBid(
            state,
            {
              bidder_id: step.bid,
              bidder_nick: step.bid.toLowerCase(),
              amount: step.amount,
              max: step.max ?? null,
              quantity: step.quantity ?? 1,
            },
            at,
          )
        : cancelBid(state, step.cancel, at);
    if (last.ok) state = last.state;
  }
  if (last === undefined) return { state, last: { ok: false, code: 'none', min_next: 0 } as const };
  return { state, last };
}

type Row = [label: string, start: Partial<AuctionState>, steps: Step[], expected: Expect];

const rows: Row[] = [
  // --- thresholds and increments ---
  ['no bids: the minimum bid is the threshold', {}, [], { min_next: 1_000, highest: null }],
  [
    'a bid at the minimum is accepted and wins at it',
    {},
    [{ bid: 'A', amount: 1_000 }],
    { allocation: ['A:1@1000'], min_next: 1_050, highest: 1_000 },
  ],
  [
    'below the minimum is refused (too low)',
    {},
    [{ bid: 'A', amount: 999 }],
    { refused: 'market.bid.errors.too_low', min_next: 1_000 },
  ],
  [
    'a second bid must beat the current price by the increment (10.00 → 10.50)',
    {},
    [
      { bid: 'A', amount: 1_000 },
      { bid: 'B', amount: 1_049 },
    ],
    { refused: 'market.bid.errors.too_low', min_next: 1_050 },
  ],
  [
    'beating by the increment takes the lot; the loser is outbid',
    {},
    [
      { bid: 'A', amount: 1_000 },
      { bid: 'B', amount: 1_050 },
    ],
    { allocation: ['B:1@1050'], outbid: ['A'], min_next: 1_100 },
  ],
  [
    'increments follow the price tier: 1.00 → +0.25',
    { min_price: 100 },
    [{ bid: 'A', amount: 100 }],
    { min_next: 125 },
  ],
  [
    'increments follow the price tier: 250.00 → +5.00',
    { min_price: 25_000 },
    [{ bid: 'A', amount: 25_000 }],
    { min_next: 25_500 },
  ],
  [
    'amounts must be whole minor units of at least 1',
    {},
    [{ bid: 'A', amount: 10.5 }],
    { refused: 'market.bid.errors.amount' },
  ],
  [
    'amounts above the largest bid are refused',
    {},
    [{ bid: 'A', amount: AUCTION_LIMITS.maxBid + 1 }],
    { refused: 'market.bid.errors.amount' },
  ],
  // --- proxy ---
  [
    'proxy: alone, a maximum bids only the amount',
    {},
    [{ bid: 'A', amount: 1_000, max: 5_000 }],
    { allocation: ['A:1@1000'], min_next: 1_050 },
  ],
  [
    'proxy: a challenger below the maximum is outbid at once, the price one increment above it',
    {},
    [
      { bid: 'A', amount: 1_000, max: 5_000 },
      { bid: 'B', amount: 2_000 },
    ],
    { allocation: ['A:1@2050'], outbid: [], min_next: 2_100 },
  ],
  [
    'proxy: a challenger above the maximum wins at one increment above it',
    {},
    [
      { bid: 'A', amount: 1_000, max: 5_000 },
      { bid: 'B', amount: 2_000, max: 9_000 },
    ],
    { allocation: ['B:1@5100'], outbid: ['A'] },
  ],
  [
    'proxy: the price never passes the maximum (capped at it)',
    {},
    [
      { bid: 'A', amount: 1_000, max: 5_000 },
      { bid: 'B', amount: 4_990 },
    ],
    { allocation: ['A:1@5000'], min_next: 5_100 },
  ],
  [
    'proxy: among equal maxima the earlier bid wins, at that maximum',
    {},
    [
      { bid: 'A', amount: 1_000, max: 5_000 },
      { bid: 'B', amount: 5_000 },
    ],
    { allocation: ['A:1@5000'], outbid: [] },
  ],
  [
    'a maximum below the amount is refused',
    {},
    [{ bid: 'A', amount: 2_000, max: 1_500 }],
    { refused: 'market.bid.errors.max_below_amount' },
  ],
  // --- rebids ---
  [
    'a winner may raise their maximum without beating themselves',
    {},
    [
      { bid: 'A', amount: 1_000 },
      { bid: 'A', amount: 1_000, max: 3_000 },
    ],
    { allocation: ['A:1@1000'] },
  ],
  [
    'a rebid must raise the maximum',
    {},
    [
      { bid: 'A', amount: 1_000, max: 3_000 },
      { bid: 'A', amount: 1_000, max: 3_000 },
    ],
    { refused: 'market.bid.errors.not_higher' },
  ],
  [
    'a rebid keeps the same quantity',
    { copies: 3, multi_copy: true },
    [
      { bid: 'A', amount: 1_000, quantity: 2 },
      { bid: 'A', amount: 2_000, quantity: 1 },
    ],
    { refused: 'market.bid.errors.rebid_quantity' },
  ],
  [
    'an outbid bidder rebids above the threshold and wins back',
    {},
    [
      { bid: 'A', amount: 1_000 },
      { bid: 'B', amount: 1_050 },
      { bid: 'A', amount: 1_100 },
    ],
    { allocation: ['A:1@1100'], outbid: ['B'] },
  ],
  // --- quantity ---
  [
    'one copy per bidder when the seller says so',
    { copies: 3, multi_copy: false },
    [{ bid: 'A', amount: 1_000, quantity: 2 }],
    { refused: 'market.bid.errors.one_copy' },
  ],
  [
    'no more copies than the lot has',
    { copies: 3, multi_copy: true },
    [{ bid: 'A', amount: 1_000, quantity: 4 }],
    { refused: 'market.bid.errors.quantity' },
  ],
  [
    'quantity of at least 1',
    { copies: 3, multi_copy: true },
    [{ bid: 'A', amount: 1_000, quantity: 0 }],
    { refused: 'market.bid.errors.quantity' },
  ],
  // --- multi-copy ---
  [
    'multi-copy: while copies are free, every bid wins at its amount and the threshold stays the minimum',
    { copies: 3, multi_copy: true },
    [
      { bid: 'A', amount: 1_500 },
      { bid: 'B', amount: 1_000 },
    ],
    { allocation: ['A:1@1500', 'B:1@1000'], min_next: 1_000, highest: 1_500 },
  ],
  [
    'multi-copy: once all are allocated the threshold is the lowest winning price + increment',
    { copies: 2, multi_copy: true },
    [
      { bid: 'A', amount: 1_500 },
      { bid: 'B', amount: 1_000 },
    ],
    { allocation: ['A:1@1500', 'B:1@1000'], min_next: 1_050 },
  ],
  [
    "multi-copy: a higher bid pushes the lowest out; each pays their own price (A's competition is B's 10.00)",
    { copies: 2, multi_copy: true },
    [
      { bid: 'A', amount: 1_500, max: 4_000 },
      { bid: 'B', amount: 1_000 },
      { bid: 'C', amount: 2_000 },
    ],
    { allocation: ['A:1@1500', 'C:1@2000'], outbid: ['B'], min_next: 1_550 },
  ],
  [
    'multi-copy: the last winner is filled in part (partial fill)',
    { copies: 3, multi_copy: true },
    [
      { bid: 'A', amount: 2_000, quantity: 2 },
      { bid: 'B', amount: 1_500, quantity: 2 },
    ],
    { allocation: ['A:2@2000', 'B:1@1500'], min_next: 1_550 },
  ],
  [
    "multi-copy: a partly filled bid's unmet demand is the competition above it",
    { copies: 3, multi_copy: true },
    [
      { bid: 'A', amount: 1_000, max: 3_000, quantity: 2 },
      { bid: 'B', amount: 1_500, quantity: 2 },
    ],
    { allocation: ['A:2@1550', 'B:1@1500'] },
  ],
  [
    'multi-copy: a big bid takes copies from two winners',
    { copies: 2, multi_copy: true },
    [
      { bid: 'A', amount: 1_000 },
      { bid: 'B', amount: 1_200 },
      { bid: 'C', amount: 1_500, quantity: 2 },
    ],
    { allocation: ['C:2@1500'], outbid: ['B', 'A'] },
  ],
  [
    'multi-copy: a winner holding all they asked for raises their maximum freely',
    { copies: 2, multi_copy: true },
    [
      { bid: 'A', amount: 1_000 },
      { bid: 'B', amount: 1_000 },
      { bid: 'A', amount: 1_000, max: 2_000 },
    ],
    { allocation: ['A:1@1000', 'B:1@1000'] },
  ],
  [
    'multi-copy with proxy: equal maxima, the earlier takes the last copy',
    { copies: 2, multi_copy: true },
    [
      { bid: 'A', amount: 3_000 },
      { bid: 'B', amount: 1_000, max: 2_000 },
      { bid: 'C', amount: 2_000, max: 2_000 },
    ],
    { allocation: ['A:1@3000', 'B:1@2000'], outbid: [] },
  ],
  // --- reserve ---
  [
    'reserve: a bid below it is accepted and leads but wins nothing; reserve not met',
    { reserve: 5_000 },
    [{ bid: 'A', amount: 2_000 }],
    {
      allocation: [],
      leaders: ['A:1@2000'],
      reserve_met: false,
      min_next: 2_050,
      highest: 2_000,
    },
  ],
  [
    'reserve: below it a second bid must still beat the price by the increment',
    { reserve: 5_000 },
    [
      { bid: 'A', amount: 2_000 },
      { bid: 'B', amount: 2_049 },
    ],
    { refused: 'market.bid.errors.too_low', min_next: 2_050 },
  ],
  [
    'reserve: below it a higher bid takes the lead and the leader is outbid',
    { reserve: 5_000 },
    [
      { bid: 'A', amount: 2_000 },
      { bid: 'B', amount: 2_100 },
    ],
    { allocation: [], leaders: ['B:1@2100'], outbid: ['A'], min_next: 2_150, highest: 2_100 },
  ],
  [
    'reserve: below it a proxy bids only what keeps the lead; its maximum stays hidden',
    { reserve: 5_000 },
    [
      { bid: 'A', amount: 2_000 },
      { bid: 'B', amount: 2_100, max: 4_000 },
      { bid: 'C', amount: 2_500 },
    ],
    { allocation: [], leaders: ['B:1@2600'], outbid: [], highest: 2_600, reserve_met: false },
  ],
  [
    'reserve: a multi-copy winner pays at least it; the copy it leaves unsold leads below it',
    { copies: 2, multi_copy: true, reserve: 5_000 },
    [
      { bid: 'A', amount: 2_000, max: 6_000 },
      { bid: 'B', amount: 2_000 },
    ],
    {
      allocation: ['A:1@5000'],
      leaders: ['A:1@5000', 'B:1@2000'],
      min_next: 2_050,
      reserve_met: true,
    },
  ],
  [
    'reserve: taking the lead below it in the soft-close window moves the end',
    { reserve: 5_000 },
    [
      { bid: 'A', amount: 2_000, left: 30 },
      { bid: 'B', amount: 2_100, left: 4 },
    ],
    { extended: true, allocation: [], leaders: ['B:1@2100'] },
  ],
  [
    'reserve: a maximum reaching it wins at the reserve',
    { reserve: 5_000 },
    [
      { bid: 'A', amount: 2_000 },
      { bid: 'B', amount: 2_100, max: 8_000 },
    ],
    { allocation: ['B:1@5000'], reserve_met: true },
  ],
  [
    'reserve: without one, reserve_met is null',
    {},
    [{ bid: 'A', amount: 2_000 }],
    { reserve_met: null },
  ],
  // --- soft close ---
  [
    'soft close: a bid taking the lot in the last 5 minutes moves the end',
    {},
    [
      { bid: 'A', amount: 1_000, left: 60 },
      { bid: 'B', amount: 1_050, left: 3 },
    ],
    { extended: true, allocation: ['B:1@1050'] },
  ],
  [
    'soft close: the same bid earlier does not',
    {},
    [
      { bid: 'A', amount: 1_000, left: 60 },
      { bid: 'B', amount: 1_050, left: 6 },
    ],
    { extended: false },
  ],
  [
    'soft close: a bid the proxy beats at once changes nothing, so the end stays',
    {},
    [
      { bid: 'A', amount: 1_000, max: 9_000, left: 60 },
      { bid: 'B', amount: 1_050, left: 2 },
    ],
    { extended: false, allocation: ['A:1@1100'] },
  ],
  [
    "soft close: a winner raising their own maximum doesn't extend",
    {},
    [
      { bid: 'A', amount: 1_000, left: 60 },
      { bid: 'A', amount: 1_000, max: 3_000, left: 1 },
    ],
    { extended: false },
  ],
  [
    'soft close: a bid at the end is refused',
    {},
    [{ bid: 'A', amount: 1_000, left: 0 }],
    { refused: 'market.bid.errors.ended' },
  ],
  // --- cancellation ---
  [
    'cancel with more than 12 hours left: the bid leaves, the next takes the lot at its own price',
    {},
    [
      { bid: 'A', amount: 1_000, max: 5_000 },
      { bid: 'B', amount: 2_000 },
      { cancel: 'A', left: 13 * 60 },
    ],
    { allocation: ['B:1@2000'], min_next: 2_050 },
  ],
  [
    'cancel in the last 12 hours: refused for a bid older than an hour',
    {},
    [
      { bid: 'A', amount: 1_000, left: 14 * 60 },
      { cancel: 'A', left: 11 * 60 },
    ],
    { refused: 'market.bid.errors.retract_closed' },
  ],
  [
    'cancel in the last 12 hours: allowed within an hour of bidding',
    {},
    [
      { bid: 'A', amount: 1_000, left: 11 * 60 },
      { cancel: 'A', left: 10 * 60 + 30 },
    ],
    { allocation: [], min_next: 1_000 },
  ],
  ['cancel without a bid', {}, [{ cancel: 'A' }], { refused: 'market.bid.errors.no_bid' }],
  [
    'cancel after the end',
    {},
    [
      { bid: 'A', amount: 1_000, left: 30 },
      { cancel: 'A', left: -1 },
    ],
    { refused: 'market.bid.errors.ended' },
  ],
  [
    'cancel in the soft-close window that changes the winner moves the end',
    {},
    [
      { bid: 'A', amount: 1_000, left: 30 },
      { bid: 'B', amount: 1_050, left: 4 },
      { cancel: 'B', left: 3 },
    ],
    { extended: true, allocation: ['A:1@1000'] },
  ],
];

describe('auction rules (issue 13 §1–§2): one table', () => {
  it.each(rows)('%s', (_label, start, steps, expected) => {
    const { state, last } = run(lot(start), steps);
    const standing = standingOf(state);
    if (expected.refused !== undefined) {
      expect(last.ok ? 'accepted' : last.code).toBe(expected.refused);
    } else if (steps.length > 0) {
      expect(last.ok ? 'accepted' : last.code).toBe('accepted');
    }
    if (expected.allocation !== undefined) {
      expect(standing.allocation.map((w) => `${w.bidder_id}:${w.copies}@${w.price}`)).toEqual(
        expected.allocation,
      );
    }
    if (expected.leaders !== undefined) {
      expect(standing.leaders.map((w) => `${w.bidder_id}:${w.copies}@${w.price}`)).toEqual(
        expected.leaders,
      );
    }
    if (expected.min_next !== undefined) expect(standing.min_next).toBe(expected.min_next);
    if (expected.highest !== undefined) expect(standing.highest).toBe(expected.highest);
    if (expected.reserve_met !== undefined) expect(standing.reserve_met).toBe(expected.reserve_met);
    if (expected.extended !== undefined && last.ok) expect(last.extended).toBe(expected.extended);
    if (expected.outbid !== undefined && last.ok) expect(last.outbid).toEqual(expected.outbid);
  });
});

describe('auction rules: properties', () => {
  it('the increment table rises with the price', () => {
    BID_INCREMENTS.slice(1).forEach((tier, index) => {
      const lower = BID_INCREMENTS[index];
      expect(tier.from).toBeGreaterThan(lower?.from ?? Infinity);
      expect(tier.step).toBeGreaterThan(lower?.step ?? Infinity);
    });
    expect(incrementAt(99)).toBe(5);
    expect(incrementAt(100)).toBe(25);
    expect(incrementAt(10_000_000)).toBe(10_000);
  });

  it('an extension moves the end to now + the window, and again on the next change', () => {
    let state = lot();
    const one = placeBid(state, bid('A', 1_000), before(2));
    if (!one.ok) throw new Error(one.code);
    state = one.state;
    expect(state.end_at).toBe(new Date(before(2).getTime() + 5 * 60_000).toISOString());
    const afterEnd = new Date(Date.parse(END) + 60_000);
    const two = placeBid(state, bid('B', 1_050), afterEnd);
    expect(two.ok && two.state.end_at).toBe(
      new Date(afterEnd.getTime() + 5 * 60_000).toISOString(),
    );
  });

  it('a full lot refuses a new bidder but takes a rebid from one of its bidders', () => {
    const book = Array.from({ length: AUCTION_LIMITS.maxBidders }, (_, index) => ({
      bidder_id: `B${index}`,
      bidder_nick: `b${index}`,
      amount: 1_000 + index * 100,
      max: 1_000 + index * 100,
      quantity: 1,
      seq: index + 1,
      placed_at: before(DAY).toISOString(),
    }));
    const full = lot({ book, seq: book.length });
    const min = standingOf(full).min_next;
    const newcomer = placeBid(full, bid('NEW', min), before(60));
    expect(newcomer.ok ? 'accepted' : newcomer.code).toBe('market.bid.errors.too_many_bidders');
    const rebid = placeBid(full, bid('B0', min), before(60));
    expect(rebid.ok).toBe(true);
  });

  it('a bid before the offering starts is refused', () => {
    const outcome = placeBid(lot(), bid('A', 1_000), before(60), before(30).toISOString());
    expect(outcome.ok ? 'accepted' : outcome.code).toBe('market.bid.errors.not_started');
  });

  it('random books: copies never over-allocated, prices within [floor, max], replay equals the run', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let round = 0; round < 200; round += 1) {
      const copies = 1 + Math.floor(random() * 5);
      let state = lot({
        copies,
        multi_copy: true,
        reserve: random() < 0.3 ? 1_000 + Math.floor(random() * 3_000) : null,
      });
      const actions: BookAction[] = [];
      const initial = state;
      for (let step = 0; step < 30; step += 1) {
        const who = `U${Math.floor(random() * 8)}`;
        const at = before(DAY - step).toISOString();
        const mine = state.book.find((entry) => entry.bidder_id === who);
        if (mine !== undefined && random() < 0.1) {
          const outcome = cancelBid(state, who, new Date(at));
          if (outcome.ok) {
            state = outcome.state;
            actions.push({ kind: 'cancel', bidder_id: who, at });
          }
          continue;
        }
        const standing = standingOf(state);
        const amount = standing.min_next + Math.floor(random() * 800);
        const input = {
          bidder_id: who,
          bidder_nick: who,
          amount,
          max: random() < 0.5 ? amount + Math.floor(random() * 3_000) : null,
          quantity: mine?.quantity ?? 1 + Math.floor(random() * copies),
        };
        const outcome = placeBid(state, input, new Date(at));
        if (outcome.ok) {
          state = outcome.state;
          actions.push({ kind: 'bid', bid: input, at });
        }
      }
      const standing = standingOf(state);
      const allocated = standing.allocation.reduce((sum, w) => sum + w.copies, 0);
      expect(allocated + standing.unallocated).toBe(copies);
      for (const winner of standing.allocation) {
        const entry = state.book.find((e) => e.bidder_id === winner.bidder_id);
        if (entry === undefined) throw new Error('a winner without a bid');
        expect(winner.price).toBeLessThanOrEqual(entry.max);
        expect(winner.price).toBeGreaterThanOrEqual(Math.max(1_000, state.reserve ?? 0));
        expect(winner.copies).toBeLessThanOrEqual(entry.quantity);
      }
      expect(replay(initial, actions)).toEqual(state);
    }
  });
});

describe('a contending book (the stored open lot)', () => {
  /** What a bid's outcome tells: refused why, or accepted with which standing and effects. */
  const told = (outcome: ReturnType<typeof placeBid>) =>
    outcome.ok
      ? {
          seq: outcome.seq,
          standing: outcome.standing,
          changed: outcome.changed,
          extended: outcome.extended,
          outbid: outcome.outbid,
          end_at: outcome.state.end_at,
          bidders: bidderCount(outcome.state),
        }
      : { code: outcome.code, min_next: outcome.min_next };

  const idsOf = (state: AuctionState) => state.book.map((entry) => entry.bidder_id).sort();

  it('keeps the winners and the next three bids, and says when the margin needs the whole book', () => {
    const book = [1_500, 1_400, 1_300, 1_200, 1_100].map((max, index) => ({
      bidder_id: `B${index}`,
      bidder_nick: `b${index}`,
      amount: max,
      max,
      quantity: 1,
      seq: index + 1,
      placed_at: before(DAY).toISOString(),
    }));
    const cut = contending(lot({ copies: 1, book, seq: 5 }));
    expect(cut.state.book.map((entry) => entry.bidder_id)).toEqual(['B0', 'B1', 'B2', 'B3']);
    expect(cut.state.bidders).toBe(5);
    expect(cut.short).toBe(false);
    expect(standingOf(cut.state)).toEqual(standingOf(lot({ copies: 1, book, seq: 5 })));
    // Two bids below the winner and one left out: the margin is short of the book.
    const thin = contending({ ...lot({ copies: 1, book: book.slice(0, 3), seq: 5 }), bidders: 4 });
    expect(thin.short).toBe(true);
  });

  it('random lots: every bid decided on the contending book as on the whole book, refusals too', () => {
    let seed = 11;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    let refills = 0;
    let leftOut = 0;
    for (let round = 0; round < 300; round += 1) {
      const copies = 1 + Math.floor(random() * 4);
      let whole = lot({
        copies,
        multi_copy: random() < 0.6,
        reserve: random() < 0.3 ? 1_000 + Math.floor(random() * 3_000) : null,
      });
      // The stored lot, and each bidder's standing bid as their entries keep it.
      let stored = whole;
      const entries = new Map<string, BookEntry>();
      for (let step = 0; step < 60; step += 1) {
        const who = `U${Math.floor(random() * 14)}`;
        const at = before(2 * DAY - step * 10);
        const own = entries.get(who);
        if (own !== undefined && random() < 0.08) {
          // A retraction reads the whole book (every entry).
          const a = cancelBid(whole, who, at);
          const b = cancelBid({ ...stored, book: [...entries.values()] }, who, at);
          expect(told(b)).toEqual(told(a));
          if (a.ok && b.ok) {
            whole = a.state;
            entries.delete(who);
            stored = contending(b.state).state;
            expect(idsOf(stored)).toEqual(idsOf(contending(whole).state));
          }
          continue;
        }
        const min = standingOf(whole).min_next;
        const amount = Math.max(1, min + Math.floor(random() * 900) - 150);
        const input = {
          bidder_id: who,
          bidder_nick: who,
          amount,
          max: random() < 0.6 ? amount + Math.floor(random() * 3_000) : null,
          quantity:
            own !== undefined && random() < 0.9 ? own.quantity : 1 + Math.floor(random() * copies),
        };
        // The bid is decided on the stored lot plus the bidder's own earlier bid if left out.
        const inLot = stored.book.some((entry) => entry.bidder_id === who);
        if (own !== undefined && !inLot) leftOut += 1;
        const working =
          own !== undefined && !inLot ? { ...stored, book: [...stored.book, own] } : stored;
        const a = placeBid(whole, input, at);
        const b = placeBid(working, input, at);
        expect(told(b)).toEqual(told(a));
        if (!a.ok || !b.ok) continue;
        whole = a.state;
        const entry = a.state.book.find((candidate) => candidate.bidder_id === who);
        if (entry === undefined) throw new Error('an accepted bid without its entry');
        entries.set(who, entry);
        let cut = contending(b.state);
        if (cut.short) {
          refills += 1;
          cut = contending({ ...b.state, book: [...entries.values()] });
        }
        stored = cut.state;
        expect(standingOf(stored)).toEqual(standingOf(whole));
        // The same bids as the whole book's own contending part.
        expect(idsOf(stored)).toEqual(idsOf(contending(whole).state));
        expect(stored.book.length).toBeLessThanOrEqual(copies + CONTENDING_MARGIN);
      }
    }
    // The cases the cut exists for happened: bids of bidders left out, and refills.
    expect(leftOut).toBeGreaterThan(100);
    expect(refills).toBeGreaterThan(10);
  });
});

function bid(who: string, amount: number, quantity = 1) {
  return { bidder_id: who, bidder_nick: who, amount, max: null, quantity };
}

describe('the close: winners and substitutes', () => {
  const closed = (): AuctionState => {
    const steps: Step[] = [
      { bid: 'D', amount: 1_200 },
      { bid: 'C', amount: 1_500, quantity: 2 },
      { bid: 'B', amount: 2_000, max: 2_500 },
      { bid: 'A', amount: 3_000, quantity: 2 },
    ];
    const { state, last } = run(lot({ copies: 3, multi_copy: true }), steps);
    expect(last.ok && state.book).toHaveLength(4);
    return state;
  };

  it('winners are the allocation at the end (round 0)', () => {
    expect(winnersOf(closed())).toEqual([
      { bidder_id: 'A', copies: 2, price: 3_000, round: 0 },
      { bidder_id: 'B', copies: 1, price: 2_000, round: 0 },
    ]);
  });

  const rowsSubstitutes: [string, Offer[], string[], number, string[]][] = [
    [
      'one copy freed by B: the next bid (C) at its own maximum',
      winnersOf(closed()),
      ['B'],
      1,
      ['C:1@1500'],
    ],
    ['two freed by A: C takes both', winnersOf(closed()), ['A'], 2, ['C:2@1500']],
    [
      'three freed: C two, then D one',
      winnersOf(closed()),
      ['A', 'B'],
      3,
      ['C:2@1500', 'D:1@1200'],
    ],
    [
      'C lapsed too: D only, the rest stays free',
      [...winnersOf(closed()), { bidder_id: 'C', copies: 1, price: 1_500, round: 1 }],
      ['B', 'C'],
      1,
      ['D:1@1200'],
    ],
    ['nobody left', winnersOf(closed()), ['A', 'B', 'C', 'D'], 3, []],
  ];
  it.each(rowsSubstitutes)('%s', (_label, offers, lapsed, free, expected) => {
    const out = substitutesFor(closed(), offers, new Set(lapsed), free, 1);
    expect(out.map((o) => `${o.bidder_id}:${o.copies}@${o.price}`)).toEqual(expected);
  });

  it('bids below the reserve never become substitutes', () => {
    const state = run(lot({ reserve: 2_000 }), [
      { bid: 'A', amount: 2_500 },
      { bid: 'B', amount: 1_500 },
    ]).state;
    expect(substitutesFor(state, winnersOf(state), new Set(['A']), 1, 1)).toEqual([]);
  });

  it('bids expire 2880 minutes after the end', () => {
    expect(bidExpiryOf(END)).toBe('2026-12-03T12:00:00.000Z');
  });
});
