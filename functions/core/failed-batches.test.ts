import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import {
  failedBatchSchema,
  functionNameOf,
  recordsOf,
  replayFailedBatches,
  type FailedBatchStore,
} from './failed-batches';

/**
 * The batches Lambda gave up on, kept in S3 with their records (core/failed-batches.ts): reading
 * Lambda's invocation record, and handing each function its own batches again.
 */
const ARN = 'arn:aws:lambda:eu-west-1:123456789012:function:market-prod-bid-events';

function record(sequence: string): DynamoDBRecord {
  return {
    eventName: 'MODIFY',
    dynamodb: { SequenceNumber: sequence, Keys: { pk: { S: `OFFERING#${sequence}` } } },
  };
}

/** An invocation record as Lambda writes it to an S3 on-failure destination. */
function kept(sequences: string[], functionArn = ARN, payload?: unknown): string {
  return JSON.stringify({
    requestContext: {
      requestId: 'c9b8fa9f-5a7f-4e5a-9d8e-0d6b1f1e2a3b',
      functionArn,
      condition: 'RetryAttemptsExhausted',
      approximateInvokeCount: 11,
    },
    responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
    version: '1.0',
    timestamp: '2026-11-25T10:00:00.000Z',
    DDBStreamBatchInfo: {
      shardId: 'shardId-00000001700000000000-aaaaaaaa',
      startSequenceNumber: sequences[0],
      endSequenceNumber: sequences.at(-1),
      approximateArrivalOfFirstRecord: '2026-11-25T09:00:00Z',
      approximateArrivalOfLastRecord: '2026-11-25T09:00:01Z',
      batchSize: sequences.length,
      streamArn:
        'arn:aws:dynamodb:eu-west-1:123456789012:table/market-prod/stream/2026-01-01T00:00:00.000',
    },
    payload: payload ?? JSON.stringify({ Records: sequences.map(record) }),
  });
}

function memoryStore(objects: Record<string, string>) {
  const removed: string[] = [];
  const store: FailedBatchStore = {
    keys: async (limit) => Object.keys(objects).sort().slice(0, limit),
    read: async (key) => objects[key],
    remove: async (key) => {
      removed.push(key);
      Reflect.deleteProperty(objects, key);
    },
  };
  return { store, removed };
}

const silent = { error: () => undefined };

describe('a kept batch as Lambda writes it', () => {
  it('names the function it failed in, with or without a qualifier', () => {
    expect(functionNameOf(ARN)).toBe('market-prod-bid-events');
    expect(functionNameOf(`${ARN}:$LATEST`)).toBe('market-prod-bid-events');
    expect(functionNameOf('arn:aws:sqs:eu-west-1:123456789012:market-prod-bid-events')).toBe(
      undefined,
    );
  });

  it('gives back the records of its payload, a JSON string or an object', () => {
    const asString = failedBatchSchema.parse(JSON.parse(kept(['101', '102'])));
    expect(recordsOf(asString).map((r) => r.dynamodb?.SequenceNumber)).toEqual(['101', '102']);
    const asObject = failedBatchSchema.parse(
      JSON.parse(kept(['103'], ARN, { Records: [record('103')] })),
    );
    expect(recordsOf(asObject).map((r) => r.dynamodb?.SequenceNumber)).toEqual(['103']);
  });

  it('refuses a payload that is not a batch of records', () => {
    const batch = failedBatchSchema.parse(JSON.parse(kept(['1'], ARN, '{"detail":{}}')));
    expect(() => recordsOf(batch)).toThrow();
  });
});

describe("handing a function's kept batches to it again", () => {
  it('deletes the batches it carries out, keeps those that fail again, leaves the others', async () => {
    const { store, removed } = memoryStore({
      'aws/lambda/m/s/2026/11/25/a': kept(['1', '2']),
      'aws/lambda/m/s/2026/11/25/b': kept(['3']),
      'aws/lambda/m/s/2026/11/25/c': kept(['4']),
      'aws/lambda/other/s/2026/11/25/d': kept(['5'], ARN.replace('bid-events', 'other')),
      'aws/lambda/m/s/2026/11/25/e': '{"not":"a batch"}',
    });
    const given: string[][] = [];
    const report = await replayFailedBatches({
      store,
      functionName: 'market-prod-bid-events',
      replay: async (records) => {
        const sequences = records.map((r) => r.dynamodb?.SequenceNumber as string);
        given.push(sequences);
        if (sequences.includes('3')) return false;
        if (sequences.includes('4')) throw new Error('throttled');
        return true;
      },
      limit: 100,
      log: silent,
    });
    expect(given).toEqual([['1', '2'], ['3'], ['4']]);
    expect(removed).toEqual(['aws/lambda/m/s/2026/11/25/a']);
    expect(report).toEqual({ replayed: 1, kept: 2, unreadable: 1, others: 1 });
  });

  it('takes at most its limit a run, oldest first, and passes over a batch deleted meanwhile', async () => {
    const objects: Record<string, string> = {
      'aws/lambda/m/s/2026/11/25/a': kept(['1']),
      'aws/lambda/m/s/2026/11/25/b': kept(['2']),
      'aws/lambda/m/s/2026/11/25/c': kept(['3']),
    };
    const { store } = memoryStore(objects);
    const given: string[] = [];
    const report = await replayFailedBatches({
      store: {
        ...store,
        // Another run deleted b between the listing and the read.
        read: async (key) => (key.endsWith('/b') ? undefined : store.read(key)),
      },
      functionName: 'market-prod-bid-events',
      replay: async (records) => {
        given.push(records[0]?.dynamodb?.SequenceNumber as string);
        return true;
      },
      limit: 2,
      log: silent,
    });
    expect(given).toEqual(['1']);
    expect(report.replayed).toBe(1);
    expect(Object.keys(objects)).toEqual([
      'aws/lambda/m/s/2026/11/25/b',
      'aws/lambda/m/s/2026/11/25/c',
    ]);
  });
});
