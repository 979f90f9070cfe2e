import type { IdempotencyOption } from './route';
import { DomainError } from './errors';

/**
 * Idempotent calls (the route option `idempotency`; docs/architecture.md says why this is ours and
 * not Powertools'): the one implementation of the Idempotency-Key header, the replay record and
 * the "same key, other body" rule. A use case writes its record INSIDE its own first transaction
 * (`idempotencyRecordPut`), so the record exists exactly when the work it stands for does, and a
 * retry finds it and resumes or answers the first result; the same key with another request
 * fingerprint (each use case defines its own: sign-up hashes the password first) is 409
 * `idempotency.key_reused`.
 *
 * | pattern                    | key                                        |
 * |----------------------------|--------------------------------------------|
 * | replay record of a call    | pk = IDEMPOTENCY#<scope>#<key>, sk = RESULT |
 *
 * Scopes: `register` (sign-up), `create#<userId>` (token/create, per creator).
 */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_.:-]{8,128}$/;
export const IDEMPOTENCY_TYPE = 'idempotency';

/** The header's key, checked by the route's option; undefined when optional and absent. */
export function idempotencyKeyOf(
  headers: Readonly<Record<string, string | undefined>> | undefined,
  option: IdempotencyOption,
): string | undefined {
  const key = headers?.[IDEMPOTENCY_HEADER];
  if (key === undefined && option === 'optional') return undefined;
  if (key === undefined || !IDEMPOTENCY_KEY_PATTERN.test(key)) {
    const missing = key === undefined;
    throw new DomainError('invalid_request', {
      message: missing
        ? 'The Idempotency-Key header is required (8–128 letters, digits, _ . : -).'
        : 'The Idempotency-Key header is not valid (8–128 letters, digits, _ . : -).',
      fields: {
        'Idempotency-Key':
          missing || option === 'required'
            ? 'forms.validation.required'
            : 'forms.validation.invalid',
      },
    });
  }
  return key;
}

export function idempotencyRecordKey(scope: string, key: string): { pk: string; sk: string } {
  return { pk: `IDEMPOTENCY#${scope}#${key}`, sk: 'RESULT' };
}

/**
 * The transaction entry that stores a replay record; it fails (ConditionalCheckFailed in the
 * cancellation reasons) when the key was used already, which the use case reads as a replay.
 */
export function idempotencyRecordPut(
  tableName: string,
  record: {
    scope: string;
    key: string;
    fingerprint: string;
    /** Epoch seconds; absent: the record lives as long as what it created. */
    ttl?: number;
    /** What a replay needs to answer or resume (e.g. `result`, `item_id`). */
    fields: Record<string, unknown>;
  },
) {
  return {
    Put: {
      TableName: tableName,
      Item: {
        ...idempotencyRecordKey(record.scope, record.key),
        type: IDEMPOTENCY_TYPE,
        ...record.fields,
        fingerprint: record.fingerprint,
        ...(record.ttl === undefined ? {} : { ttl: record.ttl }),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** 409 `idempotency.key_reused` when a replay's fingerprint is not the stored one. */
export function requireSameRequest(stored: { fingerprint: string }, fingerprint: string): void {
  if (stored.fingerprint !== fingerprint) {
    throw new DomainError('idempotency.key_reused', {
      message: 'This Idempotency-Key was used with another request.',
    });
  }
}
