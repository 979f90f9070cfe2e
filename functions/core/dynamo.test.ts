import { BatchGetCommand, BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import {
  batchBackoffMs,
  batchGetAll,
  batchWriteAll,
  BATCH_RETRIES,
  isTransactionLost,
  type BatchSender,
} from './dynamo';

const TABLE = 'table';
const put = (id: number) => ({ PutRequest: { Item: { pk: `K#${id}`, sk: 'A' } } });
const key = (id: number) => ({ pk: `K#${id}`, sk: 'A' });

/** A table that throttles: each request hands back its last `unprocessed(call)` items. */
function throttling(unprocessed: (call: number) => number) {
  const calls: { kind: 'write' | 'get'; size: number; consistent?: boolean }[] = [];
  const stored: Record<string, unknown>[] = [];
  const doc: BatchSender = {
    async send(command) {
      const index = calls.length;
      if (command instanceof BatchWriteCommand) {
        const requests = (command.input.RequestItems?.[TABLE] ?? []) as ReturnType<typeof put>[];
        calls.push({ kind: 'write', size: requests.length });
        const left = Math.min(requests.length, unprocessed(index));
        for (const request of requests.slice(0, requests.length - left)) {
          stored.push(request.PutRequest.Item);
        }
        return { UnprocessedItems: left === 0 ? {} : { [TABLE]: requests.slice(-left) } };
      }
      if (command instanceof BatchGetCommand) {
        const wanted = command.input.RequestItems?.[TABLE];
        const keys = (wanted?.Keys ?? []) as ReturnType<typeof key>[];
        calls.push({ kind: 'get', size: keys.length, consistent: wanted?.ConsistentRead });
        const left = Math.min(keys.length, unprocessed(index));
        return {
          Responses: {
            [TABLE]: keys.slice(0, keys.length - left).map((k) => ({ ...k, found: true })),
          },
          UnprocessedKeys: left === 0 ? {} : { [TABLE]: { Keys: keys.slice(-left) } },
        };
      }
      throw new Error('unexpected command');
    },
  };
  return { doc, calls, stored };
}

describe('batch writes and reads carried through to the last item', () => {
  it('writes every item, 25 to a request, retrying the unprocessed ones after a growing pause', async () => {
    const table = throttling((call) => (call < 3 ? 10 : 0));
    const pauses: number[] = [];
    await batchWriteAll(
      table.doc,
      TABLE,
      Array.from({ length: 60 }, (_, id) => put(id)),
      { sleep: async (ms) => void pauses.push(ms), random: () => 0.999 },
    );
    expect(table.stored.map((item) => item.pk).sort()).toEqual(
      Array.from({ length: 60 }, (_, id) => `K#${id}`).sort(),
    );
    expect(table.calls.map((call) => call.size)).toEqual([25, 10, 10, 10, 25, 10]);
    // Backoff doubles from 50 ms (full jitter: up to the cap), before each retry only.
    expect(pauses).toEqual([99, 199, 399]);
  });

  it('throws, naming what is left, when a throttle outlasts the retries; nothing is dropped silently', async () => {
    const table = throttling(() => 5);
    await expect(
      batchWriteAll(table.doc, TABLE, [put(1), put(2), put(3), put(4), put(5), put(6)], {
        sleep: async () => undefined,
      }),
    ).rejects.toThrow(`BatchWriteItem left 5 items unprocessed after ${BATCH_RETRIES} retries`);
    expect(table.calls).toHaveLength(BATCH_RETRIES + 1);
  });

  it('reads every key, 100 to a request, retrying unprocessed keys, consistent when asked', async () => {
    const table = throttling((call) => (call === 0 ? 30 : 0));
    const found = await batchGetAll(
      table.doc,
      TABLE,
      Array.from({ length: 130 }, (_, id) => key(id)),
      { sleep: async () => undefined, consistent: true },
    );
    expect(found).toHaveLength(130);
    expect(new Set(found.map((item) => item.pk)).size).toBe(130);
    expect(table.calls).toEqual([
      { kind: 'get', size: 100, consistent: true },
      { kind: 'get', size: 30, consistent: true },
      { kind: 'get', size: 30, consistent: true },
    ]);
    await expect(
      batchGetAll(throttling(() => 1).doc, TABLE, [key(1)], { sleep: async () => undefined }),
    ).rejects.toThrow('BatchGetItem left 1 keys unprocessed');
  });

  it('caps the pause at 5 s', () => {
    expect(batchBackoffMs(1, () => 0.5)).toBe(50);
    expect(batchBackoffMs(20, () => 0.999)).toBe(4_995);
    expect(batchBackoffMs(3, () => 0)).toBe(0);
  });
});

describe('a transaction lost to another write', () => {
  const cancelled = (...codes: string[]) =>
    Object.assign(new Error('cancelled'), {
      name: 'TransactionCanceledException',
      CancellationReasons: codes.map((Code) => ({ Code })),
    });
  it.each([
    ['a condition failed', cancelled('None', 'ConditionalCheckFailed'), true],
    ['another transaction held an item', cancelled('TransactionConflict', 'None'), true],
    ['throttled', cancelled('ThrottlingError', 'None'), false],
    ['a validation error', cancelled('ValidationError'), false],
    ['not a cancellation', new Error('network'), false],
  ])('%s: %s', (_label, error, lost) => {
    expect(isTransactionLost(error)).toBe(lost);
  });
});
