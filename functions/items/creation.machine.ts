/**
 * Item creation progress (spec 000 §4: checking → uploading-token → done | error), as the server
 * keeps it on the creation and the live channel reports it. A pure transition function: the use
 * case loads the state, applies an event, writes the result conditioned on the version it read.
 *
 * - checking: the contract, the uploads and the creator's limits are being checked (limits are
 *   reserved at the end of this step);
 * - uploading-token: the copies are being written, `written` of `total` so far (idempotent
 *   batches, so a retry continues where the last attempt stopped);
 * - done: the item and its copies are visible;
 * - error: the attempt stopped; nothing of it is visible. A retry starts again at checking (the
 *   reservation and the copies written so far are reused), an abandon releases everything.
 */
export const CREATION_STATUSES = ['checking', 'uploading-token', 'done', 'error'] as const;
export type CreationStatus = (typeof CREATION_STATUSES)[number];

export interface CreationState {
  status: CreationStatus;
  total: number;
  written: number;
  /** The error code of the last failure (an i18n key), while status is error. */
  error: string | null;
}

export type CreationEvent =
  | { type: 'checked' }
  | { type: 'copies_written'; count: number }
  | { type: 'finalized' }
  | { type: 'failed'; code: string }
  | { type: 'retried' };

export class InvalidCreationTransition extends Error {
  constructor(
    readonly from: CreationStatus,
    readonly event: CreationEvent['type'],
  ) {
    super(`No creation transition from '${from}' on '${event}'`);
    this.name = 'InvalidCreationTransition';
  }
}

export function initialCreation(total: number): CreationState {
  return { status: 'checking', total, written: 0, error: null };
}

export function transition(state: CreationState, event: CreationEvent): CreationState {
  const invalid = () => new InvalidCreationTransition(state.status, event.type);
  switch (event.type) {
    case 'checked':
      if (state.status !== 'checking') throw invalid();
      return { ...state, status: 'uploading-token' };
    case 'copies_written': {
      if (state.status !== 'uploading-token') throw invalid();
      if (!Number.isInteger(event.count) || event.count < 0) throw invalid();
      // Replayed batches are counted once: progress never exceeds the total.
      return { ...state, written: Math.min(state.total, state.written + event.count) };
    }
    case 'finalized':
      if (state.status !== 'uploading-token' || state.written !== state.total) throw invalid();
      return { ...state, status: 'done' };
    case 'failed':
      if (state.status === 'done' || state.status === 'error') throw invalid();
      return { ...state, status: 'error', error: event.code };
    case 'retried':
      if (state.status !== 'error') throw invalid();
      return { ...state, status: 'checking', error: null };
  }
}

/** Percent for the progress bar: checking 5, uploading 5 + written/total × 90, done 100. */
export function creationPercent(state: CreationState): number {
  switch (state.status) {
    case 'checking':
      return 5;
    case 'uploading-token':
      return 5 + Math.floor((state.written / Math.max(1, state.total)) * 90);
    case 'done':
      return 100;
    case 'error':
      return 0;
  }
}
