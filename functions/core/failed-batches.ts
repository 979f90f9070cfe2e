import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  type S3Client,
} from '@aws-sdk/client-s3';
import type { DynamoDBRecord } from 'aws-lambda';
import * as z from 'zod';
import { s3Client } from './clients';
import { readEnv, type HandlerEnv } from './env';

/**
 * The stream batches Lambda gave up on. A stream trigger's event source mapping sends each batch
 * it skips (retries exhausted, or its records past the maximum age) to an Amazon S3 on-failure
 * destination, the `failed` bucket: one JSON object per batch, the invocation record. Unlike an SQS
 * or SNS destination, which only describes where the records were in the stream (gone after the
 * stream's 24 hours), the S3 record carries the whole event the function was given (`payload`), so
 * the batch can be handed to the function again at any time (`replayFailedBatches`). The twin's
 * stream poller writes the same objects to its own S3 (infra/local/streams.ts).
 *
 * Object keys: `aws/lambda/<mapping UUID>/<shard id>/YYYY/MM/DD/YYYY-MM-DDTHH.MM.SS-<UUID>`.
 */
export const FAILED_BATCHES_PREFIX = 'aws/lambda/';

/** The invocation record as Lambda writes it for a DynamoDB stream batch (the fields we read). */
export const failedBatchSchema = z.object({
  requestContext: z.object({
    requestId: z.string().optional(),
    /** The function that was given the batch (`arn:…:function:<name>`, maybe with a qualifier). */
    functionArn: z.string(),
    /** `RetryAttemptsExhausted`, `RecordAgeExceeded`, … */
    condition: z.string(),
    approximateInvokeCount: z.number().optional(),
  }),
  responseContext: z.record(z.string(), z.unknown()).optional(),
  version: z.string(),
  timestamp: z.string(),
  DDBStreamBatchInfo: z.object({
    shardId: z.string(),
    startSequenceNumber: z.string(),
    endSequenceNumber: z.string(),
    approximateArrivalOfFirstRecord: z.string().optional(),
    approximateArrivalOfLastRecord: z.string().optional(),
    batchSize: z.number(),
    streamArn: z.string(),
  }),
  /**
   * The event the function was given, `{"Records": [...]}`: a JSON string as Lambda writes it (an
   * object is read as well).
   */
  payload: z.union([z.string(), z.record(z.string(), z.unknown())]),
});
export type FailedBatch = z.infer<typeof failedBatchSchema>;

const eventSchema = z.object({ Records: z.array(z.record(z.string(), z.unknown())) });

/** The function name an ARN names: `arn:aws:lambda:<region>:<account>:function:<name>[:<qualifier>]`. */
export function functionNameOf(arn: string): string | undefined {
  const match = /^arn:[^:]+:lambda:[^:]*:[^:]*:function:([^:]+)(?::[^:]+)?$/.exec(arn);
  return match?.[1];
}

/** The records of a failed batch's event, or an error saying why they cannot be read. */
export function recordsOf(batch: FailedBatch): DynamoDBRecord[] {
  const raw: unknown =
    typeof batch.payload === 'string' ? JSON.parse(batch.payload) : batch.payload;
  return eventSchema.parse(raw).Records as DynamoDBRecord[];
}

/** What a replay did with the kept batches of one function. */
export interface ReplayReport {
  /** Handed to the function again, which took every record: deleted. */
  replayed: number;
  /** Handed again, and some records failed again (or the replay threw): kept for the next tick. */
  kept: number;
  /** Objects that cannot be read as a failed batch: kept, and logged, for an operator. */
  unreadable: number;
  /** Batches of other functions: left alone. */
  others: number;
}

export interface FailedBatchStore {
  /**
   * Up to `limit` keys of kept batches, in key order (S3 lists keys so): by mapping and shard,
   * then by the time each was kept.
   */
  keys(limit: number): Promise<string[]>;
  /** The object's text, or undefined when it is gone (another replay deleted it). */
  read(key: string): Promise<string | undefined>;
  remove(key: string): Promise<void>;
}

/** The `failed` bucket (FAILED_BATCHES_BUCKET) through S3. */
export function failedBatchStore(
  env: HandlerEnv = readEnv(),
  client: S3Client = s3Client(env),
): FailedBatchStore {
  const Bucket = env.failedBatchesBucket;
  return {
    async keys(limit) {
      const keys: string[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({
            Bucket,
            Prefix: FAILED_BATCHES_PREFIX,
            MaxKeys: Math.min(1_000, limit - keys.length),
            ...(ContinuationToken === undefined ? {} : { ContinuationToken }),
          }),
        );
        for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
        ContinuationToken = page.IsTruncated === true ? page.NextContinuationToken : undefined;
      } while (ContinuationToken !== undefined && keys.length < limit);
      return keys;
    },
    async read(key) {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        return await answer.Body?.transformToString('utf8');
      } catch (error) {
        if (error instanceof NoSuchKey) return undefined;
        throw error;
      }
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
  };
}

/**
 * Hands the batches kept for one function back to it, in key order, at most `limit` a run: each
 * batch whose records all succeed this time is deleted; one whose records fail again (or whose
 * replay throws) stays for the next run. `replay` must be idempotent: a batch may have been partly
 * carried out before it was given up, and a run may stop between a replay and its delete.
 */
export async function replayFailedBatches(options: {
  store: FailedBatchStore;
  /** The function whose batches are replayed (the others' are left alone). */
  functionName: string;
  /** Carries out a batch's records; answers whether every record was carried out. */
  replay: (records: DynamoDBRecord[], batch: FailedBatch) => Promise<boolean>;
  limit: number;
  log: { error(message: string, fields: Record<string, unknown>): void };
}): Promise<ReplayReport> {
  const report: ReplayReport = { replayed: 0, kept: 0, unreadable: 0, others: 0 };
  for (const key of await options.store.keys(options.limit)) {
    const text = await options.store.read(key);
    if (text === undefined) continue;
    let batch: FailedBatch;
    let records: DynamoDBRecord[];
    try {
      batch = failedBatchSchema.parse(JSON.parse(text));
      records = recordsOf(batch);
    } catch (error) {
      report.unreadable += 1;
      options.log.error('a kept stream batch cannot be read', { key, error: error as Error });
      continue;
    }
    if (functionNameOf(batch.requestContext.functionArn) !== options.functionName) {
      report.others += 1;
      continue;
    }
    let done = false;
    try {
      done = await options.replay(records, batch);
    } catch (error) {
      options.log.error('a kept stream batch failed again', { key, error: error as Error });
    }
    if (!done) {
      report.kept += 1;
      continue;
    }
    await options.store.remove(key);
    report.replayed += 1;
  }
  return report;
}
