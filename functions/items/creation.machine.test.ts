import { describe, expect, it } from 'vitest';
import {
  creationPercent,
  initialCreation,
  InvalidCreationTransition,
  transition,
  type CreationEvent,
  type CreationState,
} from './creation.machine';

const checking = initialCreation(200);
const uploading: CreationState = { ...checking, status: 'uploading-token' };
const half: CreationState = { ...uploading, written: 100 };
const full: CreationState = { ...uploading, written: 200 };
const done: CreationState = { ...full, status: 'done' };
const failed: CreationState = {
  ...half,
  status: 'error',
  error: 'market.create_product.errors.chunks',
};

const table: [string, CreationState, CreationEvent, CreationState | 'invalid'][] = [
  ['checking → uploading-token when checked', checking, { type: 'checked' }, uploading],
  [
    'checking → error on failure',
    checking,
    { type: 'failed', code: 'market.create_product.errors.limit' },
    { ...checking, status: 'error', error: 'market.create_product.errors.limit' },
  ],
  [
    'checking: copies cannot be written yet',
    checking,
    { type: 'copies_written', count: 100 },
    'invalid',
  ],
  ['checking: cannot finalize', checking, { type: 'finalized' }, 'invalid'],
  ['checking: no retry', checking, { type: 'retried' }, 'invalid'],
  ['uploading counts a batch', uploading, { type: 'copies_written', count: 100 }, half],
  [
    'uploading caps replayed batches at the total',
    half,
    { type: 'copies_written', count: 150 },
    full,
  ],
  ['uploading refuses a negative batch', half, { type: 'copies_written', count: -1 }, 'invalid'],
  ['uploading refuses a fractional batch', half, { type: 'copies_written', count: 1.5 }, 'invalid'],
  [
    'uploading cannot finalize before every copy is written',
    half,
    { type: 'finalized' },
    'invalid',
  ],
  ['uploading → done when every copy is written', full, { type: 'finalized' }, done],
  [
    'uploading → error on failure',
    half,
    { type: 'failed', code: 'market.create_product.errors.chunks' },
    failed,
  ],
  ['uploading: not checked twice', uploading, { type: 'checked' }, 'invalid'],
  [
    'error → checking on retry, keeping what was written',
    failed,
    { type: 'retried' },
    { ...half, status: 'checking', error: null },
  ],
  ['error: cannot fail again', failed, { type: 'failed', code: 'x' }, 'invalid'],
  ['error: cannot finalize', failed, { type: 'finalized' }, 'invalid'],
  ['done is final: failed', done, { type: 'failed', code: 'x' }, 'invalid'],
  ['done is final: retried', done, { type: 'retried' }, 'invalid'],
  ['done is final: copies', done, { type: 'copies_written', count: 1 }, 'invalid'],
];

describe('item creation transitions', () => {
  it.each(table)('%s', (_case, from, event, expected) => {
    if (expected === 'invalid') {
      expect(() => transition(from, event)).toThrow(InvalidCreationTransition);
    } else {
      expect(transition(from, event)).toEqual(expected);
    }
  });

  it.each([
    [checking, 5],
    [uploading, 5],
    [half, 50],
    [full, 95],
    [done, 100],
    [failed, 0],
  ] as const)('shows %j as %i %%', (state, percent) => {
    expect(creationPercent(state)).toBe(percent);
  });
});
