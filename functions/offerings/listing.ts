import { DomainError } from '../core/errors';
import type { ErrorCode } from '../../shared/errors/registry';
import { lockPack, unlockPack } from '../items/index';
import { imageUrls } from '../items/index';
import {
  resumeStep,
  transition,
  type ListingEffect,
  type ListingEvent,
  type NextStep,
} from './listing.machine';
import {
  COPIES_PACK,
  marketEntriesOf,
  marketKeysOf,
  progressOf,
  type OfferingRecord,
} from './offerings';
import type { OfferingsDeps } from './ports';
import { offeringPutPiece } from './offerings.tx';

/**
 * The listing workflow's tasks (infra/workflows/listing.asl.json) and the one way anything moves
 * an offering: `applyEvent` loads it, runs the pure transition, writes it conditioned on the
 * version it read (a lost race reloads and tries again), then performs the effects. Effects are
 * idempotent (puts of the same entries, notify() keyed by event, settling a settled token), so a
 * retried task or call repeats them harmlessly.
 */
const MAX_ATTEMPTS = 8;

export function offeringNotFound(): DomainError {
  return new DomainError('market.offering.errors.not_found', {
    message: 'This offering could not be found.',
  });
}

export interface Applied {
  record: OfferingRecord;
  next: NextStep;
  /** False when the event did not apply (a replay): `next` is where the offering stands. */
  applied: boolean;
}

/**
 * Applies an event. A refused event throws its code when `strict` (a user's call), else answers
 * the offering as it is with its resume step (a replayed task).
 */
export async function applyEvent(
  deps: OfferingsDeps,
  offeringId: string,
  event: ListingEvent,
  now: Date,
  options: { strict: boolean; patch?: Partial<OfferingRecord> } = { strict: true },
): Promise<Applied> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    const record = await deps.repo.get(offeringId);
    if (record === undefined) throw offeringNotFound();
    const outcome = transition(record, event, now);
    if (!outcome.ok) {
      if (options.strict) {
        throw new DomainError(outcome.code as ErrorCode, {
          message: `The offering is ${record.status}.`,
        });
      }
      return { record, next: resumeStep(record), applied: false };
    }
    const next: OfferingRecord = {
      ...record,
      ...outcome.state,
      ...options.patch,
      version: record.version + 1,
    };
    // An auction's delisting closes its lot in the same transaction, failing if it has a bid.
    if (event.type === 'delist' && record.type === 'auction' && record.status === 'validated') {
      const saved = await deps.repo.saveGuarded(
        next,
        record.version,
        deps.auctions.delistGuard(offeringId),
      );
      if (saved === 'guard') {
        throw new DomainError('market.offering.errors.has_bids', {
          message: 'This auction has bids: it can no longer be delisted.',
        });
      }
      if (saved === 'conflict') continue;
    } else if (!(await deps.repo.save(next, record.version))) {
      continue;
    }
    await performEffects(deps, next, outcome.effects, outcome.next);
    return { record: next, next: outcome.next, applied: true };
  }
  throw new DomainError('unavailable', { message: 'The offering is busy; try again.' });
}

/** Writes a field that is not part of the state machine (a callback token), version-checked. */
export async function patchOffering(
  deps: OfferingsDeps,
  offeringId: string,
  patch: (record: OfferingRecord) => Partial<OfferingRecord> | null,
): Promise<OfferingRecord> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    const record = await deps.repo.get(offeringId);
    if (record === undefined) throw offeringNotFound();
    const changes = patch(record);
    if (changes === null) return record;
    const next = { ...record, ...changes, version: record.version + 1 };
    if (await deps.repo.save(next, record.version)) return next;
  }
  throw new DomainError('unavailable', { message: 'The offering is busy; try again.' });
}

function payloadOf(deps: OfferingsDeps, record: OfferingRecord) {
  return {
    itemName: record.item.title,
    itemmarket: record.item_id,
    offeringId: record.id,
    tokenImage: imageUrls(record.item.image, deps.imagesBaseUrl).thumb,
    sourcenick: record.seller_nick,
  };
}

export async function performEffects(
  deps: OfferingsDeps,
  record: OfferingRecord,
  effects: readonly ListingEffect[],
  next: NextStep,
): Promise<void> {
  for (const effect of effects) {
    switch (effect) {
      case 'progress':
        await deps.publish(record.seller_id, { type: 'offering.progress', ...progressOf(record) });
        break;
      case 'updated':
        await deps.publish(record.seller_id, {
          type: 'offering.updated',
          offeringId: record.id,
          status: record.status,
        });
        break;
      case 'settle':
        if (record.token !== null) await deps.settle(record.token, answer(record, next));
        break;
      case 'market_put':
        if (record.access === 'public') await deps.repo.putMarketEntries(marketEntriesOf(record));
        break;
      case 'market_delete':
        if (record.access === 'public') await deps.repo.deleteMarketEntries(marketKeysOf(record));
        break;
      case 'notify_validated':
        await deps.notify({
          to: record.seller_id,
          activity: 'market_offeringvalidated',
          eventKey: `offering:${record.id}:validated`,
          payload: payloadOf(deps, record),
        });
        break;
      case 'notify_rejected':
        await deps.notify({
          to: record.seller_id,
          activity: 'market_offeringrejected',
          eventKey: `offering:${record.id}:rejected`,
          payload: { ...payloadOf(deps, record), reason: record.reason ?? '' },
        });
        break;
      case 'notify_invitees':
        if (record.access === 'private' && record.invited.length > 0) {
          await deps.repo.putInvites(record.id, record.invited, true);
          for (const invitee of record.invited) {
            await deps.notify({
              to: invitee.id,
              activity: 'market_invitation',
              eventKey: `invitation:${record.id}:${invitee.id}`,
              sourceid: record.seller_id,
              payload: payloadOf(deps, record),
            });
          }
        }
        break;
      case 'auction_open':
        await deps.auctions.open(record, new Date());
        break;
      case 'fan_out':
        if (record.access === 'public') {
          await deps.fanOut({
            sellerId: record.seller_id,
            offeringId: record.id,
            publishedAt: record.published_at ?? record.created_at,
            payload: payloadOf(deps, record),
          });
        }
        break;
    }
  }
}

/** The workflow's task input and answer. */
export const LISTING_TASK_EVENTS = [
  'reserve',
  'await_confirm',
  'confirm_timeout',
  'submit',
  'await_validation',
  'validation_timeout',
  'apply_decision',
  'end',
  'release',
  'fail',
] as const;
export type ListingTaskEvent = (typeof LISTING_TASK_EVENTS)[number];

export interface ListingTaskInput {
  offeringId: string;
  event: ListingTaskEvent;
  /** Callback tasks: the token to settle. */
  token?: string;
  /** fail: the caught error. */
  error?: { Error?: string; Cause?: string };
}

export interface ListingTaskOutput {
  offeringId: string;
  next: NextStep | 'failed';
  /** The absolute end the workflow waits for (Wait TimestampPath). */
  endAt: string;
}

function answer(record: OfferingRecord, next: NextStep | 'failed'): ListingTaskOutput {
  return { offeringId: record.id, next, endAt: record.end_at };
}

/** One task of the listing workflow. Idempotent: a replay answers where the offering stands. */
export async function runListingTask(
  deps: OfferingsDeps,
  input: ListingTaskInput,
  now: Date,
): Promise<ListingTaskOutput | null> {
  const lenient = { strict: false };
  switch (input.event) {
    case 'reserve': {
      const record = await deps.repo.get(input.offeringId);
      if (record === undefined) throw offeringNotFound();
      if (record.status !== 'creating' || record.step === 'listing') {
        return answer(record, resumeStep(record));
      }
      const pack = await lockPack(deps.copies, {
        itemId: record.item_id,
        ownerId: record.seller_id,
        offeringId: record.id,
        want: record.requested,
        pack: COPIES_PACK,
      });
      const applied = await applyEvent(
        deps,
        record.id,
        { type: 'reserved', reserved: pack.held, exhausted: pack.exhausted },
        now,
        lenient,
      );
      return answer(applied.record, applied.next);
    }
    case 'await_confirm':
    case 'await_validation': {
      const token = input.token;
      if (token === undefined) throw new Error('a callback task needs its token');
      const waitingFor = input.event === 'await_confirm' ? 'confirm' : 'await_validation';
      const record = await patchOffering(deps, input.offeringId, (current) =>
        resumeStep(current) === waitingFor ? { token } : null,
      );
      // Decided before the token was stored (or a replay): settle it now.
      if (resumeStep(record) !== waitingFor) {
        await deps.settle(token, answer(record, resumeStep(record)));
      }
      return null;
    }
    case 'confirm_timeout': {
      const applied = await applyEvent(
        deps,
        input.offeringId,
        { type: 'confirm_timeout' },
        now,
        lenient,
      );
      return answer(applied.record, applied.next);
    }
    case 'validation_timeout': {
      const applied = await applyEvent(
        deps,
        input.offeringId,
        { type: 'validation_timeout' },
        now,
        lenient,
      );
      return answer(applied.record, applied.next);
    }
    case 'submit':
    case 'apply_decision':
    case 'end': {
      const event =
        input.event === 'submit'
          ? ({ type: 'submit' } as const)
          : input.event === 'end'
            ? ({ type: 'end' } as const)
            : ({ type: 'apply_decision' } as const);
      const applied = await applyEvent(deps, input.offeringId, event, now, lenient);
      return answer(applied.record, applied.next);
    }
    case 'release': {
      const record = await deps.repo.get(input.offeringId);
      if (record === undefined) throw offeringNotFound();
      if (!record.releasing) return answer(record, resumeStep(record));
      const { remaining } = await unlockPack(deps.copies, {
        itemId: record.item_id,
        offeringId: record.id,
        keep: 0,
        pack: COPIES_PACK,
      });
      if (remaining > 0) return answer(record, 'release');
      const applied = await applyEvent(deps, record.id, { type: 'released' }, now, lenient);
      return answer(applied.record, applied.next);
    }
    case 'fail': {
      const record = await deps.repo.get(input.offeringId);
      if (record === undefined) throw offeringNotFound();
      if (record.status !== 'creating' && record.status !== 'confirm') {
        return answer(record, record.releasing ? 'release' : 'failed');
      }
      const applied = await applyEvent(
        deps,
        record.id,
        { type: 'fail', code: 'market.list.errors.generic' },
        now,
        lenient,
      );
      return answer(applied.record, applied.next);
    }
  }
}

/**
 * A sale of `quantity` copies (issue 12), for an order's payment transaction: the offering's next
 * record (fewer copies left, `sold` when none are) and its transaction piece, conditioned on the
 * version read; `after` performs the effects once the transaction committed (market entries
 * refreshed or removed, the seller's tabs told). A refused sale answers its code.
 */
export function saleOf(
  TableName: string,
  record: OfferingRecord,
  quantity: number,
  now: Date,
):
  | {
      ok: true;
      next: OfferingRecord;
      piece: ReturnType<typeof offeringPutPiece>;
      effects: ListingEffect[];
    }
  | { ok: false; code: string } {
  const outcome = transition(record, { type: 'sold', quantity }, now);
  if (!outcome.ok) return { ok: false, code: outcome.code };
  const next: OfferingRecord = { ...record, ...outcome.state, version: record.version + 1 };
  return {
    ok: true,
    next,
    piece: offeringPutPiece(TableName, next, record.version),
    effects: outcome.effects,
  };
}

/** The effects of a committed sale (saleOf), idempotent: a retried payment repeats them. */
export async function afterSale(
  deps: OfferingsDeps,
  record: OfferingRecord,
  effects: readonly ListingEffect[],
): Promise<void> {
  await performEffects(deps, record, effects, resumeStep(record));
}

/** The effects a sale's current record implies (a retry after a crash re-derives them). */
export function saleEffectsOf(record: OfferingRecord): ListingEffect[] {
  if (record.status === 'sold') return ['market_delete', 'updated'];
  if (record.status === 'validated') return ['market_put'];
  return [];
}
