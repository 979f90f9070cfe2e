import {
  favoriteSchema,
  invitationsSchema,
  listingContextSchema,
  listingProgressSchema,
  offeringDetailSchema,
  offeringPageSchema,
  pendingPageSchema,
  type GetOfferingsBody,
  type ListingContext,
  type ListingContract,
  type ListingProgress,
  type MyOfferingFilter,
  type OfferingDetail,
  type OfferingPage,
  type ValidateOfferingBody,
} from '@shared/schemas/offerings';
import { collectionListSchema, type Collection } from '@shared/schemas/items';
import { apiGet, apiPost, apiRequest } from './api';

/**
 * The offerings calls (spec 000 §7 offering/*; issue 11), shared by the features that show or act
 * on offerings (market, list form, item page, admin queue): web features do not import each
 * other, so the client lives here. Paths and answers: docs/api.md.
 */
const enc = encodeURIComponent;
const caller = (id: string | null | undefined) => (id ? id : '-');

export const offeringKeys = {
  all: ['offerings'] as const,
  market: (filters: Partial<GetOfferingsBody>, viewer: string) =>
    ['offerings', 'market', filters, viewer] as const,
  mine: (id: string, status: MyOfferingFilter) => ['offerings', 'mine', id, status] as const,
  favorites: (id: string) => ['offerings', 'favorites', id] as const,
  detail: (offeringId: string, viewer: string) =>
    ['offerings', 'detail', offeringId, viewer] as const,
  progress: (offeringId: string) => ['offerings', 'progress', offeringId] as const,
  pending: ['offerings', 'pending'] as const,
  collections: (id: string) => ['offerings', 'collections', id] as const,
};

/** POST users/{id}/offering/create {offering}: starts the listing; answers its progress (202). */
export function createOffering(
  id: string,
  offering: ListingContract,
  idempotencyKey: string,
): Promise<ListingProgress> {
  return apiPost(
    `/users/${enc(id)}/offering/create`,
    { offering },
    { schema: listingProgressSchema, headers: { 'Idempotency-Key': idempotencyKey } },
  );
}

/** POST users/{id}/offering/create/status {offeringId}: 404 market.list.errors.not_found. */
export function listingStatus(id: string, offeringId: string): Promise<ListingProgress> {
  return apiPost(
    `/users/${enc(id)}/offering/create/status`,
    { offeringId },
    { schema: listingProgressSchema },
  );
}

/** The confirm-listing modal: list the copies that were reserved (confirm) or give up (cancel). */
export function confirmListing(
  id: string,
  offeringId: string,
  decision: 'confirm' | 'cancel',
): Promise<ListingProgress> {
  return apiPost(
    `/users/${enc(id)}/offering/create/${decision}`,
    { offeringId },
    { schema: listingProgressSchema },
  );
}

/** POST users/{id|-}/offering/getofferings: the market, a collection, an item, a seller. */
export function getOfferings(
  viewer: string | null,
  body: Partial<GetOfferingsBody>,
  signal?: AbortSignal,
): Promise<OfferingPage> {
  return apiPost(`/users/${enc(caller(viewer))}/offering/getofferings`, body, {
    schema: offeringPageSchema,
    signal,
  });
}

/** POST users/{id}/offering/getmyofferings {status, last}. */
export function getMyOfferings(
  id: string,
  status: MyOfferingFilter,
  last?: string,
): Promise<OfferingPage> {
  return apiPost(
    `/users/${enc(id)}/offering/getmyofferings`,
    last === undefined ? { status } : { status, last },
    { schema: offeringPageSchema },
  );
}

/** POST users/{id|-}/offering/getofferingbyid/{offeringId}: 404 for a private one not yours. */
export function getOfferingById(
  viewer: string | null,
  offeringId: string,
  signal?: AbortSignal,
): Promise<OfferingDetail> {
  return apiPost(
    `/users/${enc(caller(viewer))}/offering/getofferingbyid/${enc(offeringId)}`,
    {},
    { schema: offeringDetailSchema, signal },
  );
}

/** POST users/{id}/offering/add-invitations/{offeringId} {invitedIds: nicks}. */
export function addInvitations(id: string, offeringId: string, nicks: string[]) {
  return apiPost(
    `/users/${enc(id)}/offering/add-invitations/${enc(offeringId)}`,
    { invitedIds: nicks },
    { schema: invitationsSchema },
  );
}

/** POST users/{id}/offering/delist/{offeringId} (a POST where the spec says GET). */
export function delistOffering(id: string, offeringId: string): Promise<OfferingDetail> {
  return apiPost(
    `/users/${enc(id)}/offering/delist/${enc(offeringId)}`,
    {},
    { schema: offeringDetailSchema },
  );
}

/** GET users/{id}/offering/getmyownercollections: the caller's collections. */
export function getMyOwnerCollections(id: string): Promise<{ items: Collection[] }> {
  return apiGet(`/users/${enc(id)}/offering/getmyownercollections`, {
    schema: collectionListSchema,
  });
}

/** POST users/{id|-}/offering/getownercollections {nick}: a user's collections. */
export function getOwnerCollections(viewer: string | null, nick: string) {
  return apiPost(
    `/users/${enc(caller(viewer))}/offering/getownercollections`,
    { nick },
    { schema: collectionListSchema },
  );
}

/** Favourites: PUT / DELETE users/{id}/favorites/{offeringId}; GET users/{id}/favorites. */
export function setFavorite(id: string, offeringId: string, favorite: boolean) {
  return apiRequest(`/users/${enc(id)}/favorites/${enc(offeringId)}`, {
    method: favorite ? 'PUT' : 'DELETE',
    schema: favoriteSchema,
  });
}

export function getFavorites(id: string, cursor?: string): Promise<OfferingPage> {
  return apiGet(`/users/${enc(id)}/favorites`, {
    query: { cursor },
    schema: offeringPageSchema,
  });
}

/** Admin support: the pending queue (oldest first) and the decision. */
export function getPendingOfferings(cursor?: string) {
  return apiGet('/admin/offerings', { query: { cursor }, schema: pendingPageSchema });
}

export function validateOffering(
  offeringId: string,
  body: ValidateOfferingBody,
): Promise<OfferingDetail> {
  return apiPost(`/admin/offerings/${enc(offeringId)}/validate`, body, {
    schema: offeringDetailSchema,
  });
}

/** GET users/{id}/offering/listing-context/{itemId}: the facts the listing rules need. */
export function getListingContext(id: string, itemId: string): Promise<ListingContext> {
  return apiGet(`/users/${enc(id)}/offering/listing-context/${enc(itemId)}`, {
    schema: listingContextSchema,
  });
}
