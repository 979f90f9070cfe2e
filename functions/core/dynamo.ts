import {
  BatchGetCommand,
  BatchWriteCommand,
  type BatchGetCommandOutput,
  type BatchWriteCommandOutput,
} from '@aws-sdk/lib-dynamodb';

/**
 * DynamoDB helpers shared by the repos: error translation (the edge where conditional failures
 * become domain outcomes), and batch reads and writes carried through to the last item.
 */
export interface CancellationReason {
  Code?: string;
  /**
   * The item as it stood, for a piece written with ReturnValuesOnConditionCheckFailure ALL_OLD
   * whose condition failed (in DynamoDB's attribute-value format: the document client does not
   * convert errors).
   */
  Item?: Record<string, unknown>;
}

/**
 * The per-item reasons of a cancelled TransactWriteItems (in the order of its items), or undefined
 * when the error is not a transaction cancellation.
 */
export function cancellationReasons(error: unknown): CancellationReason[] | undefined {
  if (
    typeof error === 'object' &&
    error !== null &&
    (error as { name?: string }).name === 'TransactionCanceledException'
  ) {
    return (error as { CancellationReasons?: CancellationReason[] }).CancellationReasons ?? [];
  }
  return undefined;
}

/**
 * Whether a TransactWriteItems was cancelled because another write came first: a piece's condition
 * failed, or a concurrent transaction held one of its items. The caller reads again and decides.
 */
export function isTransactionLost(error: unknown): boolean {
  return (
    cancellationReasons(error)?.some(
      (reason) => reason.Code === 'ConditionalCheckFailed' || reason.Code === 'TransactionConflict',
    ) === true
  );
}

/** Whether a single-item write failed its ConditionExpression. */
export function isConditionalCheckFailed(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { name?: string }).name === 'ConditionalCheckFailedException'
  );
}

/** BatchWriteItem's and BatchGetItem's limits per request. */
export const BATCH_WRITE_MAX = 25;
export const BATCH_GET_MAX = 100;

/** Retries of a batch's unprocessed part before giving up (about 10 s of backoff in all). */
export const BATCH_RETRIES = 8;

export interface BatchOptions {
  /** Waits `ms` (injected by tests). */
  sleep?: (ms: number) => Promise<void>;
  /** A number in [0, 1) (injected by tests). */
  random?: () => number;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The pause before the `attempt`-th retry of a batch's unprocessed part: exponential backoff with
 * full jitter (50 ms doubling, capped at 5 s), as AWS advises for the items a throttled batch hands
 * back; retrying at once only meets the same throttle again.
 */
export function batchBackoffMs(attempt: number, random: () => number = Math.random): number {
  return Math.floor(random() * Math.min(5_000, 50 * 2 ** attempt));
}

/** The document client's `send`, as the batch helpers use it. */
export interface BatchSender {
  send(command: BatchWriteCommand | BatchGetCommand): Promise<unknown>;
}

/**
 * Sends `items` in chunks of `size`, each chunk again with what the answer left unprocessed, after
 * a backoff, until nothing is left; throws after BATCH_RETRIES retries of a chunk.
 */
async function drain(
  items: readonly Record<string, unknown>[],
  size: number,
  what: { call: string; noun: string },
  options: BatchOptions,
  send: (pending: Record<string, unknown>[]) => Promise<Record<string, unknown>[]>,
): Promise<void> {
  const sleep = options.sleep ?? wait;
  for (let start = 0; start < items.length; start += size) {
    let pending = items.slice(start, start + size);
    for (let attempt = 0; pending.length > 0; attempt += 1) {
      if (attempt > BATCH_RETRIES) {
        throw new Error(
          `${what.call} left ${pending.length} ${what.noun} unprocessed after ${BATCH_RETRIES} retries`,
        );
      }
      if (attempt > 0) await sleep(batchBackoffMs(attempt, options.random));
      pending = await send(pending);
    }
  }
}

/**
 * Writes every put and delete request, 25 to a BatchWriteItem, retrying each request's unprocessed
 * items with backoff; throws when some are still unprocessed after BATCH_RETRIES (nothing is
 * dropped without an error).
 */
export async function batchWriteAll(
  doc: BatchSender,
  tableName: string,
  requests: readonly Record<string, unknown>[],
  options: BatchOptions = {},
): Promise<void> {
  await drain(
    requests,
    BATCH_WRITE_MAX,
    { call: 'BatchWriteItem', noun: 'items' },
    options,
    async (pending) => {
      const result = (await doc.send(
        new BatchWriteCommand({ RequestItems: { [tableName]: pending as never } }),
      )) as BatchWriteCommandOutput;
      return (result.UnprocessedItems?.[tableName] ?? []) as Record<string, unknown>[];
    },
  );
}

/**
 * Reads every key, 100 to a BatchGetItem, retrying each request's unprocessed keys with backoff
 * (reads are eventually consistent unless `consistent`); the items found, in no particular order.
 * Throws when some keys are still unprocessed after BATCH_RETRIES.
 */
export async function batchGetAll(
  doc: BatchSender,
  tableName: string,
  keys: readonly Record<string, unknown>[],
  options: BatchOptions & { consistent?: boolean } = {},
): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  await drain(
    keys,
    BATCH_GET_MAX,
    { call: 'BatchGetItem', noun: 'keys' },
    options,
    async (pending) => {
      const result = (await doc.send(
        new BatchGetCommand({
          RequestItems: {
            [tableName]: {
              Keys: pending as never,
              ...(options.consistent === true ? { ConsistentRead: true } : {}),
            },
          },
        }),
      )) as BatchGetCommandOutput;
      found.push(...((result.Responses?.[tableName] ?? []) as Record<string, unknown>[]));
      return (result.UnprocessedKeys?.[tableName]?.Keys ?? []) as Record<string, unknown>[];
    },
  );
  return found;
}
