import { GetItemCommand, PutItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  GetObjectCommand,
  ListObjectsV2Command,
  S3Client,
  type GetObjectCommandOutput,
} from '@aws-sdk/client-s3';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readEnv } from '../../functions/core/env';
import {
  FAILED_BATCHES_PREFIX,
  failedBatchSchema,
  failedBatchStore,
  functionNameOf,
  recordsOf,
  replayFailedBatches,
} from '../../functions/core/failed-batches';
import type { StreamTrigger } from '../../functions/routes';
import { dynamoClient, ensureTable } from './dynamodb';
import { startS3, type S3Twin } from './s3';
import { mappingUuid, startStreams, type Streams } from './streams';
import { TWIN_CREDENTIALS, TWIN_REGION } from './support';
import { twin } from './test/twin-context';
import type { LambdaHandler } from './workflows/invoke';

/**
 * The twin's event source mappings on DynamoDB Local's stream (streams.ts), on a table of their
 * own: what a trigger gets (filtered, in order, in batches, shaped as Lambda delivers), what a
 * failure does (the retry from the first failed record; a batch given up after its retries), and
 * a restart (the checkpoint file: nothing handled is delivered again, nothing new is missed), and
 * the on-failure destination (a skipped batch written to S3 as Lambda writes it), on an S3 of
 * their own so the twin's triggers cannot add objects to the bucket they look at.
 */
const context = twin();
const client: DynamoDBClient = dynamoClient(context.urls.dynamodb);
const dir = mkdtempSync(path.join(os.tmpdir(), 'market-streams-'));
const FAILED_BUCKET = 'streams-failed';
let s3: S3Twin;
let s3Client: S3Client;
let tableName: string;
let running: Streams[] = [];
beforeAll(async () => {
  s3 = await startS3({
    directory: path.join(dir, 's3'),
    buckets: [FAILED_BUCKET],
    region: TWIN_REGION,
    credentials: TWIN_CREDENTIALS,
    corsOrigins: [],
  });
  s3Client = new S3Client({
    endpoint: s3.url,
    region: TWIN_REGION,
    credentials: TWIN_CREDENTIALS,
    forcePathStyle: true,
  });
});
afterAll(async () => {
  for (const streams of running.splice(0)) await streams.stop();
  client.destroy();
  s3Client?.destroy();
  await s3?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const TRIGGER: StreamTrigger = {
  handler: 'test/handlers/lines',
  filters: [{ eventName: ['INSERT'], dynamodb: { NewImage: { type: { S: ['line'] } } } }],
  batchSize: 3,
  maxRetryAttempts: 2,
  maxRecordAgeSeconds: 3_600,
};

beforeEach(async () => {
  tableName = `streams-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  await ensureTable(context.urls.dynamodb, tableName);
  for (const streams of running.splice(0)) await streams.stop();
});

async function put(sk: string, type: string) {
  await client.send(
    new PutItemCommand({
      TableName: tableName,
      Item: { pk: { S: 'P' }, sk: { S: sk }, type: { S: type }, n: { N: '1' } },
    }),
  );
}

async function start(
  handler: (
    event: DynamoDBStreamEvent,
    context?: { getRemainingTimeInMillis(): number },
  ) => unknown,
  options: {
    checkpointFile?: string;
    log?: string[];
    pollMs?: number;
    batchSize?: number;
    /** The trigger's budget (default: a trigger's default, 60 s). */
    timeoutSeconds?: number;
    /** The on-failure destination's bucket on this file's S3. */
    failedBucket?: string;
  } = {},
) {
  const streams = await startStreams({
    endpoint: context.urls.dynamodb,
    tableName,
    triggers: {
      lines: {
        ...TRIGGER,
        batchSize: options.batchSize ?? TRIGGER.batchSize,
        ...(options.timeoutSeconds === undefined ? {} : { timeoutSeconds: options.timeoutSeconds }),
      },
    },
    pollMs: options.pollMs ?? 20,
    retryBaseMs: 10,
    loadHandler: async () => handler as unknown as LambdaHandler,
    log: (line) => options.log?.push(line),
    ...(options.checkpointFile === undefined ? {} : { checkpointFile: options.checkpointFile }),
    ...(options.failedBucket === undefined
      ? {}
      : { failureDestination: { s3: s3Client, bucket: options.failedBucket } }),
  });
  running.push(streams);
  return streams;
}

const sks = (records: DynamoDBRecord[]) => records.map((record) => record.dynamodb?.Keys?.sk?.S);

/** The keys of the kept batches in the on-failure bucket. */
async function keptKeys(): Promise<string[]> {
  const page = await s3Client.send(
    new ListObjectsV2Command({ Bucket: FAILED_BUCKET, Prefix: FAILED_BATCHES_PREFIX }),
  );
  return (page.Contents ?? []).map((object) => object.Key as string);
}

async function keptObject(key: string): Promise<{ answer: GetObjectCommandOutput; text: string }> {
  const answer = await s3Client.send(new GetObjectCommand({ Bucket: FAILED_BUCKET, Key: key }));
  return { answer, text: (await answer.Body?.transformToString('utf8')) ?? '' };
}

describe('stream triggers on DynamoDB Local', () => {
  it('hands the filtered new records to the handler in order, in batches, as Lambda shapes them', async () => {
    const batches: DynamoDBRecord[][] = [];
    for (let index = 0; index < 7; index += 1) {
      await put(`L${index}`, index === 2 ? 'other' : 'line');
    }
    const streams = await start((event) => {
      batches.push(event.Records);
      return { batchItemFailures: [] };
    });
    await streams.settled();
    expect(batches.flatMap(sks)).toEqual(['L0', 'L1', 'L3', 'L4', 'L5', 'L6']);
    expect(Math.max(...batches.map((batch) => batch.length))).toBeLessThanOrEqual(3);
    const record = batches[0]?.[0] as DynamoDBRecord;
    expect(record).toMatchObject({
      eventName: 'INSERT',
      eventSource: 'aws:dynamodb',
      eventSourceARN: expect.stringContaining(`table/${tableName}/stream/`),
      dynamodb: {
        Keys: { pk: { S: 'P' }, sk: { S: 'L0' } },
        NewImage: { pk: { S: 'P' }, sk: { S: 'L0' }, type: { S: 'line' }, n: { N: '1' } },
        StreamViewType: 'NEW_IMAGE',
      },
    });
    expect(typeof record.dynamodb?.ApproximateCreationDateTime).toBe('number');
    // A record written later reaches the handler too.
    await put('L7', 'line');
    await streams.settled();
    expect(batches.flatMap(sks).at(-1)).toBe('L7');
  });

  it("reads a busy shard at AWS's base rate: what was written meanwhile comes as one batch", async () => {
    const batches: string[][] = [];
    let later: Promise<void> | undefined;
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const streams = await start(
      async (event) => {
        const keys = sks(event.Records) as string[];
        batches.push(keys);
        if (keys.includes('B0')) {
          // One record written while the batch is handled, three in the 150 ms after it.
          await put('B1', 'line');
          later = (async () => {
            for (const sk of ['B2', 'B3', 'B4']) {
              await pause(50);
              await put(sk, 'line');
            }
          })();
        }
        return { batchItemFailures: [] };
      },
      // A long period, so the three later records land well within it on a busy machine.
      { pollMs: 2_000, batchSize: 100 },
    );
    await put('B0', 'line');
    while (later === undefined) await pause(10);
    await later;
    await streams.settled();
    // The shard is read again a period after the read that found B0, not at once: read at once,
    // B1 would come alone and the others after.
    expect(batches).toEqual([['B0'], ['B1', 'B2', 'B3', 'B4']]);
  });

  it('delivers again from the first failed record of a batch, and not the ones before it', async () => {
    for (let index = 0; index < 3; index += 1) await put(`F${index}`, 'line');
    const seen: string[] = [];
    let failOnce = true;
    const streams = await start((event) => {
      seen.push(...(sks(event.Records) as string[]));
      const second = event.Records.find((record) => record.dynamodb?.Keys?.sk?.S === 'F1');
      if (failOnce && second !== undefined) {
        failOnce = false;
        return { batchItemFailures: [{ itemIdentifier: second.dynamodb?.SequenceNumber }] };
      }
      return { batchItemFailures: [] };
    });
    await streams.settled();
    expect(seen).toEqual(['F0', 'F1', 'F2', 'F1', 'F2']);
  });

  it('gives a batch up after its retries, says so, and goes on with the next records', async () => {
    const log: string[] = [];
    await put('G0', 'line');
    const seen: string[] = [];
    const streams = await start(
      (event) => {
        const keys = sks(event.Records) as string[];
        seen.push(...keys);
        if (keys.includes('G0')) throw new Error('the handler failed');
        return {};
      },
      { log },
    );
    // 1 try + 2 retries, then G0 is skipped.
    await streams.settled();
    await put('G1', 'line');
    await streams.settled();
    expect(seen).toEqual(['G0', 'G0', 'G0', 'G1']);
    expect(log.some((line) => line.includes('skipped after 2 retries: the handler failed'))).toBe(
      true,
    );
  });

  it('fails a batch still running at its budget, refuses its later writes, and delivers it again', async () => {
    const log: string[] = [];
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    await put('T0', 'line');
    const deliveries: { at: number; remaining: number; write?: string }[] = [];
    const streams = await start(
      async (event, context) => {
        const delivery: (typeof deliveries)[number] = {
          at: Date.now(),
          remaining: context?.getRemainingTimeInMillis() ?? 0,
        };
        deliveries.push(delivery);
        // The first delivery outlives the trigger's 1 s budget, then writes what it handled.
        if (deliveries.length === 1) await pause(1_300);
        try {
          await put(`done-${sks(event.Records).join()}-${deliveries.length}`, 'done');
          delivery.write = 'written';
        } catch (error) {
          delivery.write = (error as Error).message;
        }
        return {};
      },
      { log, timeoutSeconds: 1 },
    );
    expect(streams.mappings.lines?.timeoutSeconds).toBe(1);
    await streams.settled();
    expect(deliveries).toHaveLength(2);
    expect(deliveries[0]?.remaining).toBeGreaterThan(900);
    expect(deliveries[0]?.remaining).toBeLessThanOrEqual(1_000);
    expect(deliveries[1]?.write).toBe('written');
    expect(
      log.some((line) =>
        /lines: batch of .* failed \(RequestId: [0-9a-f-]{36} Error: Task timed out after 1\.00 seconds\); retry 1 of 2/.test(
          line,
        ),
      ),
    ).toBe(true);
    // The stopped delivery woke up after its deadline: its write was refused, and never landed.
    while (deliveries[0]?.write === undefined) await pause(20);
    expect(deliveries[0].write).toMatch(/^Lambda timed out: test\/handlers\/lines after 1 s/);
    const late = await client.send(
      new GetItemCommand({ TableName: tableName, Key: { pk: { S: 'P' }, sk: { S: 'done-T0-1' } } }),
    );
    expect(late.Item).toBeUndefined();
  });

  it('resumes after a restart from its checkpoint: nothing handled twice, nothing missed', async () => {
    const checkpointFile = path.join(dir, `${tableName}.json`);
    const first: string[] = [];
    await put('R0', 'line');
    await put('R1', 'line');
    const before = await start((event) => void first.push(...(sks(event.Records) as string[])), {
      checkpointFile,
    });
    await before.settled();
    await before.stop();
    running = running.filter((streams) => streams !== before);
    // Written while no poller runs (the twin stopped).
    await put('R2', 'line');
    const second: string[] = [];
    const after = await start((event) => void second.push(...(sks(event.Records) as string[])), {
      checkpointFile,
    });
    await after.settled();
    expect(first).toEqual(['R0', 'R1']);
    expect(second).toEqual(['R2']);
  });

  it('writes a skipped batch to the S3 on-failure destination as Lambda does, from its first failed record', async () => {
    const log: string[] = [];
    for (let index = 0; index < 3; index += 1) await put(`K${index}`, 'line');
    const before = new Set(await keptKeys());
    const given: DynamoDBRecord[][] = [];
    const startedAt = Date.now();
    const streams = await start(
      (event) => {
        given.push(event.Records);
        // K1 fails on every try: K0 is handled, K1 and K2 are given up after the retries.
        const failing = event.Records.find((record) => record.dynamodb?.Keys?.sk?.S === 'K1');
        return {
          batchItemFailures:
            failing === undefined ? [] : [{ itemIdentifier: failing.dynamodb?.SequenceNumber }],
        };
      },
      { log, failedBucket: FAILED_BUCKET },
    );
    await streams.settled();
    expect(given.map(sks)).toEqual([
      ['K0', 'K1', 'K2'],
      ['K1', 'K2'],
      ['K1', 'K2'],
    ]);

    const keys = (await keptKeys()).filter((key) => !before.has(key));
    expect(keys).toHaveLength(1);
    const key = keys[0] as string;
    // The key names the batch's shard (the object's DDBStreamBatchInfo.shardId, below).
    const shardId = key.split('/')[3];
    expect(key).toMatch(
      new RegExp(
        `^aws/lambda/${mappingUuid('lines')}/shardId-[^/]+/(\\d{4})/(\\d{2})/(\\d{2})/` +
          '\\1-\\2-\\3T\\d{2}\\.\\d{2}\\.\\d{2}-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
      ),
    );
    expect(mappingUuid('lines')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    // The key's time is the skip's (UTC), within this test.
    const [, , , , year, month, day, file] = key.split('/');
    const stamp = Date.parse(
      `${year}-${month}-${day}T${(file as string).slice(11, 19).replaceAll('.', ':')}Z`,
    );
    expect(stamp).toBeGreaterThanOrEqual(Math.floor(startedAt / 1000) * 1000 - 1000);
    expect(stamp).toBeLessThanOrEqual(Date.now());

    const { answer, text } = await keptObject(key);
    expect(answer.ContentType).toBe('application/json');
    const batch = failedBatchSchema.parse(JSON.parse(text));
    expect(functionNameOf(batch.requestContext.functionArn)).toBe('lines');
    expect(batch.requestContext).toMatchObject({
      condition: 'RetryAttemptsExhausted',
      approximateInvokeCount: 3,
    });
    expect(batch.responseContext).toEqual({ statusCode: 200, executedVersion: '$LATEST' });
    expect(batch.version).toBe('1.0');
    expect(typeof batch.payload).toBe('string');
    const records = recordsOf(batch);
    // The records as the handler was given them, from the first failed one to the batch's end.
    expect(records).toEqual(given[2]);
    expect(sks(records)).toEqual(['K1', 'K2']);
    const sequence = records.map((record) => record.dynamodb?.SequenceNumber);
    expect(batch.DDBStreamBatchInfo).toMatchObject({
      shardId,
      startSequenceNumber: sequence[0],
      endSequenceNumber: sequence[1],
      batchSize: 2,
      streamArn: records[0]?.eventSourceARN,
    });
    expect(batch.DDBStreamBatchInfo.approximateArrivalOfFirstRecord).toMatch(
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/,
    );
    expect(batch.DDBStreamBatchInfo.approximateArrivalOfLastRecord).toMatch(
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/,
    );
    expect(
      log.some(
        (line) =>
          line.includes('skipped after 2 retries') && line.includes(`${FAILED_BUCKET}/${key}`),
      ),
    ).toBe(true);

    // Given up, the records are not delivered again: the next record comes alone.
    await put('K3', 'line');
    await streams.settled();
    expect(given.at(-1)?.map((record) => record.dynamodb?.Keys?.sk?.S)).toEqual(['K3']);
    expect((await keptKeys()).filter((other) => !before.has(other))).toEqual([key]);

    // The product's replay finds it as its function's, hands it the records, and deletes it.
    const replayed: DynamoDBRecord[][] = [];
    const report = await replayFailedBatches({
      store: failedBatchStore({ ...readEnv({}), failedBatchesBucket: FAILED_BUCKET }, s3Client),
      functionName: 'lines',
      replay: async (kept) => {
        replayed.push(kept);
        return true;
      },
      limit: 100,
      log: { error: () => undefined },
    });
    expect(report).toMatchObject({ replayed: before.size + 1, unreadable: 0, others: 0 });
    expect(replayed.at(-1)).toEqual(given[2]);
    expect(await keptKeys()).not.toContain(key);
  });

  it("marks a batch whose handler threw with Lambda's Unhandled function error", async () => {
    await put('U0', 'line');
    const before = new Set(await keptKeys());
    const streams = await start(
      (event) => {
        if (sks(event.Records).includes('U0')) throw new Error('the handler failed');
        return {};
      },
      { failedBucket: FAILED_BUCKET },
    );
    await streams.settled();
    const keys = (await keptKeys()).filter((key) => !before.has(key));
    expect(keys).toHaveLength(1);
    const batch = failedBatchSchema.parse(JSON.parse((await keptObject(keys[0] as string)).text));
    expect(batch.responseContext).toEqual({
      statusCode: 200,
      executedVersion: '$LATEST',
      functionError: 'Unhandled',
    });
    expect(sks(recordsOf(batch))).toEqual(['U0']);
    expect(batch.DDBStreamBatchInfo.batchSize).toBe(1);
  });

  it('skips the batch all the same when the on-failure destination cannot be written', async () => {
    const log: string[] = [];
    await put('D0', 'line');
    const seen: string[] = [];
    const streams = await start(
      (event) => {
        const keys = sks(event.Records) as string[];
        seen.push(...keys);
        if (keys.includes('D0')) throw new Error('the handler failed');
        return {};
      },
      { log, failedBucket: 'no-such-bucket' },
    );
    await streams.settled();
    await put('D1', 'line');
    await streams.settled();
    expect(seen).toEqual(['D0', 'D0', 'D0', 'D1']);
    expect(
      log.some((line) =>
        line.includes('lines: could not keep the skipped batch in s3://no-such-bucket/aws/lambda/'),
      ),
    ).toBe(true);
    const skip = log.find((line) => line.includes('skipped after 2 retries'));
    expect(skip).toBeDefined();
    expect(skip).not.toContain('kept in');
  });

  it("keeps the twin's own skipped batches in its market-failed bucket", async () => {
    expect(context.env.FAILED_BATCHES_BUCKET).toBe('market-failed');
    const twinS3 = new S3Client({
      endpoint: context.urls.s3,
      region: TWIN_REGION,
      credentials: TWIN_CREDENTIALS,
      forcePathStyle: true,
    });
    try {
      const page = await twinS3.send(
        new ListObjectsV2Command({ Bucket: 'market-failed', Prefix: FAILED_BATCHES_PREFIX }),
      );
      expect(page.$metadata.httpStatusCode).toBe(200);
    } finally {
      twinS3.destroy();
    }
  });
});
