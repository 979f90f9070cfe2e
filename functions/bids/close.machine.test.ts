import { describe, expect, it } from 'vitest';
import { placeBid, type AuctionState } from '../../shared/auction';
import { closeStep, MAX_WAIT_MS, type OfferState } from './close.machine';
import { newLot, type LotOffer, type LotRecord } from './lot';

const END = Date.parse('2026-12-01T12:00:00.000Z');
const H = 3_600_000;
const at = (ms: number) => new Date(ms);
const iso = (ms: number) => new Date(ms).toISOString();
const EXPIRY = END + 2_880 * 60_000;

function lot(changes: Partial<LotRecord> = {}, bids: [string, number, number?][] = []): LotRecord {
  const base = newLot(
    {
      id: 'oF01M887TVKNGV17XCT4WE82PX0Q',
      item_id: 'ITEM',
      seller_id: 'SELLER',
      issuer_id: 'SELLER',
      currency: 'EUR',
      start_at: iso(END - 72 * H),
      end_at: iso(END),
      copies: 2,
      price: 1_000,
      reserve_price: null,
      multi_copy: true,
      access: 'public',
      invited_ids: [],
      item_title: 'Lagoon',
      item_image: '/media/a.webp',
      delivery: 'none',
      countries: [],
    },
    5 * 60_000,
  );
  let auction: AuctionState = base.auction;
  bids.forEach(([who, amount, quantity], index) => {
    const outcome = placeBid(
      auction,
      { bidder_id: who, bidder_nick: who, amount, max: null, quantity: quantity ?? 1 },
      at(END - 48 * H + index * 60_000),
    );
    if (!outcome.ok) throw new Error(outcome.code);
    auction = outcome.state;
  });
  return { ...base, auction, version: 3, ...changes };
}

const offer = (
  bidder: string,
  copies: number,
  price: number,
  round: number,
  outcome: LotOffer['outcome'],
  order: string | null = `o-${bidder}-${round}`,
  deadline = iso(EXPIRY),
): LotOffer => ({ bidder_id: bidder, copies, price, round, order_id: order, deadline, outcome });

type Row = [
  label: string,
  lot: LotRecord,
  orders: Record<string, OfferState>,
  now: number,
  expected: {
    phase?: LotRecord['phase'];
    effects: string[];
    next: 'wait' | 'done';
    at?: number | null;
    reminders?: string[];
    offers?: string[];
  },
];

const effectsOf = (step: ReturnType<typeof closeStep>) =>
  step.effects.map((effect) => {
    switch (effect.kind) {
      case 'remind':
        return `remind:${effect.key}`;
      case 'make_order':
        return `make_order:${effect.index}`;
      case 'notify_notwon':
        return `notwon:${effect.bidder_ids.join('+')}`;
      default:
        return effect.kind;
    }
  });

/** C bids first, then B, then A: A and B win the two copies, C is the first substitute. */
const three = [
  ['C', 1_500],
  ['B', 2_000],
  ['A', 3_000],
] as [string, number][];

const rows: Row[] = [
  [
    'open, days ahead: wait (chunked to a day)',
    lot(),
    {},
    END - 72 * H,
    { effects: [], next: 'wait', at: END - 72 * H + MAX_WAIT_MS },
  ],
  [
    'open, 30 h ahead: wait until the 24 h reminder',
    lot(),
    {},
    END - 30 * H,
    { effects: [], next: 'wait', at: END - 24 * H },
  ],
  [
    '24 h before: remind, then wait until 6 h',
    lot(),
    {},
    END - 24 * H,
    { effects: ['remind:24h'], next: 'wait', at: END - 6 * H, reminders: ['24h'] },
  ],
  [
    'published 5 h before the end: only the 6 h reminder, both marked',
    lot(),
    {},
    END - 5 * H,
    { effects: ['remind:6h'], next: 'wait', at: END - 10 * 60_000, reminders: ['24h', '6h'] },
  ],
  [
    '10 min before: the last reminder, then the end',
    lot({ reminders: ['24h', '6h'] }),
    {},
    END - 10 * 60_000,
    { effects: ['remind:10m'], next: 'wait', at: END, reminders: ['24h', '6h', '10m'] },
  ],
  [
    'a reminder replayed: nothing sent twice',
    lot({ reminders: ['24h'] }),
    {},
    END - 20 * H,
    { effects: [], next: 'wait', at: END - 6 * H },
  ],
  [
    'woken at the old end after an extension: wait for the new end',
    lot({
      reminders: ['24h', '6h', '10m'],
      auction: { ...lot().auction, end_at: iso(END + 4 * 60_000) },
    }),
    {},
    END,
    { effects: [], next: 'wait', at: END + 4 * 60_000 },
  ],
  [
    'the end without bids: closing with no offer, then closed next',
    lot({ reminders: ['24h', '6h', '10m'] }),
    {},
    END,
    { phase: 'closing', effects: ['close_offering'], next: 'wait', at: END, offers: [] },
  ],
  [
    'closing without offers: closed, the copies back',
    lot({ phase: 'closing' }),
    {},
    END,
    { phase: 'closed', effects: ['end_offering', 'final_statuses'], next: 'done', at: null },
  ],
  [
    'the end with bids: winners offered (2 copies), the third told',
    lot({}, three),
    {},
    END,
    {
      phase: 'closing',
      effects: ['close_offering', 'make_order:0', 'make_order:1', 'notwon:C'],
      next: 'wait',
      offers: ['A:1@3000/0 pending', 'B:1@2000/0 pending'],
    },
  ],
  [
    'closing: an offer without its order (a crash after the lot was written) makes it again',
    lot(
      {
        phase: 'closing',
        offers: [offer('A', 1, 3_000, 0, 'pending', null), offer('B', 1, 2_000, 0, 'pending')],
      },
      three,
    ),
    { 'o-B-0': 'pending' },
    END + 60_000,
    { phase: 'closing', effects: ['make_order:0'], next: 'wait', at: END + 60_000 },
  ],
  [
    'closing: both paid → closed',
    lot(
      {
        phase: 'closing',
        offers: [offer('A', 1, 3_000, 0, 'pending'), offer('B', 1, 2_000, 0, 'pending')],
      },
      three,
    ),
    { 'o-A-0': 'paid', 'o-B-0': 'paid' },
    END + 60_000,
    {
      phase: 'closed',
      effects: ['end_offering', 'final_statuses'],
      next: 'done',
      offers: ['A:1@3000/0 paid', 'B:1@2000/0 paid'],
    },
  ],
  [
    'closing: one pending, polled (at most every 5 minutes)',
    lot(
      {
        phase: 'closing',
        offers: [offer('A', 1, 3_000, 0, 'pending'), offer('B', 1, 2_000, 0, 'pending')],
      },
      three,
    ),
    { 'o-A-0': 'paid', 'o-B-0': 'pending' },
    END + 60_000,
    { phase: 'closing', effects: [], next: 'wait', at: END + 6 * 60_000 },
  ],
  [
    'closing: a winner lapsed (unpaid by the deadline) → the next bid is the substitute, at its own bid, a new window',
    lot(
      {
        phase: 'closing',
        offers: [offer('A', 1, 3_000, 0, 'paid'), offer('B', 1, 2_000, 0, 'pending')],
      },
      three,
    ),
    { 'o-B-0': 'lapsed' },
    EXPIRY + 60_000,
    {
      phase: 'closing',
      effects: ['make_order:2'],
      next: 'wait',
      at: EXPIRY + 60_000,
      offers: ['A:1@3000/0 paid', 'B:1@2000/0 lapsed', 'C:1@1500/1 pending'],
    },
  ],
  [
    'closing: past the deadline but the order not expired yet → look again in a minute',
    lot(
      {
        phase: 'closing',
        offers: [offer('A', 1, 3_000, 0, 'paid'), offer('B', 1, 2_000, 0, 'pending')],
      },
      three,
    ),
    { 'o-B-0': 'pending' },
    EXPIRY + 10_000,
    { phase: 'closing', effects: [], next: 'wait', at: EXPIRY + 70_000 },
  ],
  [
    'closing: the substitute paid → closed (substitute winner)',
    lot(
      {
        phase: 'closing',
        offers: [
          offer('A', 1, 3_000, 0, 'paid'),
          offer('B', 1, 2_000, 0, 'lapsed'),
          offer('C', 1, 1_500, 1, 'pending'),
        ],
      },
      three,
    ),
    { 'o-C-1': 'paid' },
    EXPIRY + 2 * H,
    { phase: 'closed', effects: ['end_offering', 'final_statuses'], next: 'done' },
  ],
  [
    'closing: the last substitute lapsed and nobody is left → closed, the copy back to the seller',
    lot(
      {
        phase: 'closing',
        offers: [
          offer('A', 1, 3_000, 0, 'paid'),
          offer('B', 1, 2_000, 0, 'lapsed'),
          offer('C', 1, 1_500, 1, 'pending'),
        ],
      },
      three,
    ),
    { 'o-C-1': 'lapsed' },
    EXPIRY + 49 * H,
    { phase: 'closed', effects: ['end_offering', 'final_statuses'], next: 'done' },
  ],
  [
    'closed: nothing to do',
    lot({ phase: 'closed' }, three),
    {},
    EXPIRY,
    { effects: [], next: 'done', at: null },
  ],
];

describe('the auction close (issue 13 §4): one table', () => {
  it.each(rows)('%s', (_label, from, orders, now, expected) => {
    const step = closeStep(from, orders, at(now));
    expect(effectsOf(step)).toEqual(expected.effects);
    expect(step.next).toBe(expected.next);
    if (expected.at !== undefined)
      expect(step.at).toBe(expected.at === null ? null : iso(expected.at));
    if (expected.phase !== undefined) expect(step.changes.phase ?? from.phase).toBe(expected.phase);
    if (expected.reminders !== undefined)
      expect(step.changes.reminders).toEqual(expected.reminders);
    if (expected.offers !== undefined) {
      expect(
        (step.changes.offers ?? from.offers).map(
          (o) => `${o.bidder_id}:${o.copies}@${o.price}/${o.round} ${o.outcome}`,
        ),
      ).toEqual(expected.offers);
    }
  });

  it('a winner offered at the end pays by the bid expiry (end + 2880 minutes)', () => {
    const step = closeStep(lot({}, three), {}, at(END));
    expect(step.changes.offers?.every((o) => o.deadline === iso(EXPIRY))).toBe(true);
  });
});
