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
import { carryOut } from '../follow-up';

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
