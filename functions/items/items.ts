import { DomainError } from '../core/errors';
import { STORAGE_LIMITS } from '../../shared/constants/limits';
import type {
  CreateItemContract,
  CreationProgress,
  ItemDetail,
  ItemSummary,
} from '../../shared/schemas/items';
import type { ProductType } from '../../shared/switches';
import type { CreationState } from './creation.machine';
import type { ProvenanceRecord } from './provenance';
import { imageUrls, type StoredImage } from '../images/index';

export { imageUrls, type StoredImage };

/**
 * The items domain (issue 4): uploads, creation of an item with its numbered copies, lists,
 * detail, provenance, visibility and the creator's limits. Records as the repo stores them and
 * their mapping to the API's shapes live here; use cases in create-item.ts, uploads.ts and
 * queries.ts.
 */

/** Mints a user may create (ours; the spec names only the byte capacity). */
export const MINT_LIMITS = { maxItemsPerUser: 50 } as const;

/** Copies written per TransactWriteItems: 50 copies + their 50 first history records. */
export const COPIES_PER_BATCH = 50;

/** Pending/confirmed uploads not used by a creation expire after 24 h (TTL). */
export const UPLOAD_TTL_SECONDS = 24 * 60 * 60;
/** Presigned POST and presigned GET lifetimes. */
export const UPLOAD_EXPIRES_SECONDS = 300;
export const FILE_LINK_EXPIRES_SECONDS = 300;

/** The creator limits in force: env MINT_LIMIT_ITEMS overrides the mint count (tests, ops). */
export function mintLimitFromEnv(env: Record<string, string | undefined>): number {
  const raw = env.MINT_LIMIT_ITEMS;
  const value = raw === undefined || raw.trim() === '' ? NaN : Number(raw);
  return Number.isInteger(value) && value >= 0 ? value : MINT_LIMITS.maxItemsPerUser;
}

export interface CreatorLimits {
  enabled: boolean;
  maxMints: number;
  capacity: number;
}

export function defaultLimits(enabled: boolean, maxMints: number): CreatorLimits {
  return { enabled, maxMints, capacity: STORAGE_LIMITS.maxOverlayBytes };
}

export interface StoredFile {
  key: string;
  name: string;
  size: number;
  type: string;
}

export interface UploadRecord {
  upload_id: string;
  user_id: string;
  kind: 'image' | 'file';
  status: 'pending' | 'confirmed' | 'used';
  content_type: string;
  name: string | null;
  /** Where the client uploads (images: uploads/ in the images bucket; files: the files bucket). */
  source_key: string;
  /** Bytes stored for the creator's capacity (re-encoded images, or the file's size). */
  bytes: number;
  image: StoredImage | null;
  file: StoredFile | null;
  item_id: string | null;
  created_at: string;
}

export interface ItemRecord extends CreationState {
  id: string;
  creator_id: string;
  creator_nick: string;
  created_at: string;
  product_type: ProductType;
  title: string;
  description: string;
  copies: number;
  symbol: string;
  images: StoredImage[];
  file: StoredFile | null;
  collection_id: string | null;
  shipping: CreateItemContract['shipping'];
  legal_terms: string;
  transferable: boolean;
  royalty: number | null;
  beneficiary: { nick: string; share: number; user_id: string } | null;
  ticket: { redeemer: string; redeemer_id: string; expires_at: string } | null;
  contact_email: string;
  issuer: CreateItemContract['issuer'];
  upload_ids: string[];
  image_bytes: number;
  file_bytes: number;
  idempotency_key: string;
  fingerprint: string;
  version: number;
}

export interface CopyRecord {
  item_id: string;
  serial: number;
  nftuniqueid: string;
  owner_id: string;
  owner_nick: string;
  owner_since: string;
  status: 'available' | 'blocked' | 'sold' | 'not_available';
  /** The offering that holds it while blocked (functions/items/copies.ts). */
  offering_id?: string;
  /** The order that booked it (issue 12), until `booked_until` (ISO-8601). */
  order_id?: string;
  booked_until?: string;
  /** A ticket copy with a QR code: it cannot be listed (spec 000 §4). */
  qr?: boolean;
  /** Hash of the copy's newest provenance record. */
  head: string;
}

/** What lists show of an item (kept on holdings, copied from the item when finalised). */
export interface StoredSummary {
  id: string;
  product_type: ProductType;
  title: string;
  symbol: string;
  image: StoredImage;
  copies: number;
  issuer_id: string;
  issuer_nick: string;
  collection_id: string | null;
  created_at: string;
}

export interface HoldingRecord {
  owner_id: string;
  item_id: string;
  count: number;
  visible: boolean;
  summary: StoredSummary;
}

export interface LimitsRecord {
  mints_used: number;
  bytes_used: number;
  image_bytes: number;
  file_bytes: number;
}

export type { ProvenanceRecord };

export function progressOf(item: ItemRecord): CreationProgress {
  return {
    item_id: item.id,
    status: item.status,
    written: item.written,
    total: item.total,
    error: item.error,
  };
}

export function stateOf(item: ItemRecord): CreationState {
  return { status: item.status, total: item.total, written: item.written, error: item.error };
}

export function summaryOf(item: ItemRecord): StoredSummary {
  const image = item.images[0];
  if (image === undefined) throw new Error(`item ${item.id} has no image`);
  return {
    id: item.id,
    product_type: item.product_type,
    title: item.title,
    symbol: item.symbol,
    image,
    copies: item.copies,
    issuer_id: item.creator_id,
    issuer_nick: item.creator_nick,
    collection_id: item.collection_id,
    created_at: item.created_at,
  };
}

export function toSummary(
  summary: StoredSummary,
  imagesBaseUrl: string,
  holding: { owned: number; visible: boolean } | null,
): ItemSummary {
  return {
    ...summary,
    image: imageUrls(summary.image, imagesBaseUrl),
    status: 'available',
    owned: holding?.owned ?? null,
    visible: holding?.visible ?? null,
  };
}

export function toDetail(
  item: ItemRecord,
  imagesBaseUrl: string,
  extra: Pick<ItemDetail, 'can_download' | 'copies_page'>,
): ItemDetail {
  return {
    ...toSummary(summaryOf(item), imagesBaseUrl, null),
    description: item.description,
    images: item.images.map((image) => imageUrls(image, imagesBaseUrl)),
    legal_terms: item.legal_terms,
    transferable: item.transferable,
    royalty: item.royalty,
    beneficiary:
      item.beneficiary === null
        ? null
        : { nick: item.beneficiary.nick, share: item.beneficiary.share },
    ticket:
      item.ticket === null
        ? null
        : { redeemer: item.ticket.redeemer, expires_at: item.ticket.expires_at },
    shipping: item.shipping,
    contact_email: item.contact_email,
    issuer: item.issuer,
    file:
      item.file === null
        ? null
        : { name: item.file.name, size: item.file.size, type: item.file.type },
    ...extra,
  };
}

export function itemNotFound(): DomainError {
  return new DomainError('not_found', { message: 'This item could not be found.' });
}
