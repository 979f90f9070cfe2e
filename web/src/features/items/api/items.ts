import {
  collectionListSchema,
  collectionPageSchema,
  collectionSchema,
  copySchema,
  creationProgressSchema,
  fileLinkSchema,
  historySchema,
  itemDetailSchema,
  itemPageSchema,
  uploadedSchema,
  uploadTicketSchema,
  userLimitsSchema,
  visibilitySchema,
  type CreateItemContract,
  type MyProductsBody,
  type UploadTicket,
  type Uploaded,
} from '@shared/schemas/items';
import * as z from 'zod';
import { apiGet, apiPost } from '../../../lib/api';
import { postToStorage } from '../../../lib/storage';

const enc = encodeURIComponent;
/** The caller's id in paths; '-' for guests where the call is public. */
export const callerId = (id: string | null | undefined) => (id ? id : '-');

export const itemKeys = {
  all: ['items'] as const,
  limits: (id: string) => ['items', 'limits', id] as const,
  collections: (id: string) => ['items', 'collections', id] as const,
  detail: (itemId: string, caller: string) => ['items', 'detail', itemId, caller] as const,
  mine: (id: string, filters: MyProductsBody) => ['items', 'mine', id, filters] as const,
  public: (nick: string) => ['items', 'public', nick] as const,
  history: (nftuniqueid: string) => ['items', 'history', nftuniqueid] as const,
  collection: (collectionId: string) => ['items', 'collection', collectionId] as const,
};

/** POST users/{id}/store-token-images: a presigned POST for one image or the attached file. */
export function requestUpload(
  id: string,
  file: File,
  kind: 'image' | 'file',
): Promise<UploadTicket> {
  return apiPost(
    `/users/${enc(id)}/store-token-images`,
    {
      kind,
      content_type: file.type || 'application/octet-stream',
      size: file.size,
      name: file.name,
    },
    { schema: uploadTicketSchema },
  );
}

/** The file to storage; a refusal is the image-upload error of the create form. */
export function postToItemStorage(post: UploadTicket['post'], file: File): Promise<void> {
  return postToStorage(post, file, () => 'market.create_product.errors.image_upload');
}

/** POST users/{id}/store-token-images/confirm {upload_id}. */
export function confirmUpload(id: string, uploadId: string): Promise<Uploaded> {
  return apiPost(
    `/users/${enc(id)}/store-token-images/confirm`,
    { upload_id: uploadId },
    { schema: uploadedSchema },
  );
}

/** Ticket, storage, confirmation. `onStep` tells which stage is running. */
export async function uploadItemFile(
  id: string,
  file: File,
  kind: 'image' | 'file',
  onStep?: (step: 'uploading' | 'confirming') => void,
): Promise<Uploaded> {
  const ticket = await requestUpload(id, file, kind);
  onStep?.('uploading');
  await postToItemStorage(ticket.post, file);
  onStep?.('confirming');
  return confirmUpload(id, ticket.upload_id);
}

/** POST users/{id}/token/create {contract} with the submission's Idempotency-Key. */
export function createItem(id: string, contract: CreateItemContract, idempotencyKey: string) {
  return apiPost(
    `/users/${enc(id)}/token/create`,
    { contract },
    { schema: creationProgressSchema, headers: { 'Idempotency-Key': idempotencyKey } },
  );
}

export function fetchUserLimits(id: string, signal?: AbortSignal) {
  return apiGet(`/users/${enc(id)}/get-user-limits`, { schema: userLimitsSchema, signal });
}

export function fetchMyProducts(id: string, body: MyProductsBody, signal?: AbortSignal) {
  return apiPost(`/users/${enc(id)}/token/getmyproducts`, body, { schema: itemPageSchema, signal });
}

export function fetchPublicProducts(
  caller: string,
  nick: string,
  last: string | null,
  signal?: AbortSignal,
) {
  return apiPost(
    `/users/${enc(caller)}/token/getpublicproducts`,
    { sourceUserNick: nick, ...(last ? { last } : {}) },
    { schema: itemPageSchema, signal },
  );
}

export function fetchItem(caller: string, itemId: string, signal?: AbortSignal) {
  return apiPost(
    `/users/${enc(caller)}/token/getproductbyid/${enc(itemId)}`,
    {},
    {
      schema: itemDetailSchema,
      signal,
    },
  );
}

const copyPageSchema = z.object({ items: z.array(copySchema), nextCursor: z.string().nullable() });

export function fetchCopies(caller: string, itemId: string, cursor: string) {
  return apiGet(`/users/${enc(caller)}/token/${enc(itemId)}/copies`, {
    query: { cursor },
    schema: copyPageSchema,
  });
}

export function fetchHistory(caller: string, nftuniqueid: string, signal?: AbortSignal) {
  return apiGet(`/users/${enc(caller)}/token/gethistoric/${enc(nftuniqueid)}`, {
    schema: historySchema,
    signal,
  });
}

export function switchVisibility(id: string, itemId: string, visible: boolean) {
  return apiPost(
    `/users/${enc(id)}/token/switch-visibility`,
    { item_id: itemId, visible },
    { schema: visibilitySchema },
  );
}

export function fetchFileLink(id: string, itemId: string) {
  return apiGet(`/users/${enc(id)}/token/${enc(itemId)}/file`, { schema: fileLinkSchema });
}

export function fetchCollections(id: string, signal?: AbortSignal) {
  return apiGet(`/users/${enc(id)}/token/findcollections`, {
    schema: collectionListSchema,
    signal,
  });
}

export function createCollection(
  id: string,
  collection: { symbol: string; title: string; image: string },
) {
  return apiPost(
    `/users/${enc(id)}/token/createcollection`,
    { collection },
    {
      schema: collectionSchema,
    },
  );
}

export function fetchCollectionPage(
  caller: string,
  collectionId: string,
  cursor: string | null,
  signal?: AbortSignal,
) {
  return apiGet(`/users/${enc(caller)}/token/getcollection/${enc(collectionId)}`, {
    query: { cursor },
    schema: collectionPageSchema,
    signal,
  });
}
