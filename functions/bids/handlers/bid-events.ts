import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '../../core/logger';
import { bidsDeps } from '../bids.deps';
import { followUpsOf } from '../bids.repo';
import { followUpSchema, performFollowUps, type FollowUp } from '../follow-up';

/**
 * Stream trigger `bidEvents` (functions/routes.ts `streamTriggers`): what follows the accepted
 * bids and cancellations of a batch of new log lines. Answers the lines to deliver again
 * (ReportBatchItemFailures: the retry starts at the first of them); a line whose follow-up does
 * not parse is logged and passed over, so it never holds up the lines behind it.
 */
export const handler = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  const lines: { sequence: string; input: FollowUp }[] = [];
  for (const { sequence, follow } of followUpsOf(event)) {
    const parsed = followUpSchema.safeParse(follow);
    if (parsed.success) lines.push({ sequence, input: parsed.data });
    else
      logger.error('a bid log line carries no valid follow-up', {
        sequence,
        issues: parsed.error.issues,
      });
  }
  const failed = await performFollowUps(
    bidsDeps(),
    lines.map((line) => line.input),
    new Date(),
  );
  return {
    batchItemFailures: failed.map((position) => ({
      itemIdentifier: (lines[position] as { sequence: string }).sequence,
    })),
  };
};
