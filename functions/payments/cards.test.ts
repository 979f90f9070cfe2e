import { describe, expect, it } from 'vitest';
import type { SavedCard } from '../../shared/schemas/payments';
import type Stripe from 'stripe';
import { expectedDefault, isExpired, savedCardsOf } from './cards';

const NOW = new Date('2026-11-24T12:00:00Z');

describe('isExpired (a card is usable through its expiry month)', () => {
  it.each([
    [11, 2026, false],
    [12, 2026, false],
    [10, 2026, true],
    [12, 2025, true],
    [1, 2027, false],
  ])('%i/%i → %s', (month, year, expired) => {
    expect(isExpired({ exp_month: month, exp_year: year }, NOW)).toBe(expired);
  });
});

function card(id: string, expired = false): SavedCard {
  return {
    id,
    brand: 'visa',
    funding: 'credit',
    last4: '4242',
    exp_month: 12,
    exp_year: 2030,
    created: '2026-11-24T00:00:00.000Z',
    default: false,
    expired,
  };
}

describe('expectedDefault (newest first lists)', () => {
  it.each<[string, SavedCard[], string | null, string | null]>([
    ['no cards, no default', [], null, null],
    ['a default that was removed, none left', [], 'pm_gone', null],
    ['keeps the current default while attached', [card('pm_a'), card('pm_b')], 'pm_b', 'pm_b'],
    [
      'keeps an expired current default (the user chose it)',
      [card('pm_a'), card('pm_b', true)],
      'pm_b',
      'pm_b',
    ],
    ['the newest card when none is set', [card('pm_a'), card('pm_b')], null, 'pm_a'],
    [
      'the newest usable card when the default was removed',
      [card('pm_a', true), card('pm_b')],
      'pm_gone',
      'pm_b',
    ],
    [
      'the newest card when all are expired',
      [card('pm_a', true), card('pm_b', true)],
      null,
      'pm_a',
    ],
  ])('%s', (_name, cards, current, expected) => {
    expect(expectedDefault(cards, current)).toBe(expected);
  });
});

describe('savedCardsOf', () => {
  const method = (id: string, created: number) =>
    ({
      id,
      created,
      type: 'card',
      card: {
        brand: 'visa',
        funding: 'credit',
        last4: id.slice(-4),
        exp_month: 12,
        exp_year: 2034,
      },
    }) as unknown as Stripe.PaymentMethod;

  it("keeps Stripe's newest-first order, also for cards saved in the same second", () => {
    const cards = savedCardsOf(
      [
        method('pm_a_4444', 1_790_000_100),
        method('pm_z_4242', 1_790_000_100),
        method('pm_m_1111', 1_790_000_000),
      ],
      'pm_z_4242',
      NOW,
    );
    expect(cards.map((card) => [card.last4, card.default])).toEqual([
      ['4444', false],
      ['4242', true],
      ['1111', false],
    ]);
  });
});
