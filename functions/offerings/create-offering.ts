import { createHash } from 'node:crypto';
import { DomainError } from '../core/errors';
import { newOfferingId } from '../core/ids';
import { requireSameRequest } from '../core/idempotency';
import { isOnboarded } from '../../shared/onboarding';
import {
  listingViolations,
  type CreateOfferingBody,
  type ListingContext,
  type ListingProgress,
} from '../../shared/schemas/offerings';
import { allCopies, imageUrls, listableItem, ownedCopies, type ItemRecord } from '../items/index';
import { applyEvent, offeringNotFound } from './listing';
import { progressOf, type OfferingRecord } from './offerings';
import type { OfferingsDeps, Party } from './ports';

/**
 * Listing an item (issue 11 §1, §2): the facts the list form's rules need, the create call that
 * validates the contract with the same rules and starts the listing workflow, its status, and the
 * confirm-listing step (fewer copies reserved than asked: confirm with those, or cancel).
 */

function notOnboarded(): DomainError {
  return new DomainError('market.list.errors.not_onboarded', {
    message: 'Complete your seller onboarding before listing.',
  });
}

async function sellerOf(deps: OfferingsDeps, userId: string): Promise<Party> {
  const party = await deps.partyOf(userId);
  if (party === undefined) {
    throw new DomainError('users.errors.not_found', { message: 'This user could not be found.' });
  }
  return party;
}

function ticketExpiry(item: ItemRecord): string | null {
  return item.product_type === 'ticket' ? (item.ticket?.expires_at ?? null) : null;
}

/** GET users/{id}/offering/listing-context/{itemId}. */
export async function getListingContext(
  deps: OfferingsDeps,
  callerId: string,
  itemId: string,
): Promise<ListingContext> {
  const [party, item, copies] = await Promise.all([
    sellerOf(deps, callerId),
    listableItem(deps.copies, itemId),
    allCopies(deps.copies, itemId),
  ]);
  const owned = ownedCopies(copies, callerId);
  if (owned.owned === 0) {
    throw new DomainError('market.list.errors.not_owner', {
      message: 'You hold no copy of this item.',
    });
  }
  return {
    item: {
      id: item.id,
      title: item.title,
      product_type: item.product_type,
      image: imageUrls(item.images[0] as NonNullable<ItemRecord['images'][0]>, deps.imagesBaseUrl),
      copies: item.copies,
      transferable: item.transferable,
      ticket_expires_at: ticketExpiry(item),
      issuer_id: item.creator_id,
    },
    free_copies: owned.free,
    qr_copies: owned.qr,
    is_creator: item.creator_id === callerId,
    onboarded: isOnboarded(party.onboarding_status),
  };
}

function fingerprintOf(body: unknown): string {
  return createHash('sha256').update(JSON.stringify(body)).digest('hex');
}

/** POST users/{id}/offering/create {offering} with an Idempotency-Key: 202 and the progress. */
export async function createOffering(
  deps: OfferingsDeps,
  callerId: string,
  offering: CreateOfferingBody['offering'],
  idempotencyKey: string,
  now: Date,
): Promise<ListingProgress> {
  const fingerprint = fingerprintOf(offering);
  const replay = await deps.repo.getReplay(callerId, idempotencyKey);
  if (replay !== undefined) return resumeReplay(deps, replay, fingerprint);

  const [seller, item, copies] = await Promise.all([
    sellerOf(deps, callerId),
    listableItem(deps.copies, offering.item_id),
    allCopies(deps.copies, offering.item_id),
  ]);
  if (!isOnboarded(seller.onboarding_status)) throw notOnboarded();
  const owned = ownedCopies(copies, callerId);
  if (owned.owned === 0) {
    throw new DomainError('market.list.errors.not_owner', {
      message: 'You hold no copy of this item.',
    });
  }
  const violations = listingViolations(offering, {
    now,
    product_type: item.product_type,
    ticket_expires_at: ticketExpiry(item),
    free_copies: owned.free,
    qr_copies: owned.qr,
    is_creator: item.creator_id === callerId,
    transferable: item.transferable,
  });
  if (violations.length > 0) {
    throw new DomainError('market.list.errors.required', {
      message: 'Some fields need attention.',
      fields: Object.fromEntries(violations.map((v) => [v.field, v.code])),
    });
  }
  if (offering.collection_id !== null) {
    const owner = await deps.collectionOwner(offering.collection_id);
    if (owner !== callerId) {
      throw new DomainError('market.collection.errors.not_found', {
        message: 'No such collection of yours.',
        fields: { collection_id: 'market.collection.errors.not_found' },
      });
    }
  }
  const invited = await resolveInvitees(deps, callerId, offering.invited);
  const record = newRecord({ offering, item, seller, invited, now });
  const outcome = await deps.repo.create(record, {
    key: idempotencyKey,
    fingerprint,
    ttlFrom: now,
  });
  if (outcome === 'duplicate') {
    const stored = await deps.repo.getReplay(callerId, idempotencyKey);
    if (stored === undefined) throw new DomainError('unavailable', { message: 'Try again.' });
    return resumeReplay(deps, stored, fingerprint);
  }
  await deps.startListing(record.id);
  await deps.publish(callerId, { type: 'offering.progress', ...progressOf(record) });
  return progressOf(record);
}

/** A replayed create: same body → the same offering (its workflow started again, idempotently). */
async function resumeReplay(
  deps: OfferingsDeps,
  replay: { offeringId: string; fingerprint: string },
  fingerprint: string,
): Promise<ListingProgress> {
  requireSameRequest(replay, fingerprint);
  const record = await deps.repo.get(replay.offeringId);
  if (record === undefined) throw offeringNotFound();
  if (record.status === 'creating') await deps.startListing(record.id);
  return progressOf(record);
}

/** Nicks → users; unknown nicks are a field error, the seller is left out. */
export async function resolveInvitees(
  deps: OfferingsDeps,
  sellerId: string,
  nicks: readonly string[],
): Promise<{ id: string; nick: string }[]> {
  const found = await Promise.all(
    nicks.map(async (nick) => ({ nick, id: await deps.userIdByNick(nick) })),
  );
  const unknown = found.filter((entry) => entry.id === undefined).map((entry) => entry.nick);
  if (unknown.length > 0) {
    throw new DomainError('users.errors.not_found', {
      message: `Unknown users: ${unknown.join(', ')}`,
      fields: { invited: 'users.errors.not_found' },
    });
  }
  return found
    .filter((entry) => entry.id !== sellerId)
    .map((entry) => ({ id: entry.id as string, nick: entry.nick }));
}

function newRecord(input: {
  offering: CreateOfferingBody['offering'];
  item: ItemRecord;
  seller: Party;
  invited: { id: string; nick: string }[];
  now: Date;
}): OfferingRecord {
  const { offering, item, seller, now } = input;
  const image = item.images[0];
  if (image === undefined) throw new Error(`item ${item.id} has no image`);
  return {
    id: newOfferingId(now),
    item_id: item.id,
    seller_id: seller.id,
    seller_nick: seller.nick,
    item: {
      title: item.title,
      product_type: item.product_type,
      image,
      images: item.images,
      description: item.description,
      issuer_id: item.creator_id,
      issuer_nick: item.creator_nick,
      copies: item.copies,
      legal_terms: item.legal_terms,
    },
    type: offering.type,
    status: 'creating',
    step: 'loading',
    requested: offering.copies,
    reserved: 0,
    copies_left: 0,
    decision: null,
    reason: null,
    bids: 0,
    error: null,
    releasing: false,
    closing: false,
    bids_index: -1,
    published_at: null,
    ended_at: null,
    submitted_at: null,
    currency: offering.currency,
    price: offering.price,
    payment_mode: offering.payment_mode,
    deposit: offering.deposit,
    buy_price: offering.buy_price,
    reserve_price: offering.type === 'auction' ? offering.reserve_price : null,
    multi_copy: offering.multi_copy,
    start_at: new Date(offering.start_at).toISOString(),
    end_at: new Date(offering.end_at).toISOString(),
    categories: offering.categories,
    notes: offering.notes,
    terms: offering.terms,
    access: offering.access,
    invited: input.invited,
    collection_id: offering.collection_id,
    highest_bid: null,
    created_at: now.toISOString(),
    version: 1,
    token: null,
    execution: '',
  };
}

async function ownOffering(
  deps: OfferingsDeps,
  callerId: string,
  offeringId: string,
): Promise<OfferingRecord> {
  const record = await deps.repo.get(offeringId);
  // Someone else's listing is not found, not forbidden: ids are not to be probed.
  if (record === undefined || record.seller_id !== callerId) throw offeringNotFound();
  return record;
}

/** POST users/{id}/offering/create/status {offeringId}. */
export async function getListingStatus(
  deps: OfferingsDeps,
  callerId: string,
  offeringId: string,
): Promise<ListingProgress> {
  return progressOf(await ownOffering(deps, callerId, offeringId));
}

/** POST users/{id}/offering/create/confirm|cancel {offeringId}: the confirm-listing modal. */
export async function decideListing(
  deps: OfferingsDeps,
  callerId: string,
  offeringId: string,
  decision: 'confirm' | 'cancel',
  now: Date,
): Promise<ListingProgress> {
  await ownOffering(deps, callerId, offeringId);
  const applied = await applyEvent(deps, offeringId, { type: decision }, now, { strict: false });
  if (!applied.applied) {
    // Repeated (the same decision already taken): answer it again; the other decision: refuse.
    const same =
      decision === 'confirm'
        ? applied.record.status !== 'cancelled' && applied.record.status !== 'confirm'
        : applied.record.status === 'cancelled';
    if (!same) {
      throw new DomainError('market.list.errors.not_confirmable', {
        message: `The listing is ${applied.record.status}.`,
      });
    }
    // The settle of the first attempt may not have gone out (a crash after the write). Only
    // while the token is still the confirm step's: after submit it is support's.
    const stillAtConfirm =
      decision === 'confirm'
        ? applied.record.status === 'creating' && applied.record.step === 'listing'
        : applied.record.releasing;
    if (applied.record.token !== null && stillAtConfirm) {
      await deps.settle(applied.record.token, {
        offeringId,
        next: decision === 'confirm' ? 'submit' : 'release',
        endAt: applied.record.end_at,
      });
    }
  }
  return progressOf(applied.record);
}
