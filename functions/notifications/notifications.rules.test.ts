import { describe, expect, it } from 'vitest';
import { NOTIFICATION_ACTIVITIES } from '../../shared/schemas/notifications';
import {
  counterSectionOf,
  countersOf,
  effectiveRead,
  emailGroupFor,
  idTimeAfter,
  preferencesOf,
  readChange,
  ulidTime,
} from './notifications.rules';
import { newEmailKey, signUnsubscribeToken, verifyUnsubscribeToken } from './unsubscribe-token';

const OLD = '01JAAAAAAAAAAAAAAAAAAAAAAA';
const MARK = '01JBBBBBBBBBBBBBBBBBBBBBBB';
const NEW = '01JCCCCCCCCCCCCCCCCCCCCCCC';

describe('reading rules (001 §4)', () => {
  it.each([
    // item id, its read, its epoch, watermark, epoch → effectively read
    ['no mark-all yet: unread', OLD, false, undefined, undefined, undefined, false],
    ['no mark-all yet: read', OLD, true, undefined, undefined, undefined, true],
    ['before the watermark: read by the mark-all', OLD, false, undefined, MARK, 'E2', true],
    ['at the watermark: read by the mark-all', MARK, false, undefined, MARK, 'E2', true],
    ['set unread after the mark-all (same epoch)', OLD, false, 'E2', MARK, 'E2', false],
    ['set unread before an older mark-all', OLD, false, 'E1', MARK, 'E2', true],
    ['newer than the watermark: its own state', NEW, false, undefined, MARK, 'E2', false],
    ['newer and read by hover', NEW, true, 'E2', MARK, 'E2', true],
  ] as const)('%s', (_name, id, read, itemEpoch, before, epoch, expected) => {
    expect(
      effectiveRead(
        { id, read, ...(itemEpoch === undefined ? {} : { read_epoch: itemEpoch }) },
        {
          ...(before === undefined ? {} : { read_before: before }),
          ...(epoch === undefined ? {} : { read_epoch: epoch }),
        },
      ),
    ).toBe(expected);
  });

  it.each([
    [false, true, { changed: true, delta: -1 }],
    [true, false, { changed: true, delta: 1 }],
    [true, true, { changed: false, delta: 0 }],
    [false, false, { changed: false, delta: 0 }],
  ])('unread counters: %s → %s', (current, requested, expected) => {
    expect(readChange(current, requested)).toEqual(expected);
  });

  it('counts each kind in its section (connection, message and room kinds are off)', () => {
    const sections = Object.fromEntries(
      NOTIFICATION_ACTIVITIES.map((activity) => [activity, counterSectionOf(activity)]),
    );
    expect(sections).toMatchObject({
      minter_pending: 'minter',
      minter_completed: 'minter',
      update_order: 'update',
      asset_transfer: 'asset',
      market_orderpaid: 'market',
      market_auction_substitute: 'market',
    });
    expect(countersOf(undefined)).toEqual({
      unread: 0,
      version: 0,
      sections: { minter: 0, update: 0, asset: 0, market: 0 },
    });
    expect(
      countersOf({ unread: 3, unread_market: 2, unread_asset: 1, unread_minter: -1, version: 9 }),
    ).toEqual({
      unread: 3,
      version: 9,
      sections: { minter: 0, update: 0, asset: 1, market: 2 },
    });
  });
});

describe('e-mail preferences', () => {
  it.each([
    ['market_orderpaid', {}, 'orders'],
    ['market_paymentdue', {}, 'orders'],
    ['market_payoutsent', {}, 'orders'],
    ['market_auction_win', {}, 'auctions'],
    ['market_outbid', {}, 'auctions'],
    ['market_auctionending', {}, 'auctions'],
    ['market_auction_notwin', {}, 'auctions'],
    ['market_auctionending', { email_auctions: false }, null],
    ['market_offeringvalidated', {}, 'offerings'],
    ['market_offeringrejected', {}, 'offerings'],
    ['market_newoffering', {}, null],
    ['market_newoffering', { email_followed: true }, 'followed'],
    ['market_orderpaid', { email_orders: false }, null],
    ['market_bidcreated', {}, null],
    ['minter_pending', {}, null],
  ] as const)('%s with %j → %s', (activity, stored, expected) => {
    expect(emailGroupFor(activity, preferencesOf(stored))).toBe(expected);
  });
});

describe('ids after the watermark', () => {
  it('reads a ULID time and moves a new id past a watermark from a clock ahead', () => {
    const now = new Date('2026-11-25T10:00:00.000Z');
    const ahead = '01KAXD0000ZZZZZZZZZZZZZZZZ';
    expect(idTimeAfter(now, undefined)).toBe(now);
    expect(idTimeAfter(now, ahead).getTime()).toBe(Math.max(ulidTime(ahead) + 1, now.getTime()));
    expect(ulidTime('01ARZ3NDEKTSV4RRFFQ69G5FAV')).toBe(1469922850259);
    expect(ulidTime('not a ulid')).toBe(0);
  });
});

describe('unsubscribe tokens', () => {
  it('verifies its own signature only', () => {
    const key = newEmailKey();
    const token = signUnsubscribeToken(key, 'USER1', 'auctions');
    expect(verifyUnsubscribeToken(key, token)).toEqual({ userId: 'USER1', group: 'auctions' });
    expect(verifyUnsubscribeToken(newEmailKey(), token)).toBeNull();
    const [user, , signature] = token.split('.');
    expect(verifyUnsubscribeToken(key, `${user}.orders.${signature}`)).toBeNull();
    const otherUser = Buffer.from('USER2').toString('base64url');
    expect(verifyUnsubscribeToken(key, `${otherUser}.auctions.${signature}`)).toBeNull();
    expect(verifyUnsubscribeToken(key, 'not-a-token')).toBeNull();
  });
});
