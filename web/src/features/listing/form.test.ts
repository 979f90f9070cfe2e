import { describe, expect, it } from 'vitest';
import { listingContextFixture, LISTING_ITEM_ID } from '../../test/listingFixtures';
import {
  emptyListForm,
  fromLocalInput,
  listFormSchema,
  minorAmountOf,
  NEW_COLLECTION,
  symbolFromName,
  toListing,
  toLocalInput,
  type ListFormValues,
} from './form';

const NOW = new Date(2026, 10, 22, 10, 5);

function values(overrides: Partial<ListFormValues> = {}): ListFormValues {
  return {
    ...emptyListForm(NOW),
    price: '12.50',
    categories: ['art'],
    no_terms: true,
    ...overrides,
  };
}

describe('list form values', () => {
  it('reads amounts typed in major units as integer minor units', () => {
    expect(minorAmountOf('12.50', 'USD')).toBe(1250);
    expect(minorAmountOf('12,5', 'EUR')).toBe(1250);
    expect(minorAmountOf('1.234,56', 'GBP')).toBe(123456);
    expect(minorAmountOf('0.1', 'USD')).toBe(10);
    expect(minorAmountOf('', 'USD')).toBeUndefined();
    // The spec's number format: '.' groups thousands when it can.
    expect(minorAmountOf('12.505', 'USD')).toBe(1250500);
    expect(minorAmountOf('12.5055', 'USD')).toBeNaN();
    expect(minorAmountOf('abc', 'USD')).toBeNaN();
  });

  it('turns datetime-local values into ISO UTC and back', () => {
    expect(toLocalInput(NOW)).toBe('2026-11-22T10:05');
    expect(fromLocalInput('2026-11-22T10:05')).toBe(NOW.toISOString());
    expect(fromLocalInput('')).toBeUndefined();
  });

  it('starts now and ends a week later', () => {
    const empty = emptyListForm(NOW);
    expect(empty.start_at).toBe('2026-11-22T10:05');
    expect(empty.end_at).toBe('2026-11-29T10:05');
  });

  it('derives a collection symbol from its name', () => {
    expect(symbolFromName('Café Mugs & Cups!')).toBe('cafe-mugs-cups');
    expect(symbolFromName('  A very long collection name indeed ')).toBe('a-very-long-collecti');
  });

  it('leaves out what does not apply to a fixed price', () => {
    const contract = toListing(
      values({
        buy_now: true,
        buy_price: '20',
        reserve: true,
        reserve_price: '15',
        multi_copy: true,
        invited: ['bruno'],
      }),
      LISTING_ITEM_ID,
    );
    expect(contract).toMatchObject({
      price: 1250,
      buy_price: null,
      reserve_price: null,
      multi_copy: false,
      deposit: null,
      invited: [],
      terms: 'None',
      collection_id: null,
      new_collection: null,
    });
  });

  it('keeps the auction fields and a private offering’s invitations', () => {
    const contract = toListing(
      values({
        type: 'auction',
        buy_now: true,
        buy_price: '20',
        reserve: true,
        reserve_price: '15',
        multi_copy: true,
        access: 'private',
        invited: ['bruno'],
        collection_id: NEW_COLLECTION,
      }),
      LISTING_ITEM_ID,
    );
    expect(contract).toMatchObject({
      buy_price: 2000,
      reserve_price: 1500,
      multi_copy: true,
      invited: ['bruno'],
      collection_id: null,
      new_collection: { name: '', symbol: '', image: null },
    });
  });
});

describe('list form schema', () => {
  const schema = listFormSchema(LISTING_ITEM_ID, listingContextFixture(), () => NOW);

  it('gives the contract of a valid form', () => {
    const result = schema.safeParse(values());
    expect(result.success).toBe(true);
    expect(result.data).toMatchObject({ price: 1250, copies: 1, new_collection: null });
  });

  it('reports the listing rules under their fields', () => {
    const result = schema.safeParse(
      values({ copies: 4, price: '0.50', end_at: '2026-11-22T10:35' }),
    );
    const issues = Object.fromEntries(
      (result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]),
    );
    expect(issues).toEqual({
      copies: 'market.list.errors.copies_available',
      price: 'market.list.validation.min_price',
      end_at: 'market.list.validation.end_soon',
    });
  });

  it('checks an auction’s reserve against the minimum bid and the buy-now price', () => {
    const issuesOf = (overrides: Partial<ListFormValues>) =>
      Object.fromEntries(
        (schema.safeParse(values({ type: 'auction', ...overrides })).error?.issues ?? []).map(
          (issue) => [issue.path.join('.'), issue.message],
        ),
      );
    expect(issuesOf({ reserve: true, reserve_price: '10' })).toEqual({
      reserve_price: 'market.list.validation.reserve',
    });
    expect(
      issuesOf({ reserve: true, reserve_price: '30', buy_now: true, buy_price: '20' }),
    ).toEqual({ buy_price: 'market.list.validation.buy_price_reserve' });
    expect(issuesOf({ reserve: true, reserve_price: '' })).toEqual({
      reserve_price: 'forms.validation.required',
    });
    const valid = schema.safeParse(values({ type: 'auction', reserve: true, reserve_price: '20' }));
    expect(valid.data).toMatchObject({ type: 'auction', price: 1250, reserve_price: 2000 });
    // Switched off, no reserve is sent, whatever was typed.
    const off = schema.safeParse(values({ type: 'auction', reserve: false, reserve_price: '5' }));
    expect(off.data).toMatchObject({ reserve_price: null });
  });

  it('asks a new collection for a name and an image', () => {
    const result = schema.safeParse(values({ collection_id: NEW_COLLECTION }));
    const paths = (result.error?.issues ?? []).map((issue) => issue.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['new_collection.name', 'new_collection.image']));
  });
});
