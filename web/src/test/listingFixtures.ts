import type { Collection } from '@shared/schemas/items';
import type { ListingContext, ListingProgress } from '@shared/schemas/offerings';

/** Ids as the API makes them: items and collections are ULIDs, offerings `oF` + a ULID. */
export const LISTING_ITEM_ID = '01JCX3V5M2Q8R7T6Y5W4Z3A2B1';
export const LISTING_OFFERING_ID = 'oF01JCX4A7B8C9D0E1F2G3H4J5K6';
export const LISTING_COLLECTION_ID = '01JCX5N6P7Q8R9S0T1V2W3X4Y5';

/** What listing-context answers for the signed-in test user (user-1), onboarded. */
export function listingContextFixture(
  overrides: Partial<Omit<ListingContext, 'item'>> & {
    item?: Partial<ListingContext['item']>;
  } = {},
): ListingContext {
  const { item, ...rest } = overrides;
  return {
    item: {
      id: LISTING_ITEM_ID,
      title: 'Stoneware mug',
      product_type: 'physical',
      image: { url: '/media/mug.webp', thumb: '/media/mug-t.webp' },
      copies: 5,
      transferable: true,
      ticket_expires_at: null,
      issuer_id: 'user-1',
      ...item,
    },
    free_copies: 3,
    qr_copies: 0,
    is_creator: true,
    onboarded: true,
    ...rest,
  };
}

/** An answer of offering/create, create/status, confirm, cancel or a live `offering.progress`. */
export function listingProgressFixture(overrides: Partial<ListingProgress> = {}): ListingProgress {
  return {
    offeringId: LISTING_OFFERING_ID,
    item_id: LISTING_ITEM_ID,
    step: 'loading',
    done: 0,
    total: 1,
    percent: 5,
    error: null,
    ...overrides,
  };
}

export function listingCollectionFixture(overrides: Partial<Collection> = {}): Collection {
  return {
    id: LISTING_COLLECTION_ID,
    symbol: 'mugs',
    title: 'Mugs',
    name: 'mugs',
    image: { url: '/media/c.webp', thumb: '/media/c-t.webp' },
    owner_id: 'user-1',
    owner_nick: 'ana',
    items_count: 1,
    created_at: '2026-11-01T00:00:00.000Z',
    ...overrides,
  };
}
