import { describe, expect, it } from 'vitest';
import {
  createOfferingBodySchema,
  listingPercent,
  listingViolations,
  type ListingContract,
  type ListingRuleContext,
} from './offerings';

const NOW = new Date('2026-11-25T10:00:00.000Z');
const HOUR = 3_600_000;
const at = (ms: number) => new Date(NOW.getTime() + ms).toISOString();

const base: ListingContract = {
  item_id: '01M887TVJVHPQ3S3REM2B6M6JS',
  type: 'fixed',
  copies: 2,
  currency: 'EUR',
  price: 2500,
  payment_mode: 'fullprice',
  deposit: null,
  buy_price: null,
  reserve_price: null,
  multi_copy: false,
  start_at: at(0),
  end_at: at(48 * HOUR),
  categories: ['art'],
  notes: '',
  terms: 'None',
  access: 'public',
  invited: [],
  collection_id: null,
};

const context: ListingRuleContext = {
  now: NOW,
  product_type: 'physical',
  ticket_expires_at: null,
  free_copies: 5,
  qr_copies: 0,
  is_creator: true,
  transferable: true,
};

const ticket: ListingRuleContext = {
  ...context,
  product_type: 'ticket',
  ticket_expires_at: at(10 * 24 * HOUR),
};

type Row = [string, Partial<ListingContract>, Partial<ListingRuleContext>, Record<string, string>];

const rows: Row[] = [
  ['a valid fixed-price listing', {}, {}, {}],
  [
    'a valid auction with buy-now and multi-copy bids',
    { type: 'auction', buy_price: 9000, multi_copy: true },
    {},
    {},
  ],
  [
    'copies above the free ones',
    { copies: 6 },
    {},
    { copies: 'market.list.errors.copies_available' },
  ],
  [
    'only QR tickets left',
    { copies: 1 },
    { free_copies: 0, qr_copies: 2 },
    { copies: 'market.list.errors.ticket_qr' },
  ],
  [
    'price under one currency unit',
    { price: 99 },
    {},
    { price: 'market.list.validation.min_price' },
  ],
  ['exactly one currency unit', { price: 100 }, {}, {}],
  [
    'deposit mode without a deposit',
    { payment_mode: 'deposit' },
    {},
    { deposit: 'forms.validation.required' },
  ],
  [
    'deposit equal to the price',
    { payment_mode: 'deposit', deposit: 2500 },
    {},
    { deposit: 'market.list.validation.deposit' },
  ],
  ['deposit below the price', { payment_mode: 'deposit', deposit: 500 }, {}, {}],
  [
    'deposit amount on full price',
    { deposit: 500 },
    {},
    { deposit: 'market.list.validation.no_deposit' },
  ],
  [
    'buy-now price on a fixed price',
    { buy_price: 3000 },
    {},
    { buy_price: 'market.list.validation.buy_price_fixed' },
  ],
  [
    'multi-copy bids on a fixed price',
    { multi_copy: true },
    {},
    { multi_copy: 'market.list.validation.multi_copy_fixed' },
  ],
  [
    'buy-now not above the minimum bid',
    { type: 'auction', buy_price: 2500 },
    {},
    { buy_price: 'market.list.validation.buy_price' },
  ],
  [
    'a start in the past',
    { start_at: at(-HOUR) },
    {},
    { start_at: 'market.list.validation.start_past' },
  ],
  [
    'an end 59 minutes ahead',
    { end_at: at(59 * 60_000) },
    {},
    { end_at: 'market.list.validation.end_soon' },
  ],
  ['an end exactly 1 hour ahead', { end_at: at(HOUR) }, {}, {}],
  [
    'an end after the maximum date',
    { end_at: at(366 * 24 * HOUR) },
    {},
    { end_at: 'market.list.validation.end_max' },
  ],
  [
    'an end before the start',
    { start_at: at(5 * HOUR), end_at: at(2 * HOUR) },
    {},
    { end_at: 'market.list.validation.end_before_start' },
  ],
  [
    'ticket auction ending 1 day before expiry',
    { type: 'auction', end_at: at(9 * 24 * HOUR) },
    ticket,
    { end_at: 'market.list.validation.ticket_gap_auction' },
  ],
  [
    'ticket auction ending 2 days before expiry',
    { type: 'auction', end_at: at(8 * 24 * HOUR) },
    ticket,
    {},
  ],
  [
    'ticket sale ending 30 minutes before expiry',
    { end_at: at(10 * 24 * HOUR - 30 * 60_000) },
    ticket,
    { end_at: 'market.list.validation.ticket_gap_fixed' },
  ],
  ['ticket sale ending 1 hour before expiry', { end_at: at(10 * 24 * HOUR - HOUR) }, ticket, {}],
  [
    'a resale of a non-transferable item',
    {},
    { is_creator: false, transferable: false },
    { item_id: 'market.list.errors.not_transferable' },
  ],
  ['a resale of a transferable item', {}, { is_creator: false, transferable: true }, {}],
  [
    'invitations on a public listing',
    { invited: ['ana'] },
    {},
    { invited: 'market.list.validation.invited_public' },
  ],
  [
    'the same category twice',
    { categories: ['art', 'art'] },
    {},
    { categories: 'forms.validation.invalid' },
  ],
];

describe('listing rules (000 §5 List item), fixed clock', () => {
  it.each(rows)('%s', (_name, changes, extra, expected) => {
    const found = listingViolations({ ...base, ...changes }, { ...context, ...extra });
    expect(Object.fromEntries(found.map((v) => [v.field, v.code]))).toEqual(expected);
  });
});

describe('the list contract', () => {
  it.each([
    ['no category', { categories: [] }, 'categories', 'forms.validation.required'],
    [
      'four categories',
      { categories: ['art', 'music', 'sports', 'travel'] },
      'categories',
      'forms.validation.too_big',
    ],
    ['no copies', { copies: 0 }, 'copies', 'forms.validation.too_small'],
    ['201 copies', { copies: 201 }, 'copies', 'forms.validation.too_big'],
    ['a float price', { price: 12.5 }, 'price', 'forms.validation.invalid'],
    ['a negative price', { price: -1 }, 'price', 'forms.validation.too_small'],
    ['Sats', { currency: 'SAT' }, 'currency', 'forms.validation.enum'],
    ['empty terms', { terms: '  ' }, 'terms', 'forms.validation.required'],
    ['an unknown category', { categories: ['cars'] }, 'categories.0', 'forms.validation.enum'],
  ])('refuses %s', (_name, changes, field, code) => {
    const parsed = createOfferingBodySchema.safeParse({ offering: { ...base, ...changes } });
    expect(parsed.success).toBe(false);
    const issue = parsed.error?.issues.find((i) => i.path.slice(1).join('.') === field);
    expect(issue?.message).toBe(code);
  });

  it("normalises 'none' terms and invited nicks", () => {
    const parsed = createOfferingBodySchema.parse({
      offering: { ...base, terms: ' none ', access: 'private', invited: ['Ana', 'ana'] },
    });
    expect(parsed.offering.terms).toBe('None');
    expect(parsed.offering.invited).toEqual(['ana']);
  });

  it.each([
    ['loading', 0, 10, 5],
    ['preparing', 0, 10, 5],
    ['preparing', 5, 10, 25],
    ['preparing', 10, 10, 45],
    ['uploading', 0, 0, 45],
    ['listing', 10, 10, 48],
    ['checking', 5, 10, 70],
    ['publishing', 0, 0, 90],
    ['done', 10, 10, 100],
    ['unknown', 1, 1, 0],
  ])('progress %s %i/%i is %i%%', (step, done, total, percent) => {
    expect(listingPercent(step, done, total)).toBe(percent);
  });
});
