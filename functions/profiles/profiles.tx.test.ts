import { describe, expect, it } from 'vitest';
import { counterStateOf, followersCounterUpdate, nextCounter } from './profiles.tx';

describe('followers counter', () => {
  it.each([
    [0, 1, 1],
    [5, 1, 6],
    [5, -1, 4],
    [1, -1, 0],
    [0, -1, 0],
  ] as const)('%i %+i → %i (never below 0)', (current, delta, next) => {
    expect(nextCounter(current, delta)).toBe(next);
  });

  it('reads missing or bad counters as 0', () => {
    expect(counterStateOf({})).toEqual({ followers_counter: 0, is_seller: false });
    expect(counterStateOf({ followers_counter: -3, is_seller: true })).toEqual({
      followers_counter: 0,
      is_seller: true,
    });
  });

  it('rewrites the sellers sort key of a seller, conditioned on the value read', () => {
    const update = followersCounterUpdate('U1', { followers_counter: 41, is_seller: true }, 1);
    expect(update.UpdateExpression).toBe('SET followers_counter = :next, gsi1sk = :sk');
    expect(update.ExpressionAttributeValues).toMatchObject({
      ':next': 42,
      ':current': 41,
      ':sk': '000000000042#U1',
    });
    expect(update.ConditionExpression).toContain('followers_counter = :current');
  });

  it('leaves a non-seller out of the directory index', () => {
    const update = followersCounterUpdate('U2', { followers_counter: 0, is_seller: false }, -1);
    expect(update.UpdateExpression).toBe('SET followers_counter = :next');
    expect(update.ExpressionAttributeValues[':next']).toBe(0);
    expect(update.ConditionExpression).toContain('attribute_not_exists(followers_counter)');
  });
});
