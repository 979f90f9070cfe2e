import { PutItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { StreamTrigger } from '../../functions/routes';
import { dynamoClient, ensureTable } from './dynamodb';
import { startStreams, type Streams } from './streams';
import { twin } from './test/twin-context';
import type { LambdaHandler } from './workflows/invoke';

/**
 * The twin's event source mappings on DynamoDB Local's stream (streams.ts), on a table of their
 * own: what a trigger gets (filtered, in order, in batches, shaped as Lambda delivers), what a
 * failure does (the retry from the first failed record; a batch given up after its retries), and
 * a restart (the checkpoint file: nothing handled is delivered again, nothing new is missed).
 */
const context = twin();
const client: DynamoDBClient = dynamoClient(context.urls.dynamodb);
const dir = mkdtempSync(path.join(os.tmpdir(), 'market-streams-'));
let tableName: string;
let running: Streams[] = [];
afterAll(async () => {
  client.destroy();
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
  handler: (event: DynamoDBStreamEvent) => unknown,
  options: { checkpointFile?: string; log?: string[]; pollMs?: number; batchSize?: number } = {},
) {
  const streams = await startStreams({
    endpoint: context.urls.dynamodb,
    tableName,
    triggers: { lines: { ...TRIGGER, batchSize: options.batchSize ?? TRIGGER.batchSize } },
    pollMs: options.pollMs ?? 20,
    retryBaseMs: 10,
    loadHandler: async () => handler as unknown as LambdaHandler,
    log: (line) => options.log?.push(line),
    ...(options.checkpointFile === undefined ? {} : { checkpointFile: options.checkpointFile }),
  });
  running.push(streams);
  return streams;
}

const sks = (records: DynamoDBRecord[]) => records.map((record) => record.dynamodb?.Keys?.sk?.S);

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
});
