import { describe, expect, it } from 'vitest';
import {
  canDelist,
  resumeStep,
  transition,
  type ListingEvent,
  type ListingState,
} from './listing.machine';

const NOW = new Date('2026-11-25T10:00:00.000Z');

function state(changes: Partial<ListingState> = {}): ListingState {
  return {
    status: 'creating',
    step: 'loading',
    type: 'fixed',
    requested: 10,
    reserved: 0,
    decision: null,
    reason: null,
    bids: 0,
    copies_left: 0,
    error: null,
    releasing: false,
    closing: false,
    highest_bid: null,
    end_at: '2026-12-01T10:00:00.000Z',
    bids_index: -1,
    published_at: null,
    ended_at: null,
    submitted_at: null,
    ...changes,
  };
}

const creating = state();
const confirm = state({ status: 'confirm', step: 'confirm', reserved: 4 });
const listing = state({ step: 'listing', reserved: 10 });
const pending = state({ status: 'pending', step: 'done', reserved: 10, copies_left: 10 });
const approved = { ...pending, decision: 'approve' as const };
const rejected = { ...pending, decision: 'reject' as const, reason: 'Blurry' };
const onSale = state({ status: 'validated', step: 'done', reserved: 10, copies_left: 7 });
const soldOut = { ...onSale, copies_left: 0 };
const auction = { ...onSale, type: 'auction' as const };

type Row = [
  name: string,
  from: ListingState,
  event: ListingEvent,
  expected:
    | {
        next: string;
        status: ListingState['status'];
        step?: string;
        copies_left?: number;
        releasing?: boolean;
        effects: string[];
      }
    | { refused: string },
];

const rows: Row[] = [
  [
    'a pack reserved, more to go',
    creating,
    { type: 'reserved', reserved: 5, exhausted: false },
    { next: 'reserve', status: 'creating', step: 'preparing', effects: ['progress'] },
  ],
  [
    'all copies reserved',
    creating,
    { type: 'reserved', reserved: 10, exhausted: false },
    { next: 'submit', status: 'creating', step: 'listing', effects: ['progress'] },
  ],
  [
    'fewer than asked and none left: confirm',
    creating,
    { type: 'reserved', reserved: 4, exhausted: true },
    { next: 'confirm', status: 'confirm', step: 'confirm', effects: ['progress'] },
  ],
  [
    'none reserved: error, release',
    creating,
    { type: 'reserved', reserved: 0, exhausted: true },
    { next: 'release', status: 'error', step: 'error', effects: ['progress'] },
  ],
  [
    'a replayed pack after listing',
    listing,
    { type: 'reserved', reserved: 10, exhausted: false },
    { refused: 'market.list.errors.copy_conflict' },
  ],
  [
    'seller confirms',
    confirm,
    { type: 'confirm' },
    { next: 'submit', status: 'creating', step: 'listing', effects: ['progress', 'settle'] },
  ],
  [
    'seller cancels',
    confirm,
    { type: 'cancel' },
    { next: 'release', status: 'cancelled', step: 'cancelled', effects: ['progress', 'settle'] },
  ],
  [
    'the confirm step times out',
    confirm,
    { type: 'confirm_timeout' },
    { next: 'release', status: 'cancelled', step: 'cancelled', effects: ['progress', 'settle'] },
  ],
  [
    'confirm when not asked',
    creating,
    { type: 'confirm' },
    { refused: 'market.list.errors.not_confirmable' },
  ],
  [
    'cancel after confirming',
    listing,
    { type: 'cancel' },
    { refused: 'market.list.errors.not_confirmable' },
  ],
  [
    'submitted to support',
    listing,
    { type: 'submit' },
    { next: 'await_validation', status: 'pending', step: 'done', effects: ['progress', 'updated'] },
  ],
  [
    'submit before reserving',
    creating,
    { type: 'submit' },
    { refused: 'market.list.errors.generic' },
  ],
  [
    'support approves',
    pending,
    { type: 'decide', decision: 'approve', reason: null },
    { next: 'publish', status: 'pending', effects: ['settle'] },
  ],
  [
    'support decides twice',
    approved,
    { type: 'decide', decision: 'reject', reason: 'x' },
    { refused: 'market.offering.errors.not_pending' },
  ],
  [
    'support never decides',
    pending,
    { type: 'validation_timeout' },
    { next: 'publish', status: 'pending', effects: [] },
  ],
  [
    'approval applied: published',
    approved,
    { type: 'apply_decision' },
    {
      next: 'wait_end',
      status: 'validated',
      effects: ['market_put', 'updated', 'notify_validated', 'notify_invitees', 'fan_out'],
    },
  ],
  [
    'rejection applied: copies back',
    rejected,
    { type: 'apply_decision' },
    { next: 'release', status: 'not_validated', effects: ['updated', 'notify_rejected'] },
  ],
  [
    'apply before a decision',
    pending,
    { type: 'apply_decision' },
    { refused: 'market.offering.errors.not_pending' },
  ],
  [
    'delist on sale',
    onSale,
    { type: 'delist' },
    { next: 'release', status: 'delisting', effects: ['market_delete', 'updated'] },
  ],
  [
    'delist an auction without bids',
    auction,
    { type: 'delist' },
    { next: 'release', status: 'delisting', effects: ['market_delete', 'updated'] },
  ],
  [
    'delist an auction with a bid',
    { ...auction, bids: 1 },
    { type: 'delist' },
    { refused: 'market.offering.errors.has_bids' },
  ],
  [
    'delist while pending',
    pending,
    { type: 'delist' },
    { refused: 'market.offering.errors.not_delistable' },
  ],
  [
    'delist resumed',
    { ...onSale, status: 'delisting', releasing: true },
    { type: 'delist' },
    { next: 'release', status: 'delisting', effects: ['market_delete'] },
  ],
  [
    'released after delisting',
    { ...onSale, status: 'delisting', releasing: true },
    { type: 'released' },
    { next: 'done', status: 'delisted', effects: ['updated'] },
  ],
  [
    'released after a refusal',
    { ...rejected, status: 'not_validated', releasing: true },
    { type: 'released' },
    { next: 'done', status: 'not_validated', effects: [] },
  ],
  [
    'released twice',
    { ...onSale, status: 'delisted' },
    { type: 'released' },
    { refused: 'market.list.errors.rejecting' },
  ],
  [
    'the end with copies left',
    onSale,
    { type: 'end' },
    { next: 'release', status: 'expired', effects: ['market_delete', 'updated'] },
  ],
  [
    'the end, sold out',
    soldOut,
    { type: 'end' },
    { next: 'done', status: 'sold', effects: ['market_delete', 'updated'] },
  ],
  [
    'the end after a delisting',
    { ...onSale, status: 'delisted' },
    { type: 'end' },
    { next: 'done', status: 'delisted', effects: [] },
  ],
  [
    'a sale of some copies: fewer left, the market entries refreshed',
    onSale,
    { type: 'sold', quantity: 3 },
    { next: 'wait_end', status: 'validated', copies_left: 4, effects: ['market_put', 'updated'] },
  ],
  [
    'a sale of the last copies: sold, out of the market, nothing to release',
    onSale,
    { type: 'sold', quantity: 7 },
    {
      next: 'done',
      status: 'sold',
      copies_left: 0,
      releasing: false,
      effects: ['market_delete', 'updated'],
    },
  ],
  [
    'a sale of more copies than are left',
    onSale,
    { type: 'sold', quantity: 8 },
    { refused: 'market.buy.errors.not_on_sale' },
  ],
  [
    'a sale of no copies',
    onSale,
    { type: 'sold', quantity: 0 },
    { refused: 'market.buy.errors.quantity' },
  ],
  [
    'a sale paid after a delisting (booked before): only the count moves',
    { ...onSale, status: 'delisted' },
    { type: 'sold', quantity: 2 },
    { next: 'done', status: 'delisted', copies_left: 5, effects: [] },
  ],
  [
    'an auction approved: published, its lot opened, its end left to the auction-close workflow',
    { ...approved, type: 'auction' },
    { type: 'apply_decision' },
    {
      next: 'done',
      status: 'validated',
      effects: [
        'auction_open',
        'market_put',
        'updated',
        'notify_validated',
        'notify_invitees',
        'fan_out',
      ],
    },
  ],
  [
    "an auction's counters: kept, the cards refreshed",
    auction,
    { type: 'bids', index: 4, bids: 3, highest_bid: 1_500, end_at: '2026-12-01T10:05:00.000Z' },
    { next: 'done', status: 'validated', effects: ['market_put'] },
  ],
  [
    "an auction's counters older than those kept (a late follow-up): nothing changes",
    { ...auction, bids_index: 7 },
    { type: 'bids', index: 4, bids: 3, highest_bid: 1_500, end_at: '2026-12-01T10:05:00.000Z' },
    { next: 'done', status: 'validated', effects: [] },
  ],
  [
    "an auction's counters while closing: kept, off the market",
    { ...auction, closing: true },
    { type: 'bids', index: 4, bids: 3, highest_bid: 1_500, end_at: '2026-12-01T10:05:00.000Z' },
    { next: 'done', status: 'validated', effects: [] },
  ],
  [
    'counters of a fixed-price offering',
    onSale,
    { type: 'bids', index: 0, bids: 1, highest_bid: 1, end_at: '2026-12-01T10:05:00.000Z' },
    { refused: 'market.bid.errors.not_auction' },
  ],
  [
    "an auction's bidding ends: closing, off the market",
    auction,
    { type: 'close' },
    { next: 'done', status: 'validated', effects: ['market_delete', 'updated'] },
  ],
  [
    'closing twice: the market entries deleted again, nothing else',
    { ...auction, closing: true },
    { type: 'close' },
    { next: 'done', status: 'validated', effects: ['market_delete'] },
  ],
  [
    'closing a fixed-price offering',
    onSale,
    { type: 'close' },
    { refused: 'market.bid.errors.not_auction' },
  ],
  [
    'closing a delisted auction',
    { ...auction, status: 'delisted' },
    { type: 'close' },
    { refused: 'market.buy.errors.not_on_sale' },
  ],
  [
    'a closing auction cannot be delisted',
    { ...auction, closing: true },
    { type: 'delist' },
    { refused: 'market.offering.errors.not_delistable' },
  ],
  [
    "a winner's copies paid while closing: the count moves, off the market",
    { ...auction, closing: true },
    { type: 'sold', quantity: 2 },
    { next: 'done', status: 'validated', copies_left: 5, effects: ['updated'] },
  ],
  [
    'the close ends with copies left: expired, released, no longer closing',
    { ...auction, closing: true },
    { type: 'end' },
    { next: 'release', status: 'expired', effects: ['market_delete', 'updated'] },
  ],
  [
    'a failure while creating',
    creating,
    { type: 'fail', code: 'market.list.errors.generic' },
    { next: 'release', status: 'error', step: 'error', effects: ['progress'] },
  ],
  [
    'a failure once published',
    onSale,
    { type: 'fail', code: 'market.list.errors.generic' },
    { refused: 'market.list.errors.generic' },
  ],
];

describe('listing transition', () => {
  it.each(rows)('%s', (_name, from, event, expected) => {
    const outcome = transition(from, event, NOW);
    if ('refused' in expected) {
      expect(outcome).toEqual({ ok: false, code: expected.refused });
      return;
    }
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.next).toBe(expected.next);
    expect(outcome.state.status).toBe(expected.status);
    if (expected.step !== undefined) expect(outcome.state.step).toBe(expected.step);
    if (expected.copies_left !== undefined) {
      expect(outcome.state.copies_left).toBe(expected.copies_left);
    }
    if (expected.releasing !== undefined) expect(outcome.state.releasing).toBe(expected.releasing);
    expect(outcome.effects).toEqual(expected.effects);
  });

  it('stamps times from the injected clock', () => {
    const submitted = transition(listing, { type: 'submit' }, NOW);
    const published = transition(approved, { type: 'apply_decision' }, NOW);
    expect(submitted.ok && submitted.state.submitted_at).toBe(NOW.toISOString());
    expect(submitted.ok && submitted.state.copies_left).toBe(10);
    expect(published.ok && published.state.published_at).toBe(NOW.toISOString());
  });

  it('never reserves more than asked, nor forgets copies already held', () => {
    const over = transition(
      state({ reserved: 6 }),
      { type: 'reserved', reserved: 14, exhausted: false },
      NOW,
    );
    expect(over.ok && over.state.reserved).toBe(10);
    const stale = transition(
      state({ reserved: 6, step: 'preparing' }),
      { type: 'reserved', reserved: 3, exhausted: false },
      NOW,
    );
    expect(stale.ok && stale.state.reserved).toBe(6);
  });

  it.each([
    [creating, 'reserve'],
    [listing, 'submit'],
    [confirm, 'confirm'],
    [pending, 'await_validation'],
    [approved, 'publish'],
    [onSale, 'wait_end'],
    [auction, 'done'],
    [{ ...onSale, status: 'delisting' as const, releasing: true }, 'release'],
    [{ ...onSale, status: 'expired' as const }, 'done'],
  ])('resumes %o at %s', (from, step) => {
    expect(resumeStep(from)).toBe(step);
  });

  it('allows delisting only on sale, or an auction without bids', () => {
    expect(canDelist(onSale)).toBe(true);
    expect(canDelist({ ...onSale, bids: 3 })).toBe(true);
    expect(canDelist(auction)).toBe(true);
    expect(canDelist({ ...auction, closing: true })).toBe(false);
    expect(canDelist({ ...auction, bids: 1 })).toBe(false);
    expect(canDelist(pending)).toBe(false);
  });
});
