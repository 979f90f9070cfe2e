import { describe, expect, it } from 'vitest';
import {
  auctionDisplayOf,
  displayStatusOf,
  indexKeysOf,
  marketPartitionsOf,
  sellerGroupOf,
  type OfferingRecord,
} from './offerings';
import { typesKey } from './offerings.keys';

const NOW = new Date('2026-11-25T10:00:00.000Z');

function record(changes: Partial<OfferingRecord> = {}): OfferingRecord {
  return {
    id: 'oF01M887TVKNGV17XCT4WE82PX0Q',
    item_id: '01M887TVJVHPQ3S3REM2B6M6JS',
    seller_id: 'SELLER',
    seller_nick: 'lagoon',
    item: {
      title: 'Lagoon',
      product_type: 'physical',
      image: { full: 'a.webp', thumb: 'a-t.webp' },
      images: [],
      description: '',
      issuer_id: 'SELLER',
      issuer_nick: 'lagoon',
      copies: 3,
      legal_terms: 'None',
    },
    type: 'fixed',
    status: 'validated',
    step: 'done',
    requested: 2,
    reserved: 2,
    copies_left: 2,
    decision: 'approve',
    reason: null,
    bids: 0,
    error: null,
    releasing: false,
    closing: false,
    bids_index: -1,
    published_at: '2026-11-25T09:00:00.000Z',
    ended_at: null,
    submitted_at: '2026-11-25T08:00:00.000Z',
    currency: 'EUR',
    price: 2500,
    payment_mode: 'fullprice',
    deposit: null,
    buy_price: null,
    reserve_price: null,
    multi_copy: false,
    start_at: '2026-11-25T08:00:00.000Z',
    end_at: '2026-11-27T08:00:00.000Z',
    categories: ['art'],
    notes: '',
    terms: 'None',
    access: 'public',
    invited: [],
    collection_id: null,
    highest_bid: null,
    created_at: '2026-11-25T07:00:00.000Z',
    version: 5,
    token: null,
    execution: '',
    ...changes,
  };
}

describe('market partitions', () => {
  it('puts a fixed-price physical offering in every filter it matches, and no other', () => {
    const partitions = marketPartitionsOf(record({ categories: ['art', 'music'] }));
    // 8 type sets containing physical × (any + 2 categories) × (any, buy).
    expect(partitions).toHaveLength(8 * 3 * 2);
    expect(partitions).toContain('MARKET#any#any#any');
    expect(partitions).toContain('MARKET#digital+physical#music#buy');
    expect(partitions).not.toContain('MARKET#digital#any#any');
    expect(partitions.some((p) => p.endsWith('#auction'))).toBe(false);
    expect(new Set(partitions).size).toBe(partitions.length);
  });

  it('lists an auction with buy-now under both auction and buy', () => {
    const partitions = marketPartitionsOf(record({ type: 'auction', buy_price: 9000 }));
    expect(partitions).toContain('MARKET#physical#art#auction');
    expect(partitions).toContain('MARKET#physical#art#buy');
    expect(marketPartitionsOf(record({ type: 'auction' }))).not.toContain(
      'MARKET#physical#art#buy',
    );
  });

  it('reads the same key for a set of types in any order; all or none is any', () => {
    expect(typesKey(['ticket', 'digital'])).toBe(typesKey(['digital', 'ticket']));
    expect(typesKey([])).toBe('any');
    expect(typesKey(['physical', 'digital', 'ticket', 'service'])).toBe('any');
  });
});

describe('index keys follow the state', () => {
  it.each([
    [
      'pending, undecided: support queue and My Offerings active',
      record({ status: 'pending', decision: null, published_at: null }),
      { gsi2pk: 'SELLEROFF#SELLER#active', gsi4pk: 'PENDINGOFF' },
      ['gsi3pk', 'gsi5pk'],
    ],
    [
      'on sale, public: the item page',
      record(),
      { gsi2pk: 'SELLEROFF#SELLER#active', gsi3pk: 'ITEMOFF#01M887TVJVHPQ3S3REM2B6M6JS' },
      ['gsi4pk'],
    ],
    ['on sale in a collection', record({ collection_id: 'COLL' }), { gsi5pk: 'COLLOFF#COLL' }, []],
    [
      'on sale, private: no public index',
      record({ access: 'private' }),
      { gsi2pk: 'SELLEROFF#SELLER#active' },
      ['gsi3pk', 'gsi5pk'],
    ],
    [
      'expired, public: the user card',
      record({ status: 'expired', ended_at: '2026-11-27T08:00:00.000Z' }),
      { gsi2pk: 'SELLEROFF#SELLER#closed', gsi4pk: 'ENDEDOFF#SELLER' },
      ['gsi3pk'],
    ],
    [
      'sold',
      record({ status: 'sold', ended_at: '2026-11-27T08:00:00.000Z' }),
      { gsi2pk: 'SELLEROFF#SELLER#sold' },
      [],
    ],
    [
      'being created: in no list',
      record({ status: 'creating', published_at: null }),
      {},
      ['gsi1pk', 'gsi2pk', 'gsi3pk', 'gsi4pk'],
    ],
  ])('%s', (_name, offering, present, absent) => {
    const keys = indexKeysOf(offering);
    expect(keys).toMatchObject(present);
    for (const name of absent) expect(keys).not.toHaveProperty(name);
  });

  it.each([
    ['pending', 'active'],
    ['validated', 'active'],
    ['delisting', 'active'],
    ['sold', 'sold'],
    ['expired', 'closed'],
    ['delisted', 'closed'],
    ['not_validated', 'closed'],
    ['creating', null],
    ['cancelled', null],
  ] as const)('My Offerings group of %s is %s', (status, group) => {
    expect(sellerGroupOf(status)).toBe(group);
  });
});

describe('display status (000 §4) at a fixed clock', () => {
  it.each([
    [record(), 'buy_now', null],
    [record({ type: 'auction' }), 'auction', 'open'],
    [record({ type: 'auction', end_at: '2026-11-25T09:59:00.000Z' }), 'expired', 'nobids'],
    [record({ status: 'pending' }), 'pending', null],
    [record({ status: 'not_validated' }), 'not_validated', null],
    [record({ status: 'delisting' }), 'delisting', null],
    [record({ status: 'creating' }), 'processing', null],
    [record({ status: 'delisted' }), 'available', null],
    [record({ status: 'expired', type: 'auction' }), 'expired', 'closed'],
  ])('%#', (offering, display, auction) => {
    expect(displayStatusOf(offering, NOW)).toBe(display);
    expect(auctionDisplayOf(offering, NOW)).toBe(auction);
  });
});
