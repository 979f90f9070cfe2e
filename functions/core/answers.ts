import { createHash } from 'node:crypto';
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { isConditionalCheckFailed } from './dynamo';
import { DomainError } from './errors';
import { IDEMPOTENCY_TYPE, idempotencyRecordKey } from './idempotency';

/**
 * Replayed answers (the route option `replayAnswer`; docs/architecture.md "Idempotency"): for calls
 * that move money or bids and keep no replay record of their own (pay, checkout/create, bid/create,
 * updateorder), the middleware keeps the answer of each (caller, call, Idempotency-Key) for 24 h
 * and answers a retry with it, so a retried request (the answer lost on a slow network, a double
 * click that sent the same key) never acts twice:
 *
 * - the key is claimed before the use case runs (a conditional put: `running`, with a lease until
 *   the function's own deadline; a claim whose lease ran out — the function was stopped — may be
 *   taken over);
 * - the answer is kept when the use case answers, errors a retry would get again included (4xx:
 *   a refused bid stays refused); a 5xx or a crash releases the claim, so the retry runs again;
 * - a retry finds the kept answer and gets it back (`Idempotent-Replayed: true`); one that comes
 *   while the first still runs waits for its answer (within its own budget), else 409
 *   `idempotency.in_progress`; the same key with another request is 409 `idempotency.key_reused`.
 *
 * | pattern                       | key                                                        |
 * |-------------------------------|------------------------------------------------------------|
 * | the kept answer of a call     | pk = IDEMPOTENCY#answer#<userId>#<method path>#<key>, sk = RESULT |
 */
export const ANSWER_TTL_S = 24 * 3600;
/** How often a retry looks again for the answer of a first request still running. */
export const ANSWER_POLL_MS = 100;

export interface KeptAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type AnswerClaim =
  | { state: 'claimed' }
  | { state: 'answered'; answer: KeptAnswer }
  | { state: 'running'; until: number };

/** Where the answers are kept (the table; a map in unit tests). */
export interface AnswerStore {
  /** Claims `key` for a request, or finds its kept answer or the request still running it. */
  claim(input: {
    scope: string;
    key: string;
    fingerprint: string;
    /** Epoch ms: the claim may be taken over after this (the function was stopped). */
    leaseUntil: number;
    now: number;
  }): Promise<AnswerClaim>;
  keep(
    input: { scope: string; key: string; fingerprint: string },
    answer: KeptAnswer,
    now: number,
  ): Promise<void>;
  release(scope: string, key: string): Promise<void>;
}

/** The scope of a caller's key on one call (a key is the caller's own, per call). */
export function answerScope(userId: string, routeKey: string): string {
  return `answer#${userId}#${routeKey}`;
}

/** The request a key stands for: the path (its ids) and the body, as sent. */
export function requestFingerprint(path: string, body: string | undefined): string {
  return createHash('sha256')
    .update(`${path}\n${body ?? ''}`)
    .digest('hex');
}

function keyReused(): DomainError {
  return new DomainError('idempotency.key_reused', {
    message: 'This Idempotency-Key was used with another request.',
  });
}

interface StoredAnswer {
  fingerprint: string;
  state: 'running' | 'answered';
  lease_until?: number;
  answer?: KeptAnswer;
}

export function dynamoAnswerStore(deps: {
  doc: DynamoDBDocumentClient;
  tableName: string;
}): AnswerStore {
  const { doc, tableName: TableName } = deps;
  const read = async (scope: string, key: string) =>
    (
      await doc.send(
        new GetCommand({ TableName, Key: idempotencyRecordKey(scope, key), ConsistentRead: true }),
      )
    ).Item as StoredAnswer | undefined;
  return {
    async claim({ scope, key, fingerprint, leaseUntil, now }) {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        try {
          await doc.send(
            new PutCommand({
              TableName,
              Item: {
                ...idempotencyRecordKey(scope, key),
                type: IDEMPOTENCY_TYPE,
                fingerprint,
                state: 'running',
                lease_until: leaseUntil,
                ttl: Math.floor(now / 1000) + ANSWER_TTL_S,
              },
              // New, or a running claim whose function was stopped (its lease is over).
              ConditionExpression:
                'attribute_not_exists(pk) OR (#state = :running AND lease_until < :now AND fingerprint = :fingerprint)',
              ExpressionAttributeNames: { '#state': 'state' },
              ExpressionAttributeValues: {
                ':running': 'running',
                ':now': now,
                ':fingerprint': fingerprint,
              },
            }),
          );
          return { state: 'claimed' };
        } catch (error) {
          if (!isConditionalCheckFailed(error)) throw error;
        }
        const stored = await read(scope, key);
        if (stored === undefined) continue; // Released meanwhile: claim again.
        if (stored.fingerprint !== fingerprint) throw keyReused();
        if (stored.state === 'answered' && stored.answer !== undefined) {
          return { state: 'answered', answer: stored.answer };
        }
        if ((stored.lease_until ?? 0) >= now) {
          return { state: 'running', until: stored.lease_until ?? now };
        }
      }
      return { state: 'running', until: now };
    },
    async keep({ scope, key, fingerprint }, answer, now) {
      await doc.send(
        new PutCommand({
          TableName,
          Item: {
            ...idempotencyRecordKey(scope, key),
            type: IDEMPOTENCY_TYPE,
            fingerprint,
            state: 'answered',
            answer,
            ttl: Math.floor(now / 1000) + ANSWER_TTL_S,
          },
        }),
      );
    },
    async release(scope, key) {
      await doc
        .send(
          new DeleteCommand({
            TableName,
            Key: idempotencyRecordKey(scope, key),
            ConditionExpression: '#state = :running',
            ExpressionAttributeNames: { '#state': 'state' },
            ExpressionAttributeValues: { ':running': 'running' },
          }),
        )
        .catch((error: unknown) => {
          if (!isConditionalCheckFailed(error)) throw error;
        });
    },
  };
}

/**
 * Runs `run` once per (scope, key): the first request's answer is kept and answered to every retry
 * (see the module comment). `respond` turns a refusal into its answer (kept for 4xx).
 */
export async function answerOnce(
  store: AnswerStore,
  input: {
    scope: string;
    key: string;
    fingerprint: string;
    /** Epoch ms: when this invocation's budget ends (its lease). */
    deadline: number;
    now: () => number;
    sleep?: (ms: number) => Promise<void>;
  },
  run: () => Promise<KeptAnswer>,
): Promise<KeptAnswer & { replayed: boolean }> {
  const sleep =
    input.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  for (;;) {
    const claim = await store.claim({
      scope: input.scope,
      key: input.key,
      fingerprint: input.fingerprint,
      leaseUntil: input.deadline,
      now: input.now(),
    });
    if (claim.state === 'answered') return { ...claim.answer, replayed: true };
    if (claim.state === 'claimed') break;
    // The first request still runs: wait for its answer while this one's own budget allows.
    if (input.now() + ANSWER_POLL_MS >= input.deadline - 1_000) {
      throw new DomainError('idempotency.in_progress', {
        message: 'A request with this Idempotency-Key is still being processed; retry shortly.',
      });
    }
    await sleep(ANSWER_POLL_MS);
  }
  let answer: KeptAnswer;
  try {
    answer = await run();
  } catch (error) {
    await store.release(input.scope, input.key);
    throw error;
  }
  if (answer.status >= 500) {
    await store.release(input.scope, input.key);
  } else {
    await store.keep(input, answer, input.now());
  }
  return { ...answer, replayed: false };
}
