import { SALE_FEE_BPS } from './constants/limits';
import { money, shareOf, subtractMoney, type Money } from './money';

/**
 * The split of one card payment (issue 12 §4; spec 000 §1, §9): who gets what of a charge, in
 * integer minor units, with the rounding written out so every party can check it.
 *
 * - **Fee:** the platform keeps 2 % of the sale (`SALE_FEE_BPS`), rounded half up.
 * - **Royalty** (a resale only: the seller is not the item's creator): the creator's royalty
 *   percent of the sale, rounded down.
 * - **Beneficiary:** the beneficiary's share (percent) of the creator's part, rounded down. The
 *   creator's part is the royalty on a resale, and what the creator earns as the seller (the sale
 *   less the fee) on a first sale.
 * - **Seller:** the rest, so the parts always add up to the charge.
 *
 * Rounding down the royalty and the beneficiary's share leaves any fraction of a cent with the
 * seller; rounding the fee half up is the usual reading of "2 % per sale". Pure, table-tested in
 * split.test.ts; worked examples in docs/payments.md.
 */
export interface SplitInput {
  /** What is charged: price (or deposit, or balance) × copies. */
  gross: Money;
  /** The seller is the item's creator (a first sale): no royalty. */
  firstSale: boolean;
  /** The creator's resale royalty, percent (10–50), or null for none. */
  royaltyPercent: number | null;
  /** The beneficiary's share of the creator's part, percent (0–100), or null for none. */
  beneficiaryPercent: number | null;
  /** The sale fee in basis points (default 2 %). */
  feeBps?: number;
}

export interface Split {
  gross: Money;
  /** The platform's fee. */
  fee: Money;
  /** The creator's royalty before the beneficiary's share (0 on a first sale). */
  royalty: Money;
  /** What the creator receives as royalty (royalty − beneficiary on a resale; 0 on a first sale). */
  creator: Money;
  beneficiary: Money;
  seller: Money;
}

export class SplitError extends Error {
  override name = 'SplitError';
}

function percentToBps(percent: number | null, label: string): number {
  if (percent === null) return 0;
  if (!Number.isInteger(percent) || percent < 0 || percent > 100) {
    throw new SplitError(`${label} must be an integer percent in 0..100, got ${percent}`);
  }
  return percent * 100;
}

export function splitPayment(input: SplitInput): Split {
  const { gross } = input;
  if (gross.amount < 0) throw new SplitError(`gross must not be negative, got ${gross.amount}`);
  const feeBps = input.feeBps ?? SALE_FEE_BPS;
  const fee = shareOf(gross, feeBps, 'half-up');
  const afterFee = subtractMoney(gross, fee);
  const royaltyBps = input.firstSale ? 0 : percentToBps(input.royaltyPercent, 'royalty');
  const royalty = shareOf(gross, royaltyBps, 'down');
  const creatorPart = input.firstSale ? afterFee : royalty;
  const beneficiary = shareOf(
    creatorPart,
    percentToBps(input.beneficiaryPercent, 'beneficiary share'),
    'down',
  );
  const creator = input.firstSale ? money(0, gross.currency) : subtractMoney(royalty, beneficiary);
  const seller = subtractMoney(
    subtractMoney(afterFee, royalty),
    input.firstSale ? beneficiary : money(0, gross.currency),
  );
  return { gross, fee, royalty, creator, beneficiary, seller };
}

/** The parts paid out to people (everything but the fee), for a transfer per party. */
export function payoutsOf(
  split: Split,
): { party: 'seller' | 'creator' | 'beneficiary'; amount: Money }[] {
  return (
    [
      { party: 'seller', amount: split.seller },
      { party: 'creator', amount: split.creator },
      { party: 'beneficiary', amount: split.beneficiary },
    ] as const
  ).filter((entry) => entry.amount.amount > 0);
}
