import {
  collectionSchema,
  uploadedSchema,
  uploadTicketSchema,
  type Collection,
  type Uploaded,
} from '@shared/schemas/items';
import { apiPost } from '../../lib/api';
import { postToStorage } from '../../lib/storage';

/**
 * The calls the list form makes besides the offerings client (lib/offerings.ts): a new
 * collection, made inline before the listing is submitted. Features do not import each other, so
 * this is the minimal copy of the items feature's upload and token/createcollection calls.
 */
const enc = encodeURIComponent;

/** POST users/{id}/store-token-images {kind: image}: a presigned POST for the image. */
function requestImageUpload(id: string, file: File) {
  return apiPost(
    `/users/${enc(id)}/store-token-images`,
    { kind: 'image', content_type: file.type, size: file.size, name: file.name },
    { schema: uploadTicketSchema },
  );
}

/** POST users/{id}/store-token-images/confirm {upload_id}: checked, re-encoded, recorded. */
function confirmImageUpload(id: string, uploadId: string): Promise<Uploaded> {
  return apiPost(
    `/users/${enc(id)}/store-token-images/confirm`,
    { upload_id: uploadId },
    { schema: uploadedSchema },
  );
}

/** Ticket, storage, confirmation: the confirmed upload's id. Storage refusals are the list's
 * collection-image error. */
export async function uploadCollectionImage(id: string, file: File): Promise<string> {
  const ticket = await requestImageUpload(id, file);
  await postToStorage(ticket.post, file, () => 'market.list.errors.collection_image');
  const uploaded = await confirmImageUpload(id, ticket.upload_id);
  return uploaded.upload_id;
}

/** POST users/{id}/token/createcollection {collection}: 409 market.list.errors.collection_exists. */
export function createCollection(
  id: string,
  collection: { symbol: string; title: string; image: string },
): Promise<Collection> {
  return apiPost(
    `/users/${enc(id)}/token/createcollection`,
    { collection },
    { schema: collectionSchema },
  );
}
