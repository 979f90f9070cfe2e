import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '../../core/logger';
import { bidsDeps } from '../bids.deps';
import { changesOf } from '../bids.repo';
import { followNoteSchema, followUpOf, performFollowUps, type FollowUp } from '../follow-up';

/**
 * Stream trigger `bidEvents` (functions/routes.ts `streamTriggers`): carries out the accepted bids
 * and cancellations of a batch of lot writes. First what the lot's note keeps for the record (the
 * log lines; the entries of bidders whose bid wrote the lot alone), idempotent, so a failure there
 * retries the whole batch; then what follows (the watchers, the bidder, the outbid bidders and the
 * seller told). Answers the records to deliver again (ReportBatchItemFailures: the retry starts at
 * the first of them); a follow-up that does not parse is logged and passed over, so it never holds
 * up the records behind it.
 */
export const handler = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  const deps = bidsDeps();
  const changes = changesOf(event);
  await deps.repo.applyChanges(changes);
  const lines: { sequence: string; input: FollowUp }[] = [];
  for (const { sequence, note, lot } of changes) {
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
    new Date(),
  );
  return {
    batchItemFailures: failed.map((position) => ({
      itemIdentifier: (lines[position] as { sequence: string }).sequence,
    })),
  };
};
