import { describe, expect, it } from 'vitest';
import {
  clientMessageSchema,
  duplicateFilter,
  serverMessageSchema,
  topicOf,
  topicSchema,
} from './messages';

describe('live channel messages', () => {
  it.each([
    [{ action: 'ping' }, true],
    [{ action: 'subscribe', topic: 'offering:oF01J000' }, true],
    [{ action: 'unsubscribe', topic: 'item:01J000' }, true],
    [{ action: 'subscribe', topic: 'room:1' }, false],
    [{ action: 'subscribe', topic: 'offering:' }, false],
    [{ action: 'subscribe', topic: 'offering:a#b' }, false],
    [{ action: 'subscribe' }, false],
    [{ action: '12wrequest' }, false],
    [{}, false],
  ])('client message %j valid: %s', (message, valid) => {
    expect(clientMessageSchema.safeParse(message).success).toBe(valid);
  });

  it.each([
    [{ type: 'pong', id: '01J0' }, true],
    [{ type: 'subscribed', id: '01J0', topic: 'offering:oF1' }, true],
    [{ type: 'subscribed', id: '01J0' }, false],
    [{ type: 'error', id: '01J0', code: 'invalid_json', message: 'bad' }, true],
    [{ type: 'payments.cards_updated', id: '01J0' }, true],
    [{ type: 'payments.cards_updated' }, false],
    [{ type: 'bid.new', id: '01J0', topic: 'offering:oF1', offeringId: 'oF1' }, true],
    [{ type: 'bid.new', id: '01J0', offeringId: 'oF1', topic: 'nope' }, false],
    [{ type: 'order.paid', id: '01J0', orderId: '01J1' }, true],
    [{ type: 'users.online', id: '01J0', userId: 'u1', is_online: 'yes' }, false],
    [{ type: 'room.updated', id: '01J0' }, false],
  ])('server message %j valid: %s', (message, valid) => {
    expect(serverMessageSchema.safeParse(message).success).toBe(valid);
  });

  it('builds topics from ids it accepts', () => {
    expect(topicOf('offering', 'oF01J000')).toBe('offering:oF01J000');
    expect(topicSchema.parse('profile:u-1')).toBe('profile:u-1');
    expect(() => topicOf('item', 'a:b')).toThrow(RangeError);
  });

  it('lets a client drop duplicate message ids', () => {
    const filter = duplicateFilter(2);
    expect(filter.seen('a')).toBe(false);
    expect(filter.seen('a')).toBe(true);
    expect(filter.seen('b')).toBe(false);
    expect(filter.seen('c')).toBe(false);
    // Only the last two are remembered.
    expect(filter.seen('a')).toBe(false);
    expect(filter.seen('c')).toBe(true);
  });
});
