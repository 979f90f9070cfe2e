import type {
  Context,
  DynamoDBBatchResponse,
  DynamoDBStreamEvent,
  ScheduledEvent,
} from 'aws-lambda';
import { failedBatchStore, replayFailedBatches } from '../../core/failed-batches';
import { logger } from '../../core/logger';
import { paymentsDeps } from '../payments.deps';
import { handleKeptRecords, sweepEvents } from '../webhook';

/** Kept batches and pending events handed over again per scheduled run, at most. */
const REPLAY_LIMIT = 100;

/**
 * Stream trigger `stripeEvents` (functions/routes.ts `streamTriggers`): the Stripe events the
 * webhook kept, handled off the request path (payments/webhook.ts handleEvent); answers the record
 * to deliver again. On its schedule (`stripeEventsReplay`, a scheduled event instead of a batch)
 * the same function hands its kept failed batches to itself again and sweeps the events still not
 * handled a few minutes after they came; an event that fails again fails the run (the job's
 * alarm) and stays pending for the next.
 */
export const handler = async (
  event: DynamoDBStreamEvent | ScheduledEvent,
  context: Pick<Context, 'functionName' | 'getRemainingTimeInMillis'>,
): Promise<DynamoDBBatchResponse | Record<string, unknown>> => {
  const deps = paymentsDeps();
  if (!('Records' in event)) {
    const now = new Date();
    const report = await replayFailedBatches({
      store: failedBatchStore(),
      functionName: context.functionName,
      replay: async (records) => (await handleKeptRecords(deps, records, now)).length === 0,
      limit: REPLAY_LIMIT,
      log: logger,
    });
    const swept = await sweepEvents(deps, now, {
      limit: REPLAY_LIMIT,
      remainingMs: () => context.getRemainingTimeInMillis(),
    });
    if (swept.handled.length + swept.failed.length + report.replayed + report.kept > 0) {
      logger.info('kept Stripe events handed over again', {
        ...report,
        handled: swept.handled.length,
        failed: swept.failed.length,
      });
    }
    if (swept.failed.length > 0) {
      throw new Error(
        `${swept.failed.length} Stripe event(s) failed again: ${swept.failed.join(', ')}`,
      );
    }
    return { ...report, handled: swept.handled.length };
  }
  const failed = await handleKeptRecords(deps, event.Records, new Date());
  return { batchItemFailures: failed.map((sequence) => ({ itemIdentifier: sequence })) };
};
