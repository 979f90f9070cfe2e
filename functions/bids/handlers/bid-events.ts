import type {
  Context,
  DynamoDBBatchResponse,
  DynamoDBStreamEvent,
  ScheduledEvent,
} from 'aws-lambda';
import {
  failedBatchStore,
  replayFailedBatches,
  type ReplayReport,
} from '../../core/failed-batches';
import { logger } from '../../core/logger';
import { bidsDeps } from '../bids.deps';
import { changesOf } from '../bids.repo';
import {
  followNoteSchema,
  followUpOf,
  performFollowUps,
  type FollowUp,
  type FollowUpMode,
} from '../follow-up';
import type { BidsDeps } from '../ports';

/** Kept batches handed over again per scheduled run, at most (each is one GetObject). */
const REPLAY_LIMIT = 100;

/**
 * Stream trigger `bidEvents` (functions/routes.ts `streamTriggers`): carries out the accepted bids
 * and cancellations of a batch of lot writes. First what the lot's note keeps for the record (the
 * log lines; the entries of bidders whose bid wrote the lot alone), idempotent, so a failure there
 * retries the whole batch; then what follows (the watchers, the bidder, the outbid bidders and the
 * seller told). Answers the records to deliver again (ReportBatchItemFailures: the retry starts at
 * the first of them); a follow-up that does not parse is logged and passed over, so it never holds
 * up the records behind it.
 *
 * A batch Lambda gives up on (its retries spent, or its records an hour old) is kept, records and
 * all, in the failed-batches bucket. The same function, on its schedule (`bidEventsReplay`, a
 * scheduled event instead of a stream batch), hands its own kept batches to itself again and
 * deletes each once every record is carried out; what follows is then what is kept for good, and
 * for lots still open only (see `carryOut`).
 */
export const handler = async (
  event: DynamoDBStreamEvent | ScheduledEvent,
  context: Pick<Context, 'functionName'>,
): Promise<DynamoDBBatchResponse | ReplayReport> => {
  const deps = bidsDeps();
  if (!('Records' in event)) {
    const report = await replayFailedBatches({
      store: failedBatchStore(),
      functionName: context.functionName,
      replay: async (records) =>
        (await carryOut(deps, { Records: records }, 'replay', new Date())).length === 0,
      limit: REPLAY_LIMIT,
      log: logger,
    });
    if (report.replayed + report.kept + report.unreadable > 0) {
      logger.info('kept bid event batches handed over again', { ...report });
    }
    return report;
  }
  const failed = await carryOut(deps, event, 'live', new Date());
  return { batchItemFailures: failed.map((sequence) => ({ itemIdentifier: sequence })) };
};

/**
 * Carries out a batch; answers the sequence numbers of the records to deliver again. A replayed
 * batch's lines are written as any (idempotent), and what follows them only for lots still open:
 * once a lot is closed its bidders and its seller have been told how it ended, and an outbid
 * notice or the counters of a bid from before would come after that.
 */
async function carryOut(
  deps: BidsDeps,
  event: DynamoDBStreamEvent,
  mode: FollowUpMode,
  now: Date,
): Promise<string[]> {
  const changes = changesOf(event);
  await deps.repo.applyChanges(changes);
  const open =
    mode === 'live'
      ? undefined
      : new Set(
          (await deps.repo.getLots(changes.map(({ lot }) => lot.offering_id)))
            .filter((lot) => lot.phase !== 'closed')
            .map((lot) => lot.offering_id),
        );
  const lines: { sequence: string; input: FollowUp }[] = [];
  for (const { sequence, note, lot } of changes) {
    if (open !== undefined && !open.has(lot.offering_id)) continue;
    const parsed = followNoteSchema.safeParse(note.line.follow);
    if (parsed.success) lines.push({ sequence, input: followUpOf(lot, note.line, parsed.data) });
    else
      logger.error('a bid change carries no valid follow-up', {
        sequence,
        issues: parsed.error.issues,
      });
  }
  const failed = await performFollowUps(
    deps,
    lines.map((line) => line.input),
    now,
    mode,
  );
  return failed.map((position) => (lines[position] as { sequence: string }).sequence);
}
