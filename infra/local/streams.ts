import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  ExpiredIteratorException,
  GetRecordsCommand,
  GetShardIteratorCommand,
  TrimmedDataAccessException,
  type _Record as StreamRecord,
  type AttributeValue as StreamValue,
  type Shard,
} from '@aws-sdk/client-dynamodb-streams';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { withoutSdkLogging } from '../../functions/core/clients';
import { timeoutOf } from '../../functions/core/budgets';
import { FAILED_BATCHES_PREFIX } from '../../functions/core/failed-batches';
import { streamTriggers, type StreamTrigger } from '../../functions/routes';
import { dynamoClient } from './dynamodb';
import { TWIN_CREDENTIALS, TWIN_REGION, type Log } from './support';
import { invokeWithin } from './invocation';
import { handlerResolver, lambdaContext, type HandlerSource } from './workflows/invoke';

/**
 * The twin's Lambda event source mappings on the table's DynamoDB stream: no installable emulator
 * runs Lambda triggers on DynamoDB Local's streams (DynamoDB Local serves the Streams API; it
 * triggers nothing), so this file is ours. Each trigger of `streamTriggers` (functions/routes.ts)
 * polls every shard of the table's stream, in order, as AWS does:
 * - records pass the trigger's filter patterns (Lambda's FilterCriteria grammar: nested fields,
 *   lists of values, `exists`, `prefix`; anything else fails the start loudly); the others are
 *   passed over, as AWS drops them before the function;
 * - up to `batchSize` passing records go to the handler in one event, shaped as Lambda delivers a
 *   DynamoDB stream batch (`Records[]`, DynamoDB JSON images, epoch-second times);
 * - the answer's `batchItemFailures` (ReportBatchItemFailures) keep the checkpoint before the
 *   first failed record and retry from it; a thrown error retries the whole batch. Retries back off
 *   (1 s doubling, at most 30 s); after `maxRetryAttempts` retries, or once the oldest record is
 *   older than `maxRecordAgeSeconds`, the records are skipped and said so on the log. The product
 *   configures an Amazon S3 on-failure destination for its triggers (the FAILED_BATCHES_BUCKET
 *   bucket, functions/core/failed-batches.ts); given `failureDestination`, the twin writes the
 *   object Lambda writes there: the invocation record, with the skipped records as the event the
 *   handler was given (`payload`), under `aws/lambda/<mapping UUID>/<shard id>/YYYY/MM/DD/…`. A
 *   write that fails is logged and the records are skipped all the same, as in AWS;
 * - a shard is read from its checkpoint (after the last record handled), else from the oldest
 *   record (TRIM_HORIZON); a child shard only once its parent is read to its end.
 * The checkpoints live in memory, and in a JSON file for `npm start`, so a restart delivers what
 * was not handled yet (at least once, as AWS: handlers are idempotent). AWS polls a shard at a
 * base rate of 4 times a second, and resumes that polling once a batch is handled; so does the twin
 * (`pollMs`, 250 ms by default, from one read's start to the next): a busy shard's batch holds what
 * was written meanwhile (up to `batchSize`). A read that filled its page (a backlog: records are
 * waiting) is followed at once.
 */

/** The most records one GetRecords call returns (DynamoDB Streams' limit). */
const GET_RECORDS_LIMIT = 1_000;

export interface StreamsOptions extends HandlerSource {
  /** DynamoDB Local's endpoint and the table whose stream is read. */
  endpoint: string;
  tableName: string;
  /** Default: `streamTriggers` of functions/routes.ts. */
  triggers?: Readonly<Record<string, StreamTrigger>>;
  /** A JSON file keeping the checkpoints across restarts (npm start); memory only if omitted. */
  checkpointFile?: string;
  /** How often a shard is read (default 250 ms between the starts of two reads, as AWS). */
  pollMs?: number;
  /** The first retry's wait; doubles, at most 30 s (default 1 s). */
  retryBaseMs?: number;
  /**
   * The on-failure destination: each skipped batch is written to this bucket as Lambda's S3
   * destination writes it (`failedBatchObject`). None if omitted (the skip is only logged).
   */
  failureDestination?: { s3: S3Client; bucket: string };
  log?: Log;
  now?: () => number;
}

/** What runs on which records: the parity test compares it with CDK's event source mappings. */
export interface StreamMapping {
  handler: string;
  filters: readonly Record<string, unknown>[];
  batchSize: number;
  maxRetryAttempts: number;
  maxRecordAgeSeconds: number;
  /** The function's budget (seconds): a batch still running then fails, and is retried. */
  timeoutSeconds: number;
}

export interface Streams {
  mappings: Record<string, StreamMapping>;
  /**
   * Resolves once every trigger has read every shard up to the records written before this call,
   * and handed them to its handler (a failing batch waiting for its retry counts as not handled).
   */
  settled(): Promise<void>;
  stop(): Promise<void>;
}

const MAX_RETRY_WAIT_MS = 30_000;
/** How often the shard list is read again (new shards, closed ones). */
const DESCRIBE_EVERY_MS = 5_000;

type Checkpoints = Record<string, Record<string, string>>;

/** What one delivery of a batch came to. */
interface Delivery {
  /** The first record to deliver again; none when the whole batch was handled. */
  failedFrom?: string;
  error?: string;
  /** The handler threw (Lambda's `Unhandled` function error), rather than reporting failures. */
  threw?: boolean;
  /** The invocation's request ID and function ARN (its Lambda context). */
  requestId: string;
  functionArn: string;
}

export async function startStreams(options: StreamsOptions): Promise<Streams> {
  const definitions = options.triggers ?? streamTriggers;
  const handlers = handlerResolver(options);
  const log = options.log ?? ((line: string) => console.error(line));
  const now = options.now ?? Date.now;
  const pollMs = options.pollMs ?? 250;
  const retryBaseMs = options.retryBaseMs ?? 1_000;

  const mappings: Record<string, StreamMapping> = {};
  for (const [name, trigger] of Object.entries(definitions)) {
    for (const pattern of trigger.filters) assertSupportedPattern(name, pattern);
    handlers.check(trigger.handler);
    mappings[name] = {
      handler: trigger.handler,
      filters: trigger.filters,
      batchSize: trigger.batchSize,
      maxRetryAttempts: trigger.maxRetryAttempts,
      maxRecordAgeSeconds: trigger.maxRecordAgeSeconds,
      timeoutSeconds: timeoutOf(trigger),
    };
  }

  const table = dynamoClient(options.endpoint);
  const described = await table.send(new DescribeTableCommand({ TableName: options.tableName }));
  table.destroy();
  const streamArn = described.Table?.LatestStreamArn;
  if (described.Table?.StreamSpecification?.StreamEnabled !== true || streamArn === undefined) {
    throw new Error(`the table ${options.tableName} has no stream (ensureTable enables it)`);
  }
  // Lambda's poller is AWS's own work, not the product's: the emulator spares the machine the
  // SDK's log masking of every GetRecords page (up to 1,000 full images), which the product's
  // handlers share the CPU with here.
  const client = withoutSdkLogging(
    new DynamoDBStreamsClient({
      endpoint: options.endpoint,
      region: TWIN_REGION,
      credentials: TWIN_CREDENTIALS,
      maxAttempts: 3,
    }),
  );

  const checkpoints: Checkpoints = readCheckpoints(options.checkpointFile);
  const saveCheckpoint = (trigger: string, shardId: string, sequenceNumber: string) => {
    const shards = (checkpoints[trigger] ??= {});
    shards[shardId] = sequenceNumber;
    if (options.checkpointFile !== undefined) writeCheckpoints(options.checkpointFile, checkpoints);
  };

  let stopped = false;
  const wakers = new Set<() => void>();
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      wakers.add(wake);
    });

  // settled(): each loop counts its passes; a pass that began after the call and found every
  // shard read to its end (nothing new, nothing waiting for a retry) settles it.
  const quietPass = new Map<string, number>();
  let pass = 0;
  const waiters: { after: number; resolve: () => void }[] = [];
  const checkWaiters = () => {
    for (const waiter of [...waiters]) {
      const done = Object.keys(mappings).every(
        (name) => (quietPass.get(name) ?? -1) >= waiter.after,
      );
      if (done) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };

  const loop = async (name: string, mapping: StreamMapping) => {
    let shards: Shard[] = [];
    let describedAt = -Infinity;
    const finished = new Set<string>();
    const iterators = new Map<string, string>();
    const attempts = new Map<string, number>();

    const iteratorOf = async (shardId: string): Promise<string | undefined> => {
      const known = iterators.get(shardId);
      if (known !== undefined) return known;
      const after = checkpoints[name]?.[shardId];
      const answer = await client.send(
        new GetShardIteratorCommand({
          StreamArn: streamArn,
          ShardId: shardId,
          ...(after === undefined
            ? { ShardIteratorType: 'TRIM_HORIZON' }
            : { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: after }),
        }),
      );
      return answer.ShardIterator;
    };

    /**
     * Reads one shard once; answers whether it had records, and whether more are waiting (a full
     * page, or a read to do again: read again at once).
     */
    const readShard = async (shard: Shard): Promise<{ busy: boolean; backlog?: boolean }> => {
      const shardId = shard.ShardId as string;
      // A page as large as DynamoDB Streams gives (1,000 records): the trigger's records are a part
      // of the table's, and a page cut short would read a busy shard again at once.
      const limit = GET_RECORDS_LIMIT;
      let iterator: string | undefined;
      let answer;
      try {
        iterator = await iteratorOf(shardId);
        if (iterator === undefined) {
          finished.add(shardId);
          return { busy: false };
        }
        answer = await client.send(
          new GetRecordsCommand({ ShardIterator: iterator, Limit: limit }),
        );
      } catch (error) {
        iterators.delete(shardId);
        if (error instanceof ExpiredIteratorException) return { busy: true, backlog: true };
        if (error instanceof TrimmedDataAccessException) {
          log(
            `[streams] ${name}: ${shardId} was trimmed past the checkpoint; reading from its oldest record`,
          );
          delete checkpoints[name]?.[shardId];
          return { busy: true, backlog: true };
        }
        throw error;
      }
      const records = answer.Records ?? [];
      if (records.length === 0) {
        if (answer.NextShardIterator === undefined) finished.add(shardId);
        else iterators.set(shardId, answer.NextShardIterator);
        return { busy: false };
      }
      // The batch: the records from the checkpoint on that pass the filters, at most batchSize.
      let handled = 0;
      while (handled < records.length && !stopped) {
        const batch: { record: DynamoDBRecord; at: number }[] = [];
        let lastIndex = handled - 1;
        for (let index = handled; index < records.length; index += 1) {
          const record = lambdaRecord(records[index] as StreamRecord, streamArn);
          lastIndex = index;
          if (mapping.filters.length === 0 || mapping.filters.some((p) => matches(p, record))) {
            batch.push({
              record,
              at: records[index]?.dynamodb?.ApproximateCreationDateTime?.getTime() ?? now(),
            });
            if (batch.length === mapping.batchSize) break;
          }
        }
        const lastOfBatch = records[lastIndex]?.dynamodb?.SequenceNumber as string;
        if (batch.length === 0) {
          saveCheckpoint(name, shardId, lastOfBatch);
          handled = lastIndex + 1;
          continue;
        }
        const outcome = await deliver(
          name,
          mapping,
          batch.map((entry) => entry.record),
        );
        if (outcome.failedFrom === undefined) {
          attempts.delete(shardId);
          saveCheckpoint(name, shardId, lastOfBatch);
          handled = lastIndex + 1;
          continue;
        }
        // Keep the checkpoint before the first failed record and read from it again.
        const failedIndex = records.findIndex(
          (record) => record.dynamodb?.SequenceNumber === outcome.failedFrom,
        );
        if (failedIndex > handled) {
          saveCheckpoint(
            name,
            shardId,
            records[failedIndex - 1]?.dynamodb?.SequenceNumber as string,
          );
        }
        const tries = (attempts.get(shardId) ?? 0) + 1;
        const oldest =
          batch.find((entry) => entry.record.dynamodb?.SequenceNumber === outcome.failedFrom)?.at ??
          now();
        const tooOld = now() - oldest > mapping.maxRecordAgeSeconds * 1000;
        if (tries > mapping.maxRetryAttempts || tooOld) {
          const failedAt = batch.findIndex(
            (entry) => entry.record.dynamodb?.SequenceNumber === outcome.failedFrom,
          );
          const kept = await keepSkipped({
            name,
            shardId,
            outcome,
            skipped: batch.slice(Math.max(0, failedAt)),
            condition: tooOld ? 'RecordAgeExceeded' : 'RetryAttemptsExhausted',
            invocations: tries,
          });
          log(
            `[streams] ${name}: records ${outcome.failedFrom} to ${lastOfBatch} of ${shardId} ` +
              `skipped after ${tries - 1} retries${tooOld ? ' (older than the maximum age)' : ''}: ${outcome.error}` +
              (kept === undefined ? '' : ` (the batch is kept in s3://${kept})`),
          );
          attempts.delete(shardId);
          saveCheckpoint(name, shardId, lastOfBatch);
          handled = lastIndex + 1;
          continue;
        }
        attempts.set(shardId, tries);
        iterators.delete(shardId);
        log(
          `[streams] ${name}: batch of ${shardId} failed (${outcome.error}); retry ${tries} of ${mapping.maxRetryAttempts}`,
        );
        await sleep(Math.min(MAX_RETRY_WAIT_MS, retryBaseMs * 2 ** (tries - 1)));
        return { busy: true };
      }
      if (answer.NextShardIterator === undefined) finished.add(shardId);
      else iterators.set(shardId, answer.NextShardIterator);
      return { busy: true, backlog: records.length >= limit };
    };

    while (!stopped) {
      const started = pass;
      const readAt = now();
      pass += 1;
      let busy = false;
      let backlog = false;
      try {
        if (now() - describedAt > DESCRIBE_EVERY_MS) {
          shards = await describeShards(client, streamArn);
          describedAt = now();
        }
        // Parents before children: a shard is read once its parent is read to its end (or gone).
        const known = new Set(shards.map((shard) => shard.ShardId));
        for (const shard of shards) {
          if (stopped) break;
          const shardId = shard.ShardId as string;
          if (finished.has(shardId)) continue;
          const parent = shard.ParentShardId;
          if (parent !== undefined && known.has(parent) && !finished.has(parent)) {
            busy = true;
            continue;
          }
          const read = await readShard(shard);
          if (read.busy) busy = true;
          if (read.backlog === true) backlog = true;
        }
      } catch (error) {
        log(`[streams] ${name}: reading the stream failed: ${(error as Error).message}`);
        await sleep(pollMs * 4);
        continue;
      }
      if (!busy) {
        quietPass.set(name, started);
        checkWaiters();
        await sleep(pollMs);
      } else if (!backlog) {
        // AWS's base rate: the next read of a busy shard a poll period after this one's start.
        await sleep(Math.max(0, pollMs - (now() - readAt)));
      }
    }
  };

  const deliver = async (
    name: string,
    mapping: StreamMapping,
    records: DynamoDBRecord[],
  ): Promise<Delivery> => {
    const event: DynamoDBStreamEvent = { Records: records };
    // Held to the trigger's budget: a batch still running then fails as a thrown error does (the
    // whole batch is delivered again), and its later writes are refused (invocation.ts).
    const context = lambdaContext(name, {
      region: TWIN_REGION,
      timeoutMs: mapping.timeoutSeconds * 1000,
      now,
    });
    const invocation = { requestId: context.awsRequestId, functionArn: context.invokedFunctionArn };
    try {
      const handler = await handlers.load(mapping.handler);
      const answer = (await invokeWithin(
        {
          functionName: name,
          handler: mapping.handler,
          timeoutSeconds: mapping.timeoutSeconds,
          region: TWIN_REGION,
          context: () => context,
        },
        (given) => handler(event as never, given),
      )) as { batchItemFailures?: { itemIdentifier?: string }[] } | undefined;
      const failures = (answer?.batchItemFailures ?? [])
        .map((failure) => failure.itemIdentifier)
        .filter((id): id is string => typeof id === 'string');
      if (failures.length === 0) return invocation;
      // The lowest failed sequence number; an identifier not in the batch fails the whole batch.
      const order = records.map((record) => record.dynamodb?.SequenceNumber);
      const positions = failures.map((id) => order.indexOf(id));
      if (positions.some((position) => position < 0)) {
        return {
          ...invocation,
          failedFrom: order[0],
          error: 'a batch item failure names no record of the batch',
        };
      }
      return {
        ...invocation,
        failedFrom: order[Math.min(...positions)],
        error: `${failures.length} records failed`,
      };
    } catch (error) {
      return {
        ...invocation,
        failedFrom: records[0]?.dynamodb?.SequenceNumber,
        error: error instanceof Error ? error.message : String(error),
        threw: true,
      };
    }
  };

  /**
   * Writes a skipped batch to the on-failure destination, if there is one: answers where
   * (`bucket/key`), or undefined when there is none or the write failed (logged: AWS counts a
   * DestinationDeliveryFailures metric and moves on as well).
   */
  const keepSkipped = async (skip: {
    name: string;
    shardId: string;
    outcome: Delivery;
    skipped: { record: DynamoDBRecord; at: number }[];
    condition: FailureCondition;
    invocations: number;
  }): Promise<string | undefined> => {
    const destination = options.failureDestination;
    if (destination === undefined || skip.skipped.length === 0) return undefined;
    const { key, body } = failedBatchObject({
      functionName: skip.name,
      functionArn: skip.outcome.functionArn,
      requestId: skip.outcome.requestId,
      condition: skip.condition,
      invocations: skip.invocations,
      threw: skip.outcome.threw === true,
      shardId: skip.shardId,
      streamArn,
      records: skip.skipped,
      now: now(),
    });
    try {
      await destination.s3.send(
        new PutObjectCommand({
          Bucket: destination.bucket,
          Key: key,
          Body: body,
          ContentType: 'application/json',
        }),
      );
      return `${destination.bucket}/${key}`;
    } catch (error) {
      log(
        `[streams] ${skip.name}: could not keep the skipped batch in s3://${destination.bucket}/${key}: ` +
          (error instanceof Error ? `${error.name}: ${error.message}` : String(error)),
      );
      return undefined;
    }
  };

  const loops = Object.entries(mappings).map(([name, mapping]) =>
    loop(name, mapping).catch((error: unknown) => {
      log(`[streams] ${name} stopped: ${(error as Error).stack ?? String(error)}`);
    }),
  );

  return {
    mappings,
    settled() {
      if (Object.keys(mappings).length === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        waiters.push({ after: pass, resolve });
        for (const wake of [...wakers]) wake();
      });
    },
    async stop() {
      stopped = true;
      for (const wake of [...wakers]) wake();
      await Promise.allSettled(loops);
      for (const waiter of waiters.splice(0)) waiter.resolve();
      client.destroy();
    },
  };
}

/** Why Lambda gave a batch up (the invocation record's `requestContext.condition`). */
export type FailureCondition = 'RetryAttemptsExhausted' | 'RecordAgeExceeded';

/**
 * The event source mapping's UUID for a trigger: a UUID-shaped name-based hash (version 5's
 * layout), the same for the same trigger name on every start, as a mapping's UUID is in AWS.
 */
export function mappingUuid(triggerName: string): string {
  const hash = createHash('sha1').update(`twin event source mapping ${triggerName}`).digest();
  hash[6] = ((hash[6] as number) & 0x0f) | 0x50;
  hash[8] = ((hash[8] as number) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** An ISO time to the second, as Lambda writes a batch's arrival times (`2025-06-05T18:21:49Z`). */
function isoSeconds(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/**
 * The object Lambda's S3 on-failure destination holds for a skipped DynamoDB stream batch: its key
 * (`aws/lambda/<mapping UUID>/<shard id>/YYYY/MM/DD/YYYY-MM-DDTHH.MM.SS-<UUID>`, UTC) and its
 * body, the invocation record with the whole event (`payload`, a JSON string) the records were
 * given in (functions/core/failed-batches.ts reads it).
 */
export function failedBatchObject(batch: {
  functionName: string;
  functionArn: string;
  requestId: string;
  condition: FailureCondition;
  /** How many times the batch was handed to the function. */
  invocations: number;
  /** The handler threw (rather than answering batch item failures). */
  threw: boolean;
  shardId: string;
  streamArn: string;
  /** The skipped records, as the handler was given them, with their arrival times (ms). */
  records: readonly { record: DynamoDBRecord; at: number }[];
  now: number;
}): { key: string; body: string } {
  const first = batch.records[0];
  const last = batch.records.at(-1);
  if (first === undefined || last === undefined) throw new Error('a failed batch has records');
  const time = new Date(batch.now).toISOString();
  const [year, month, day] = [time.slice(0, 4), time.slice(5, 7), time.slice(8, 10)];
  const clock = time.slice(11, 19).replaceAll(':', '.');
  const key =
    `${FAILED_BATCHES_PREFIX}${mappingUuid(batch.functionName)}/${batch.shardId}/` +
    `${year}/${month}/${day}/${year}-${month}-${day}T${clock}-${randomUUID()}`;
  const event: DynamoDBStreamEvent = { Records: batch.records.map((entry) => entry.record) };
  const record = {
    requestContext: {
      requestId: batch.requestId,
      functionArn: batch.functionArn,
      condition: batch.condition,
      approximateInvokeCount: batch.invocations,
    },
    responseContext: {
      statusCode: 200,
      executedVersion: '$LATEST',
      ...(batch.threw ? { functionError: 'Unhandled' } : {}),
    },
    version: '1.0',
    timestamp: time,
    DDBStreamBatchInfo: {
      shardId: batch.shardId,
      startSequenceNumber: first.record.dynamodb?.SequenceNumber ?? '',
      endSequenceNumber: last.record.dynamodb?.SequenceNumber ?? '',
      approximateArrivalOfFirstRecord: isoSeconds(first.at),
      approximateArrivalOfLastRecord: isoSeconds(last.at),
      batchSize: batch.records.length,
      streamArn: batch.streamArn,
    },
    payload: JSON.stringify(event),
  };
  return { key, body: JSON.stringify(record) };
}

async function describeShards(client: DynamoDBStreamsClient, streamArn: string): Promise<Shard[]> {
  const shards: Shard[] = [];
  let start: string | undefined;
  do {
    const answer = await client.send(
      new DescribeStreamCommand({
        StreamArn: streamArn,
        ...(start ? { ExclusiveStartShardId: start } : {}),
      }),
    );
    shards.push(...(answer.StreamDescription?.Shards ?? []));
    start = answer.StreamDescription?.LastEvaluatedShardId;
  } while (start !== undefined);
  return shards;
}

/** A Streams API record as Lambda hands it to a function (DynamoDB JSON, epoch seconds). */
export function lambdaRecord(record: StreamRecord, streamArn: string): DynamoDBRecord {
  const data = record.dynamodb ?? {};
  const image = (value: Record<string, StreamValue> | undefined) =>
    value === undefined ? undefined : (jsonValue({ M: value }) as { M: Record<string, never> }).M;
  return {
    eventID: record.eventID,
    eventName: record.eventName as DynamoDBRecord['eventName'],
    eventVersion: record.eventVersion ?? '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: record.awsRegion ?? TWIN_REGION,
    eventSourceARN: streamArn,
    dynamodb: {
      ...(data.ApproximateCreationDateTime === undefined
        ? {}
        : {
            ApproximateCreationDateTime: Math.floor(
              data.ApproximateCreationDateTime.getTime() / 1000,
            ),
          }),
      ...(data.Keys === undefined ? {} : { Keys: image(data.Keys) }),
      ...(data.NewImage === undefined ? {} : { NewImage: image(data.NewImage) }),
      ...(data.OldImage === undefined ? {} : { OldImage: image(data.OldImage) }),
      SequenceNumber: data.SequenceNumber,
      SizeBytes: data.SizeBytes,
      StreamViewType: data.StreamViewType as NonNullable<
        DynamoDBRecord['dynamodb']
      >['StreamViewType'],
    },
  };
}

/** An attribute value as JSON (binary as base64, as in a Lambda event). */
function jsonValue(value: StreamValue): unknown {
  if (value.B !== undefined) return { B: Buffer.from(value.B).toString('base64') };
  if (value.BS !== undefined) return { BS: value.BS.map((b) => Buffer.from(b).toString('base64')) };
  if (value.M !== undefined) {
    return { M: Object.fromEntries(Object.entries(value.M).map(([k, v]) => [k, jsonValue(v)])) };
  }
  if (value.L !== undefined) return { L: value.L.map(jsonValue) };
  const { $unknown: _unknown, ...rest } = value as StreamValue & { $unknown?: unknown };
  return rest;
}

// --- Lambda's event filtering (the subset the product uses) -------------------------------------

/** Fails loudly on a filter the twin does not evaluate, as the twin emulates only what is used. */
export function assertSupportedPattern(name: string, pattern: unknown): void {
  if (pattern === null || typeof pattern !== 'object' || Array.isArray(pattern)) {
    throw new Error(`stream trigger ${name}: a filter pattern is an object of fields`);
  }
  for (const value of Object.values(pattern)) {
    if (Array.isArray(value)) {
      for (const rule of value) {
        if (typeof rule === 'string' || typeof rule === 'number' || rule === null) continue;
        const keys = typeof rule === 'object' ? Object.keys(rule as object) : [];
        const known =
          keys.length === 1 &&
          ((keys[0] === 'exists' && typeof (rule as { exists: unknown }).exists === 'boolean') ||
            (keys[0] === 'prefix' && typeof (rule as { prefix: unknown }).prefix === 'string'));
        if (!known) {
          throw new Error(
            `stream trigger ${name}: the filter rule ${JSON.stringify(rule)} is not emulated ` +
              '(the twin evaluates values, exists and prefix)',
          );
        }
      }
    } else {
      assertSupportedPattern(name, value);
    }
  }
}

/** Whether a record passes a filter pattern (every field of the pattern matches). */
export function matches(pattern: Record<string, unknown>, value: unknown): boolean {
  return Object.entries(pattern).every(([field, rule]) => {
    const present =
      value !== null && typeof value === 'object' && Object.hasOwn(value as object, field);
    const actual = present ? (value as Record<string, unknown>)[field] : undefined;
    if (Array.isArray(rule)) {
      return rule.some((alternative: unknown) => {
        if (alternative !== null && typeof alternative === 'object') {
          if ('exists' in alternative)
            return (alternative as { exists: boolean }).exists === present;
          const prefix = (alternative as { prefix: string }).prefix;
          return typeof actual === 'string' && actual.startsWith(prefix);
        }
        return present && actual === alternative;
      });
    }
    return present && matches(rule as Record<string, unknown>, actual);
  });
}

function readCheckpoints(file: string | undefined): Checkpoints {
  if (file === undefined || !existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Checkpoints;
  } catch {
    return {};
  }
}

function writeCheckpoints(file: string, checkpoints: Checkpoints): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.tmp`;
  writeFileSync(temporary, JSON.stringify(checkpoints));
  renameSync(temporary, file);
}
