import type { ItemDetail } from '@shared/schemas/items';
import type { OfferingCard, OfferingDetail, PendingOffering } from '@shared/schemas/offerings';

/** Ids as the API makes them: items are ULIDs, offerings `oF` + a ULID. */
export const ITEM_ID = '01JDQCTZPTP0NX1EBB5G2451W0';
export const OFFERING_IDS = {
  fixed: 'oF01JD84G7ZWYRD6Z1RV0WHE6M11',
  auction: 'oF01JD10RDV1EWZEPEEXJ1T6BJ7N',
  private: 'oF01JDVCKJZS2YFSTBQQ5W6ASQZ1',
  other: 'oF01JDY2KSAAE0CESPPXH0R8DV3Y',
} as const;

/** Far enough ahead that every test sees the offering running. */
const END_AT = '2099-01-01T12:00:00.000Z';

export function offeringCardFixture(overrides: Partial<OfferingCard> = {}): OfferingCard {
  return {
    id: OFFERING_IDS.fixed,
    type: 'fixed',
    status: 'validated',
    display_status: 'buy_now',
    auction_display: null,
    access: 'public',
    item: {
      id: ITEM_ID,
      title: 'Stoneware mug',
      product_type: 'physical',
      image: { url: '/media/mug.webp', thumb: '/media/mug-t.webp' },
    },
    seller: { id: 'user-2', nick: 'lumen' },
    currency: 'USD',
    price: 1250,
    highest_bid: null,
    buy_price: null,
    copies: 5,
    copies_left: 3,
    categories: ['art', 'collectibles'],
    collection_id: null,
    start_at: '2026-01-01T10:00:00.000Z',
    end_at: END_AT,
    published_at: '2026-01-01T10:05:00.000Z',
    created_at: '2026-01-01T09:55:00.000Z',
    ...overrides,
  };
}

export function offeringDetailFixture(
  overrides: Partial<OfferingDetail> = {},
  card: Partial<OfferingCard> = {},
): OfferingDetail {
  const base = offeringCardFixture(card);
  return {
    ...base,
    item: {
      ...base.item,
      description: 'Hand-thrown, 300 ml.',
      images: [base.item.image],
      issuer_nick: 'ana',
      copies: 10,
    },
    payment_mode: 'fullprice',
    deposit: null,
    multi_copy: false,
    notes: 'Ships within two days.',
    terms: 'Returns within 14 days.',
    bids: 0,
    reserve_price: null,
    reason: null,
    can_delist: false,
    is_seller: false,
    favorite: false,
    invited: [],
    ...overrides,
  };
}

const AUCTION_CARD: Partial<OfferingCard> = {
  id: OFFERING_IDS.auction,
  type: 'auction',
  display_status: 'auction',
  auction_display: 'open',
  price: 1000,
  highest_bid: 1500,
  categories: ['music'],
};

/** An auction's market card: minimum bid $10,00, highest bid $15,00. */
export function auctionCardFixture(overrides: Partial<OfferingCard> = {}): OfferingCard {
  return offeringCardFixture({ ...AUCTION_CARD, ...overrides });
}

/** The same auction in detail: one bid, a $2,00 deposit, one copy per bidder. */
export function auctionDetailFixture(overrides: Partial<OfferingDetail> = {}): OfferingDetail {
  return offeringDetailFixture(
    { payment_mode: 'deposit', deposit: 200, multi_copy: false, bids: 1, ...overrides },
    AUCTION_CARD,
  );
}

export function pendingOfferingFixture(overrides: Partial<PendingOffering> = {}): PendingOffering {
  const detail = offeringDetailFixture(
    { is_seller: false },
    { status: 'pending', display_status: 'pending', published_at: null },
  );
  return {
    ...detail,
    submitted_at: '2026-02-01T09:00:00.000Z',
    item: {
      ...detail.item,
      images: [
        { url: '/media/mug.webp', thumb: '/media/mug-t.webp' },
        { url: '/media/mug-2.webp', thumb: '/media/mug-2-t.webp' },
      ],
      legal_terms: 'Made in Spain.',
    },
    ...overrides,
  };
}

/** The item of the offerings above, as getproductbyid answers it. */
export function offeringItemFixture(overrides: Partial<ItemDetail> = {}): ItemDetail {
  return {
    id: ITEM_ID,
    product_type: 'physical',
    title: 'Stoneware mug',
    symbol: 'mug',
    image: { url: '/media/mug.webp', thumb: '/media/mug-t.webp' },
    copies: 10,
    issuer_id: 'user-3',
    issuer_nick: 'ana',
    collection_id: null,
    status: 'available',
    created_at: '2026-01-01T00:00:00.000Z',
    owned: null,
    visible: null,
    description: 'Hand-thrown, 300 ml.',
    images: [{ url: '/media/mug.webp', thumb: '/media/mug-t.webp' }],
    legal_terms: 'None',
    transferable: true,
    royalty: null,
    beneficiary: null,
    ticket: null,
    shipping: { mode: 'delivery', countries: ['ES'] },
    contact_email: 'ana@example.com',
    issuer: {
      legal_form: 'Sole trader',
      organisation: 'Ana Ceramics',
      country: 'ES',
      email: 'ana@example.com',
      governing_law: 'Spanish law',
      jurisdiction: 'Madrid',
    },
    file: null,
    can_download: false,
    copies_page: {
      items: [
        {
          nftuniqueid: `${ITEM_ID}#1`,
          index: 1,
          owner_id: 'user-2',
          owner_nick: 'lumen',
          owner_since: '2026-01-01T00:00:00.000Z',
          status: 'blocked',
        },
      ],
      nextCursor: null,
    },
    ...overrides,
  };
}
