import { describe, expect, it } from 'vitest';
import { money, type CurrencyCode } from './money';
import { payoutsOf, splitPayment, SplitError } from './split';

type Row = [
  label: string,
  gross: number,
  currency: CurrencyCode,
  firstSale: boolean,
  royalty: number | null,
  beneficiary: number | null,
  expected: { fee: number; royalty: number; creator: number; beneficiary: number; seller: number },
];

const rows: Row[] = [
  [
    'first sale, no beneficiary: fee 2 %, the rest to the seller',
    10_000,
    'USD',
    true,
    null,
    null,
    { fee: 200, royalty: 0, creator: 0, beneficiary: 0, seller: 9_800 },
  ],
  [
    'first sale: a royalty is ignored (the seller is the creator)',
    10_000,
    'EUR',
    true,
    20,
    null,
    { fee: 200, royalty: 0, creator: 0, beneficiary: 0, seller: 9_800 },
  ],
  [
    "first sale with a beneficiary: the share is of the creator's part (after the fee)",
    10_000,
    'USD',
    true,
    null,
    25,
    { fee: 200, royalty: 0, creator: 0, beneficiary: 2_450, seller: 7_350 },
  ],
  [
    'resale with a 10 % royalty and no beneficiary',
    10_000,
    'GBP',
    false,
    10,
    null,
    { fee: 200, royalty: 1_000, creator: 1_000, beneficiary: 0, seller: 8_800 },
  ],
  [
    'resale with a royalty and a beneficiary: the share is of the royalty',
    10_000,
    'USD',
    false,
    10,
    50,
    { fee: 200, royalty: 1_000, creator: 500, beneficiary: 500, seller: 8_800 },
  ],
  [
    'resale with no royalty: nothing to the creator or the beneficiary',
    10_000,
    'USD',
    false,
    null,
    30,
    { fee: 200, royalty: 0, creator: 0, beneficiary: 0, seller: 9_800 },
  ],
  [
    'fee rounds half up: 2 % of 125 is 2.5 → 3',
    125,
    'USD',
    true,
    null,
    null,
    { fee: 3, royalty: 0, creator: 0, beneficiary: 0, seller: 122 },
  ],
  [
    'fee rounds half up below the half: 2 % of 124 is 2.48 → 2',
    124,
    'USD',
    true,
    null,
    null,
    { fee: 2, royalty: 0, creator: 0, beneficiary: 0, seller: 122 },
  ],
  [
    'royalty and share round down; the cent left goes to the seller',
    999,
    'EUR',
    false,
    15,
    33,
    // fee 19.98 → 20; royalty 149.85 → 149; beneficiary 33 % of 149 = 49.17 → 49; seller 999 − 20 − 149
    { fee: 20, royalty: 149, creator: 100, beneficiary: 49, seller: 830 },
  ],
  [
    'beneficiary 100 % of the royalty: the creator keeps none',
    5_000,
    'USD',
    false,
    50,
    100,
    { fee: 100, royalty: 2_500, creator: 0, beneficiary: 2_500, seller: 2_400 },
  ],
  [
    'beneficiary 0 %',
    5_000,
    'USD',
    false,
    50,
    0,
    { fee: 100, royalty: 2_500, creator: 2_500, beneficiary: 0, seller: 2_400 },
  ],
  [
    'the smallest sale: 1 cent',
    1,
    'USD',
    false,
    50,
    50,
    { fee: 0, royalty: 0, creator: 0, beneficiary: 0, seller: 1 },
  ],
  [
    'the largest order: 40 copies at 1,000,000.00',
    4_000_000_000,
    'USD',
    false,
    10,
    10,
    {
      fee: 80_000_000,
      royalty: 400_000_000,
      creator: 360_000_000,
      beneficiary: 40_000_000,
      seller: 3_520_000_000,
    },
  ],
  [
    'a zero balance (deposit paid in full)',
    0,
    'GBP',
    true,
    null,
    50,
    { fee: 0, royalty: 0, creator: 0, beneficiary: 0, seller: 0 },
  ],
];

describe('splitPayment: one charge, every party, in minor units', () => {
  it.each(rows)('%s', (_label, gross, currency, firstSale, royalty, beneficiary, expected) => {
    const split = splitPayment({
      gross: money(gross, currency),
      firstSale,
      royaltyPercent: royalty,
      beneficiaryPercent: beneficiary,
    });
    expect({
      fee: split.fee.amount,
      royalty: split.royalty.amount,
      creator: split.creator.amount,
      beneficiary: split.beneficiary.amount,
      seller: split.seller.amount,
    }).toEqual(expected);
    for (const part of [split.fee, split.royalty, split.creator, split.beneficiary, split.seller]) {
      expect(part.currency).toBe(currency);
      expect(part.amount).toBeGreaterThanOrEqual(0);
    }
    // The parts always add up to the charge; the royalty is the creator's plus the beneficiary's
    // on a resale.
    expect(
      split.fee.amount + split.creator.amount + split.beneficiary.amount + split.seller.amount,
    ).toBe(gross);
    if (!firstSale)
      expect(split.creator.amount + split.beneficiary.amount).toBe(split.royalty.amount);
  });

  it('adds up for every amount from 0 to 2,000 cents and every royalty and share', () => {
    for (let gross = 0; gross <= 2_000; gross += 7) {
      for (const royalty of [null, 10, 33, 50]) {
        for (const share of [null, 0, 10, 49, 100]) {
          for (const firstSale of [true, false]) {
            const split = splitPayment({
              gross: money(gross, 'USD'),
              firstSale,
              royaltyPercent: royalty,
              beneficiaryPercent: share,
            });
            const total =
              split.fee.amount +
              split.creator.amount +
              split.beneficiary.amount +
              split.seller.amount;
            expect(total).toBe(gross);
            expect(split.seller.amount).toBeGreaterThanOrEqual(0);
          }
        }
      }
    }
  });

  it('a custom fee in basis points', () => {
    const split = splitPayment({
      gross: money(10_000, 'USD'),
      firstSale: true,
      royaltyPercent: null,
      beneficiaryPercent: null,
      feeBps: 0,
    });
    expect(split.fee.amount).toBe(0);
    expect(split.seller.amount).toBe(10_000);
  });

  it('refuses a negative charge and a percent outside 0..100', () => {
    const base = { firstSale: false, royaltyPercent: 10, beneficiaryPercent: 10 };
    expect(() => splitPayment({ ...base, gross: money(-1, 'USD') })).toThrow(SplitError);
    expect(() => splitPayment({ ...base, gross: money(100, 'USD'), royaltyPercent: 101 })).toThrow(
      SplitError,
    );
    expect(() =>
      splitPayment({ ...base, gross: money(100, 'USD'), beneficiaryPercent: 12.5 }),
    ).toThrow(SplitError);
  });

  it('payouts name each paid party once and leave out empty parts', () => {
    const split = splitPayment({
      gross: money(10_000, 'USD'),
      firstSale: false,
      royaltyPercent: 10,
      beneficiaryPercent: null,
    });
    expect(payoutsOf(split).map((entry) => [entry.party, entry.amount.amount])).toEqual([
      ['seller', 8_800],
      ['creator', 1_000],
    ]);
  });
});
