import type { Collection } from '@shared/schemas/items';
import type { OfferingCard, OfferingPage } from '@shared/schemas/offerings';

/** The clock the market's tests fix (vi.setSystemTime): a Wednesday morning, UTC. */
export const MARKET_NOW = new Date('2026-03-04T10:00:00.000Z');

/** Ids as the API makes them: items and collections are ULIDs, offerings `oF` + a ULID. */
export const COLLECTION_ID = '01JDQD0000COLLECTION00000A';

let serial = 0;
/** A distinct offering id (and item id) for lists of many cards. */
function nextIds() {
  serial += 1;
  const tail = String(serial).padStart(6, '0');
  return { id: `oF01JDQCTZPTP0NX1EBB5G${tail}`, item: `01JDQCTZPTP0NX1EBB5G${tail}` };
}

/** A fixed-price card: $12,50 a copy, 3 of 10 left, on sale by @lumen. */
export function marketCardFixture(overrides: Partial<OfferingCard> = {}): OfferingCard {
  const ids = nextIds();
  return {
    id: ids.id,
    type: 'fixed',
    status: 'validated',
    display_status: 'buy_now',
    auction_display: null,
    access: 'public',
    item: {
      id: ids.item,
      title: 'Stoneware mug',
      product_type: 'physical',
      image: { url: '/media/mug.webp', thumb: '/media/mug-t.webp' },
    },
    seller: { id: 'user-2', nick: 'lumen' },
    currency: 'USD',
    price: 1250,
    highest_bid: null,
    buy_price: null,
    copies: 10,
    copies_left: 3,
    categories: ['art'],
    collection_id: null,
    start_at: '2026-03-01T10:00:00.000Z',
    end_at: '2026-04-01T10:00:00.000Z',
    published_at: '2026-03-01T10:05:00.000Z',
    created_at: '2026-03-01T09:55:00.000Z',
    ...overrides,
  };
}

/** An open auction ending 2 days 4 hours after MARKET_NOW: minimum bid $10,00. */
export function auctionCardFixture(overrides: Partial<OfferingCard> = {}): OfferingCard {
  return marketCardFixture({
    type: 'auction',
    display_status: 'auction',
    auction_display: 'open',
    price: 1000,
    highest_bid: null,
    copies: 1,
    copies_left: 1,
    end_at: '2026-03-06T14:30:00.000Z',
    item: {
      id: nextIds().item,
      title: 'Test pressing',
      product_type: 'physical',
      image: { url: '/media/vinyl.webp', thumb: '/media/vinyl-t.webp' },
    },
    ...overrides,
  });
}

/** `count` cards titled `${prefix} 1`, `${prefix} 2`, … */
export function marketCards(count: number, prefix = 'Edition'): OfferingCard[] {
  return Array.from({ length: count }, (_, index) => {
    const card = marketCardFixture();
    return { ...card, item: { ...card.item, title: `${prefix} ${index + 1}` } };
  });
}

export function offeringPage(
  items: OfferingCard[],
  nextCursor: string | null = null,
): OfferingPage {
  return { items, nextCursor };
}

export function collectionFixture(overrides: Partial<Collection> = {}): Collection {
  return {
    id: COLLECTION_ID,
    symbol: 'TIDE',
    title: 'Tidewater editions',
    name: 'tidewater editions',
    image: { url: '/media/tide.webp', thumb: '/media/tide-t.webp' },
    owner_id: 'user-1',
    owner_nick: 'ana',
    items_count: 4,
    created_at: '2026-02-01T00:00:00.000Z',
    ...overrides,
  };
}
