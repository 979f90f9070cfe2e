import { createHash } from 'node:crypto';
import { requireSameRequest } from '../core/idempotency';
import { DomainError } from '../core/errors';
import type { CreateItemContract, CreationProgress } from '../../shared/schemas/items';
import { initialCreation, transition, type CreationState } from './creation.machine';
import { nftUniqueId } from './items.keys';
import {
  COPIES_PER_BATCH,
  itemNotFound,
  progressOf,
  stateOf,
  summaryOf,
  type CopyRecord,
  type CreatorLimits,
  type ItemRecord,
  type UploadRecord,
} from './items';
import type { CreationRepo } from './items.repo';
import { appendRecord, canonicalJson, type ProvenanceRecord } from './provenance';

/**
 * token/create (spec 000 §5, issue 4 items 3–4): checks, then one transaction reserves the item,
 * the idempotency key, the creator's limits and the uploads; the copies and their first
 * provenance records follow in idempotent batches, each followed by the progress (conditioned on
 * the item's version); a last transaction makes the item visible. Any failure after the
 * reservation marks the creation `error` (best effort) and answers 503; the same Idempotency-Key
 * and body resumes from the stored state.
 */
export interface CreateItemDeps {
  repo: CreationRepo;
  users: {
    userIdByNick(nick: string): Promise<string | undefined>;
    nickOf(userId: string): Promise<string | undefined>;
  };
  /** Is this the owner's collection? (functions/collections getOwnedCollection) */
  collections: { isOwnedBy(ownerId: string, collectionId: string): Promise<boolean> };
  /** Live progress (`item.creation`); failures are swallowed by the caller. */
  publish(userId: string, progress: CreationProgress): Promise<void>;
  newId(now: Date): string;
  limits: CreatorLimits;
  copiesPerBatch?: number;
}

export interface CreateItemInput {
  userId: string;
  idempotencyKey: string;
  contract: CreateItemContract;
}

/** At most this many state steps per call (batches + retries of lost races). */
const MAX_STEPS = 200;

export function fingerprintOf(contract: CreateItemContract): string {
  return createHash('sha256')
    .update(canonicalJson(JSON.parse(JSON.stringify(contract)) as never))
    .digest('hex');
}

function invalid(fields: Record<string, string>): DomainError {
  return new DomainError('invalid_request', {
    message: 'The request body is not valid.',
    fields,
  });
}

async function safePublish(deps: CreateItemDeps, userId: string, progress: CreationProgress) {
  try {
    await deps.publish(userId, progress);
  } catch {
    // The live channel is a nicety: a failed publish never fails the creation.
  }
}

function usableUpload(
  upload: UploadRecord | undefined,
  kind: UploadRecord['kind'],
): upload is UploadRecord {
  return upload !== undefined && upload.kind === kind && upload.status === 'confirmed';
}

/** The checks of step 1 and the item header to reserve. */
async function prepare(
  deps: CreateItemDeps,
  input: CreateItemInput,
  fingerprint: string,
  now: Date,
): Promise<ItemRecord> {
  const { contract, userId } = input;
  const fields: Record<string, string> = {};
  const images = await Promise.all(contract.images.map((id) => deps.repo.getUpload(userId, id)));
  images.forEach((upload, index) => {
    if (!usableUpload(upload, 'image')) {
      fields[`images.${index}`] = 'market.create_product.errors.image_upload';
    }
  });
  const file =
    contract.file === null ? undefined : await deps.repo.getUpload(userId, contract.file.upload);
  if (contract.file !== null && !usableUpload(file, 'file')) {
    fields['file.upload'] = 'market.create_product.errors.required';
  }
  const [beneficiaryId, redeemerId, ownsCollection, creatorNick] = await Promise.all([
    contract.beneficiary === null ? undefined : deps.users.userIdByNick(contract.beneficiary.nick),
    contract.ticket === null ? undefined : deps.users.userIdByNick(contract.ticket.redeemer),
    contract.collection_id === null
      ? true
      : deps.collections.isOwnedBy(userId, contract.collection_id),
    deps.users.nickOf(userId),
  ]);
  if (contract.beneficiary !== null && beneficiaryId === undefined) {
    fields['beneficiary.nick'] = 'users.errors.not_found';
  }
  if (contract.ticket !== null && redeemerId === undefined) {
    fields['ticket.redeemer'] = 'users.errors.not_found';
  }
  if (!ownsCollection) fields.collection_id = 'forms.validation.invalid';
  if (Object.keys(fields).length > 0) throw invalid(fields);
  if (creatorNick === undefined) {
    throw new DomainError('users.errors.not_found', { message: 'This user could not be found.' });
  }
  const imageUploads = images as UploadRecord[];
  const state = transition(initialCreation(contract.copies), { type: 'checked' });
  return {
    ...state,
    id: deps.newId(now),
    creator_id: userId,
    creator_nick: creatorNick,
    created_at: now.toISOString(),
    product_type: contract.product_type,
    title: contract.title,
    description: contract.description,
    copies: contract.copies,
    symbol: contract.symbol,
    images: imageUploads.map((upload) => {
      if (upload.image === null) throw new Error(`upload ${upload.upload_id} has no image`);
      return upload.image;
    }),
    file: file?.file ?? null,
    collection_id: contract.collection_id,
    shipping: contract.shipping,
    legal_terms: contract.legal_terms,
    transferable: contract.transferable,
    royalty: contract.royalty,
    beneficiary:
      contract.beneficiary === null
        ? null
        : { ...contract.beneficiary, user_id: beneficiaryId as string },
    ticket:
      contract.ticket === null ? null : { ...contract.ticket, redeemer_id: redeemerId as string },
    contact_email: contract.contact_email,
    issuer: contract.issuer,
    upload_ids: [...contract.images, ...(file === undefined ? [] : [file.upload_id])],
    image_bytes: imageUploads.reduce((sum, upload) => sum + upload.bytes, 0),
    file_bytes: file?.bytes ?? 0,
    idempotency_key: input.idempotencyKey,
    fingerprint,
    version: 1,
  };
}

/** The copies of serials from..to (inclusive) and their first (minted) provenance records. */
export function copiesBatch(
  item: ItemRecord,
  from: number,
  to: number,
): { copies: CopyRecord[]; history: ProvenanceRecord[] } {
  const copies: CopyRecord[] = [];
  const history: ProvenanceRecord[] = [];
  for (let serial = from; serial <= to; serial += 1) {
    const id = nftUniqueId(item.id, serial);
    const record = appendRecord(id, undefined, {
      event: 'minted',
      from_id: null,
      from_nick: null,
      to_id: item.creator_id,
      to_nick: item.creator_nick,
      at: item.created_at,
      ref: null,
    });
    history.push(record);
    copies.push({
      item_id: item.id,
      serial,
      nftuniqueid: id,
      owner_id: item.creator_id,
      owner_nick: item.creator_nick,
      owner_since: item.created_at,
      status: 'available',
      head: record.hash,
    });
  }
  return { copies, history };
}

class StepFailed extends Error {
  constructor(
    readonly code: 'market.create_product.errors.chunks' | 'market.create_product.errors.store',
    readonly original: unknown,
  ) {
    super(code);
  }
}

async function step<T>(code: StepFailed['code'], run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw new StepFailed(code, error);
  }
}

async function markFailed(deps: CreateItemDeps, itemId: string, code: string): Promise<void> {
  try {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const item = await deps.repo.getItem(itemId);
      if (item === undefined || item.status === 'done' || item.status === 'error') return;
      const failed = transition(stateOf(item), { type: 'failed', code });
      if (await deps.repo.saveProgress(itemId, item.version, failed)) {
        await safePublish(deps, item.creator_id, { ...progressOf(item), ...failed });
        return;
      }
    }
  } catch {
    // Best effort: the retry resumes from whatever was stored.
  }
}

/** Moves a reserved creation forward until it is done (or a step fails). */
async function drive(deps: CreateItemDeps, itemId: string): Promise<CreationProgress> {
  const batch = deps.copiesPerBatch ?? COPIES_PER_BATCH;
  try {
    for (let steps = 0; steps < MAX_STEPS; steps += 1) {
      const item = await step('market.create_product.errors.store', () =>
        deps.repo.getItem(itemId),
      );
      if (item === undefined) throw itemNotFound();
      const state = stateOf(item);
      if (item.status === 'done') return progressOf(item);
      let next: CreationState;
      if (item.status === 'error' || item.status === 'checking') {
        const checking = item.status === 'error' ? transition(state, { type: 'retried' }) : state;
        next = transition(checking, { type: 'checked' });
      } else if (item.written < item.total) {
        const from = item.written + 1;
        const to = Math.min(item.total, item.written + batch);
        const { copies, history } = copiesBatch(item, from, to);
        await step('market.create_product.errors.chunks', () =>
          deps.repo.writeCopies(copies, history),
        );
        next = transition(state, { type: 'copies_written', count: to - item.written });
      } else {
        const done = transition(state, { type: 'finalized' });
        const holding = {
          owner_id: item.creator_id,
          item_id: item.id,
          count: item.total,
          visible: true,
          summary: summaryOf(item),
        };
        const finalized = await step('market.create_product.errors.store', () =>
          deps.repo.finalize(item, item.version, holding),
        );
        if (!finalized) continue;
        const progress = { ...progressOf(item), ...done };
        await safePublish(deps, item.creator_id, progress);
        return progress;
      }
      const saved = await step('market.create_product.errors.store', () =>
        deps.repo.saveProgress(item.id, item.version, next),
      );
      if (saved) await safePublish(deps, item.creator_id, { ...progressOf(item), ...next });
    }
    throw new StepFailed('market.create_product.errors.store', new Error('too many steps'));
  } catch (error) {
    if (!(error instanceof StepFailed)) throw error;
    await markFailed(deps, itemId, error.code);
    throw new DomainError(error.code, {
      message:
        error.code === 'market.create_product.errors.chunks'
          ? 'The copies could not all be written; retry with the same Idempotency-Key to resume.'
          : 'The item could not be stored; retry with the same Idempotency-Key to resume.',
      cause: error.original,
    });
  }
}

async function resume(
  deps: CreateItemDeps,
  record: { item_id: string; fingerprint: string },
  fingerprint: string,
): Promise<CreationProgress> {
  requireSameRequest(record, fingerprint);
  return drive(deps, record.item_id);
}

export async function createItem(
  deps: CreateItemDeps,
  input: CreateItemInput,
  now: Date,
): Promise<CreationProgress> {
  const fingerprint = fingerprintOf(input.contract);
  const existing = await deps.repo.getIdempotency(input.userId, input.idempotencyKey);
  if (existing !== undefined) return resume(deps, existing, fingerprint);

  const item = await prepare(deps, input, fingerprint, now);
  await safePublish(deps, input.userId, {
    ...progressOf(item),
    ...initialCreation(item.total),
  });
  const outcome = await deps.repo.reserve(item, deps.limits.enabled ? deps.limits : null);
  if (outcome === 'limit') {
    throw new DomainError('market.create_product.errors.limit', {
      message: 'You have reached your creation limits.',
    });
  }
  if (outcome === 'duplicate') {
    const record = await deps.repo.getIdempotency(input.userId, input.idempotencyKey);
    if (record === undefined) throw new DomainError('unavailable', { message: 'Please retry.' });
    return resume(deps, record, fingerprint);
  }
  if (typeof outcome === 'object') {
    const index = input.contract.images.indexOf(outcome.upload);
    throw invalid({
      [index >= 0 ? `images.${index}` : 'file.upload']:
        index >= 0
          ? 'market.create_product.errors.image_upload'
          : 'market.create_product.errors.required',
    });
  }
  await safePublish(deps, input.userId, progressOf(item));
  return drive(deps, item.id);
}

/**
 * DELETE token/create/{itemId}: abandons a creation that is not done — copies, history, header and
 * idempotency record deleted, the limits and the uploads released. 404 for another user's item or
 * an unknown one, 409 once done.
 */
export async function abandonCreation(
  deps: Pick<CreateItemDeps, 'repo'>,
  input: { userId: string; itemId: string },
): Promise<{ item_id: string; abandoned: true }> {
  const item = await deps.repo.getItem(input.itemId);
  if (item === undefined || item.creator_id !== input.userId) throw itemNotFound();
  if (item.status === 'done' || !(await deps.repo.abandon(item))) {
    throw new DomainError('market.create_product.errors.done', {
      message: 'This item is already created.',
    });
  }
  return { item_id: item.id, abandoned: true };
}
