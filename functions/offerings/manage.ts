import { DomainError } from '../core/errors';
import { PAGE_SIZE } from '../../shared/constants/limits';
import { decide, permissionSwitches } from '../../shared/permissions';
import type {
  OfferingDetail,
  PendingOffering,
  ValidateOfferingBody,
} from '../../shared/schemas/offerings';
import { MAX_INVITED } from '../../shared/schemas/offerings';
import type { Switches } from '../../shared/switches';
import { resolveInvitees } from './create-offering';
import { applyEvent, offeringNotFound, performEffects } from './listing';
import { PENDING_PARTITION } from './offerings.keys';
import { detailOf, type OfferingRecord } from './offerings';
import { unlockPack } from '../items/index';
import { COPIES_PACK } from './offerings';
import type { OfferingsDeps } from './ports';

/**
 * What sellers, buyers and support do to an offering once it exists (issue 11 §3, §6): delist,
 * invite, favourite, and support's queue and decision.
 */

/**
 * POST users/{id}/offering/delist/{offeringId}: only its seller, only while on sale (or an
 * auction without bids); the market entries go at once, the copies come back in packs while the
 * offering shows `delisting`. A repeated call resumes a delisting that was cut short.
 */
export async function delistOffering(
  deps: OfferingsDeps,
  switches: Switches,
  callerId: string,
  offeringId: string,
  now: Date,
): Promise<OfferingDetail> {
  const record = await deps.repo.get(offeringId);
  if (record === undefined) throw offeringNotFound();
  if (record.seller_id !== callerId) {
    throw new DomainError('forbidden', { message: 'Only its seller can delist an offering.' });
  }
  const party = await deps.partyOf(callerId);
  if (party === undefined || decide('delist', party, permissionSwitches(switches)) !== 'allow') {
    throw new DomainError('market.list.errors.not_onboarded', {
      message: 'Complete your seller onboarding to delist.',
    });
  }
  const applied = await applyEvent(deps, offeringId, { type: 'delist' }, now, { strict: true });
  let current = applied.record;
  for (;;) {
    const { remaining } = await unlockPack(deps.copies, {
      itemId: current.item_id,
      offeringId: current.id,
      keep: 0,
      pack: COPIES_PACK,
    });
    if (remaining === 0) break;
  }
  const released = await applyEvent(deps, offeringId, { type: 'released' }, now, {
    strict: false,
  });
  current = released.record;
  return detailOf(current, { id: callerId, favorite: false }, deps.imagesBaseUrl, now);
}

/** POST users/{id}/offering/add-invitations/{offeringId} {invitedIds: nicks}. */
export async function addInvitations(
  deps: OfferingsDeps,
  callerId: string,
  offeringId: string,
  nicks: readonly string[],
): Promise<{ invited: { id: string; nick: string }[] }> {
  const record = await deps.repo.get(offeringId);
  if (record === undefined || record.seller_id !== callerId) throw offeringNotFound();
  if (record.access !== 'private') {
    throw new DomainError('market.offering.errors.not_private', {
      message: 'Only a private offering takes invitations.',
    });
  }
  const ended = ['expired', 'sold', 'delisted', 'delisting', 'not_validated', 'cancelled', 'error'];
  if (ended.includes(record.status)) {
    throw new DomainError('market.offering.errors.ended', { message: 'This offering has ended.' });
  }
  const invitees = await resolveInvitees(deps, callerId, [
    ...new Set(nicks.map((nick) => nick.toLowerCase())),
  ]);
  for (let attempt = 0; attempt < 8; attempt += 1) {
    const current = attempt === 0 ? record : await deps.repo.get(offeringId);
    if (current === undefined) throw offeringNotFound();
    const known = new Set(current.invited.map((invitee) => invitee.id));
    const added = invitees.filter((invitee) => !known.has(invitee.id));
    const invited = [...current.invited, ...added];
    if (invited.length > MAX_INVITED) {
      throw new DomainError('market.offering.errors.too_many_invited', {
        message: `At most ${MAX_INVITED} users can be invited.`,
        fields: { invitedIds: 'forms.validation.too_big' },
      });
    }
    if (added.length === 0) return { invited };
    const next: OfferingRecord = { ...current, invited, version: current.version + 1 };
    if (!(await deps.repo.save(next, current.version))) continue;
    if (next.status === 'validated') {
      // Already on the market: the new invitees hear of it now (the publish step told the others).
      await performEffects(deps, { ...next, invited: added }, ['notify_invitees'], 'wait_end');
    } else {
      await deps.repo.putInvites(next.id, added, false);
    }
    return { invited };
  }
  throw new DomainError('unavailable', { message: 'The offering is busy; try again.' });
}

/** PUT / DELETE users/{id}/favorites/{offeringId}: needs an offering the caller may see. */
export async function setFavorite(
  deps: OfferingsDeps,
  switches: Switches,
  callerId: string,
  offeringId: string,
  favorite: boolean,
  now: Date,
): Promise<{ offeringId: string; favorite: boolean }> {
  const party = await deps.partyOf(callerId);
  const decision =
    party === undefined ? 'login' : decide('favourites', party, permissionSwitches(switches));
  if (decision !== 'allow') {
    throw new DomainError('market.favorites.errors.verify', {
      message: 'Verify your company to keep favourites.',
    });
  }
  if (favorite) {
    const record = await deps.repo.get(offeringId);
    const visible =
      record !== undefined &&
      (record.seller_id === callerId ||
        (['validated', 'expired', 'sold', 'delisted'].includes(record.status) &&
          (record.access === 'public' || (await deps.repo.isInvited(offeringId, callerId)))));
    if (!visible) throw offeringNotFound();
  }
  await deps.repo.setFavorite(callerId, offeringId, favorite, now.toISOString());
  return { offeringId, favorite };
}

/** GET admin/offerings?cursor: support's queue, oldest first, 10 per page. */
export async function listPendingOfferings(
  deps: OfferingsDeps,
  cursor: string | undefined,
  now: Date,
): Promise<{ items: PendingOffering[]; nextCursor: string | null }> {
  const page = await deps.repo.queryIndex('pending', 'gsi4', PENDING_PARTITION, {
    cursor,
    limit: PAGE_SIZE.small,
    forward: true,
  });
  return {
    items: page.items.map((record) => {
      const detail = detailOf(record, { id: null, favorite: false }, deps.imagesBaseUrl, now);
      return {
        ...detail,
        submitted_at: record.submitted_at ?? record.created_at,
        item: { ...detail.item, legal_terms: record.item.legal_terms },
      };
    }),
    nextCursor: page.next,
  };
}

/**
 * POST admin/offerings/{offeringId}/validate {decision, reason?}: records support's decision and
 * hands it to the waiting workflow, which publishes (validated) or refuses (not validated,
 * copies released); the seller is notified either way. 409 `not_pending` when decided already.
 */
export async function validateOffering(
  deps: OfferingsDeps,
  offeringId: string,
  body: ValidateOfferingBody,
  now: Date,
): Promise<OfferingDetail> {
  const applied = await applyEvent(
    deps,
    offeringId,
    {
      type: 'decide',
      decision: body.decision,
      reason: body.decision === 'reject' ? body.reason : null,
    },
    now,
    { strict: true },
  );
  return detailOf(applied.record, { id: null, favorite: false }, deps.imagesBaseUrl, now);
}
