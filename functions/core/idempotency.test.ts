import { describe, expect, it } from 'vitest';
import { DomainError } from './errors';
import {
  idempotencyKeyOf,
  idempotencyRecordKey,
  idempotencyRecordPut,
  requireSameRequest,
} from './idempotency';

describe('the idempotency option', () => {
  it.each([
    ['required, absent', undefined, 'required', 'forms.validation.required'],
    ['required, malformed', 'short', 'required', 'forms.validation.required'],
    ['optional, malformed', 'bad key with spaces', 'optional', 'forms.validation.invalid'],
  ] as const)('refuses %s with 400 on Idempotency-Key', (_name, key, option, code) => {
    const headers = key === undefined ? {} : { 'idempotency-key': key };
    expect(() => idempotencyKeyOf(headers, option)).toThrowError(
      expect.objectContaining({
        code: 'invalid_request',
        status: 400,
        fields: { 'Idempotency-Key': code },
      }),
    );
  });

  it('passes a valid key, and no key when optional', () => {
    expect(idempotencyKeyOf({ 'idempotency-key': 'abc_1.2:3-x' }, 'required')).toBe('abc_1.2:3-x');
    expect(idempotencyKeyOf({}, 'optional')).toBeUndefined();
  });

  it('stores one record shape under IDEMPOTENCY#<scope>#<key>, written once', () => {
    expect(idempotencyRecordKey('create#u1', 'k-12345678')).toEqual({
      pk: 'IDEMPOTENCY#create#u1#k-12345678',
      sk: 'RESULT',
    });
    expect(
      idempotencyRecordPut('T', {
        scope: 'register',
        key: 'k-12345678',
        fingerprint: 'f',
        ttl: 9,
        fields: { result: { id: 'u1' } },
      }),
    ).toEqual({
      Put: {
        TableName: 'T',
        Item: {
          pk: 'IDEMPOTENCY#register#k-12345678',
          sk: 'RESULT',
          type: 'idempotency',
          result: { id: 'u1' },
          fingerprint: 'f',
          ttl: 9,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    });
  });

  it('refuses a replay with another fingerprint (409 idempotency.key_reused)', () => {
    expect(() => requireSameRequest({ fingerprint: 'a' }, 'a')).not.toThrow();
    const error = (() => {
      try {
        requireSameRequest({ fingerprint: 'a' }, 'b');
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'idempotency.key_reused', status: 409 });
  });
});
