import { PRODUCT_TYPES, type ProductType } from '../../shared/switches';
import type {
  Category,
  DisplayStatus,
  ListingContract,
  ListingProgress,
  OfferingCard,
  OfferingDetail,
  OfferingStatus,
} from '../../shared/schemas/offerings';
import { listingPercent } from '../../shared/schemas/offerings';
import { imageUrls, type StoredImage } from '../items/index';
import { canDelist, type ListingState } from './listing.machine';
import {
  PENDING_PARTITION,
  collectionOfferingsPartition,
  endedPartition,
  itemOfferingsPartition,
  marketPartition,
  sellerGroupPartition,
  sellerPartition,
  timeSort,
  typesKey,
  type Key,
} from './offerings.keys';

/**
 * The offerings domain (issue 11): records as stored, the index keys an offering's state puts it
 * under, its market entries, and the answers' shapes. Use cases: create-offering.ts (the list
 * call, its status, confirm and cancel), listing.ts (the workflow's tasks), queries.ts (the
 * market's lists and the offering page), manage.ts (delist, invitations, favourites, support).
 */

/** Copies locked or released per workflow task (one conditional update each, in parallel). */
export const COPIES_PACK = 25;

/** What the offering keeps of its item (cards and support's page show it without a read). */
export interface OfferingItem {
  title: string;
  product_type: ProductType;
  image: StoredImage;
  images: StoredImage[];
  description: string;
  issuer_id: string;
  issuer_nick: string;
  copies: number;
  legal_terms: string;
}

export interface OfferingRecord extends ListingState {
  id: string;
  item_id: string;
  seller_id: string;
  seller_nick: string;
  item: OfferingItem;
  currency: ListingContract['currency'];
  price: number;
  payment_mode: ListingContract['payment_mode'];
  deposit: number | null;
  buy_price: number | null;
  /** Auctions: the hidden reserve per copy (shown to its seller only), or null. */
  reserve_price: number | null;
  multi_copy: boolean;
  start_at: string;
  end_at: string;
  categories: Category[];
  notes: string;
  terms: string;
  access: ListingContract['access'];
  invited: { id: string; nick: string }[];
  collection_id: string | null;
  created_at: string;
  /** Bumped by every write; each write is conditioned on the one it read. */
  version: number;
  /** The waiting callback task's token (confirm-listing or support's decision), or null. */
  token: string | null;
  execution: string;
}

/** My Offerings' status filter groups (spec 000 §2: any, active, sold, closed). */
export function sellerGroupOf(status: OfferingStatus): 'active' | 'sold' | 'closed' | null {
  switch (status) {
    case 'pending':
    case 'validated':
    case 'delisting':
      return 'active';
    case 'sold':
      return 'sold';
    case 'expired':
    case 'delisted':
    case 'not_validated':
      return 'closed';
    default:
      return null;
  }
}

const isOnMarket = (record: OfferingRecord) => record.status === 'validated';
const isPublic = (record: OfferingRecord) => record.access === 'public';

/** The index keys the offering's state puts it under (written with every save). */
export function indexKeysOf(record: OfferingRecord): Record<string, string> {
  const keys: Record<string, string> = {};
  const created = timeSort(record.created_at, record.id);
  const group = sellerGroupOf(record.status);
  if (group !== null) {
    keys.gsi1pk = sellerPartition(record.seller_id);
    keys.gsi1sk = created;
    keys.gsi2pk = sellerGroupPartition(record.seller_id, group);
    keys.gsi2sk = created;
  }
  const published = record.published_at ?? record.created_at;
  if (isOnMarket(record) && isPublic(record)) {
    keys.gsi3pk = itemOfferingsPartition(record.item_id);
    keys.gsi3sk = timeSort(published, record.id);
    if (record.collection_id !== null) {
      keys.gsi5pk = collectionOfferingsPartition(record.collection_id);
      keys.gsi5sk = timeSort(published, record.id);
    }
  }
  if (record.status === 'pending' && record.decision === null) {
    keys.gsi4pk = PENDING_PARTITION;
    keys.gsi4sk = timeSort(record.submitted_at ?? record.created_at, record.id);
  } else if (
    isPublic(record) &&
    (record.status === 'expired' || record.status === 'sold') &&
    record.ended_at !== null
  ) {
    keys.gsi4pk = endedPartition(record.seller_id);
    keys.gsi4sk = timeSort(record.ended_at, record.id);
  }
  return keys;
}

/** Subsets of the product types that contain `type` ('any' stands for all of them). */
function typeKeysOf(type: ProductType): string[] {
  const others = PRODUCT_TYPES.filter((other) => other !== type);
  const keys = new Set<string>();
  for (let mask = 0; mask < 1 << others.length; mask += 1) {
    const set: ProductType[] = [type, ...others.filter((_, bit) => (mask & (1 << bit)) !== 0)];
    keys.add(typesKey(set));
  }
  return [...keys];
}

/** The market's offer filter values an offering matches (spec 000 §2: any, auction, buy). */
function offerKeysOf(record: Pick<OfferingRecord, 'type' | 'buy_price'>): string[] {
  if (record.type === 'fixed') return ['any', 'buy'];
  return record.buy_price === null ? ['any', 'auction'] : ['any', 'auction', 'buy'];
}

/** Every market partition a published public offering is listed under. */
export function marketPartitionsOf(record: OfferingRecord): string[] {
  const partitions: string[] = [];
  for (const types of typeKeysOf(record.item.product_type)) {
    for (const category of ['any', ...record.categories]) {
      for (const offer of offerKeysOf(record)) {
        partitions.push(marketPartition(types, category, offer));
      }
    }
  }
  return partitions;
}

export interface MarketEntry extends Key {
  card: StoredCard;
  version: number;
}

/** A card as stored (images as keys: the answer builds URLs). */
export type StoredCard = Omit<OfferingCard, 'item' | 'display_status' | 'auction_display'> & {
  item: Omit<OfferingCard['item'], 'image'> & { image: StoredImage };
};

export function storedCardOf(record: OfferingRecord): StoredCard {
  return {
    id: record.id,
    type: record.type,
    status: record.status,
    access: record.access,
    item: {
      id: record.item_id,
      title: record.item.title,
      product_type: record.item.product_type,
      image: record.item.image,
    },
    seller: { id: record.seller_id, nick: record.seller_nick },
    currency: record.currency,
    price: record.price,
    highest_bid: record.highest_bid,
    buy_price: record.buy_price,
    copies: record.reserved,
    copies_left: record.copies_left,
    categories: record.categories,
    collection_id: record.collection_id,
    start_at: record.start_at,
    end_at: record.end_at,
    published_at: record.published_at,
    created_at: record.created_at,
  };
}

export function marketEntriesOf(record: OfferingRecord): MarketEntry[] {
  const sk = timeSort(record.published_at ?? record.created_at, record.id);
  const card = storedCardOf(record);
  return marketPartitionsOf(record).map((pk) => ({ pk, sk, card, version: record.version }));
}

export function marketKeysOf(record: OfferingRecord): Key[] {
  const sk = timeSort(record.published_at ?? record.created_at, record.id);
  return marketPartitionsOf(record).map((pk) => ({ pk, sk }));
}

/** Spec 000 §4 token display status of an offering, at `now`. */
export function displayStatusOf(
  card: Pick<StoredCard, 'status' | 'type' | 'end_at'> & { closing?: boolean | undefined },
  now: Date,
): DisplayStatus {
  switch (card.status) {
    case 'validated':
      if (Date.parse(card.end_at) <= now.getTime()) return 'expired';
      return card.type === 'auction' ? 'auction' : 'buy_now';
    case 'creating':
    case 'confirm':
      return 'processing';
    case 'pending':
      return 'pending';
    case 'not_validated':
      return 'not_validated';
    case 'delisting':
      return 'delisting';
    case 'expired':
    case 'sold':
      return 'expired';
    case 'delisted':
    case 'cancelled':
    case 'error':
      return 'available';
  }
}

/** Spec 000 §4 auction display: open, nobids (ended, winners being processed), closed. */
export function auctionDisplayOf(
  card: Pick<StoredCard, 'status' | 'type' | 'end_at'>,
  now: Date,
): OfferingCard['auction_display'] {
  if (card.type !== 'auction') return null;
  if (card.status === 'validated') {
    return Date.parse(card.end_at) > now.getTime() ? 'open' : 'nobids';
  }
  return 'closed';
}

export function cardOf(stored: StoredCard, imagesBaseUrl: string, now: Date): OfferingCard {
  return {
    ...stored,
    item: { ...stored.item, image: imageUrls(stored.item.image, imagesBaseUrl) },
    display_status: displayStatusOf(stored, now),
    auction_display: auctionDisplayOf(stored, now),
  };
}

export function detailOf(
  record: OfferingRecord,
  viewer: { id: string | null; favorite: boolean },
  imagesBaseUrl: string,
  now: Date,
): OfferingDetail {
  const card = cardOf(storedCardOf(record), imagesBaseUrl, now);
  const isSeller = viewer.id === record.seller_id;
  return {
    ...card,
    // An auction whose close has begun is processing its winners, whatever its end says.
    ...(record.closing && record.status === 'validated'
      ? { auction_display: 'nobids' as const }
      : {}),
    item: {
      ...card.item,
      description: record.item.description,
      images: record.item.images.map((image) => imageUrls(image, imagesBaseUrl)),
      issuer_nick: record.item.issuer_nick,
      copies: record.item.copies,
    },
    payment_mode: record.payment_mode,
    deposit: record.deposit,
    multi_copy: record.multi_copy,
    notes: record.notes,
    terms: record.terms,
    bids: record.bids,
    reserve_price: isSeller ? record.reserve_price : null,
    reason: isSeller ? record.reason : null,
    can_delist: isSeller && canDelist(record),
    is_seller: isSeller,
    favorite: viewer.favorite,
    invited: isSeller ? record.invited : [],
  };
}

/** The listing's progress as the status call and the live event answer it. */
export function progressOf(record: OfferingRecord): ListingProgress {
  const step = record.step;
  return {
    offeringId: record.id,
    item_id: record.item_id,
    step,
    done: record.reserved,
    total: record.requested,
    percent: listingPercent(step, record.reserved, record.requested),
    error: step === 'error' || step === 'cancelled' ? record.error : null,
  };
}
