import type { SavedCard } from '../../../shared/schemas/payments';
import type { BidInput } from '../place';
import { countdownBudget, type Budget } from '../../core/clock';
import { timeoutOf } from '../../core/budgets';
import { bidsRoutes } from '../bids.routes';

// Bid inputs for tests and benches of the bids use case (no storage: unit tests use them too).

/**
 * A saved card as Stripe lists it, for bids made through the use case with `cardsOf` answering
 * it (the many-bidder tests: their cards are Stripe's business, tested through the gateway).
 */
export const SAVED_CARD: SavedCard = {
  id: 'pm_card_visa',
  brand: 'visa',
  funding: 'credit',
  last4: '4242',
  exp_month: 12,
  exp_year: 2034,
  created: new Date().toISOString(),
  default: true,
  expired: false,
};

/** createBid's input: one copy at `bidprice` (EUR), no maximum, the bidder's default card. */
export function bidInput(
  callerId: string,
  offeringId: string,
  bidprice: number,
  extra: Partial<BidInput> = {},
): BidInput {
  return {
    callerId,
    offeringId,
    bidprice,
    maxbid: null,
    currency: 'EUR',
    quantity: 1,
    payment_method: null,
    postaladdress: null,
    ...extra,
  };
}

/**
 * The budget of a bid/create invocation (its route's declared timeout), counting down from now:
 * for tests, benches and the seed calling the use case directly, as the handler would.
 */
export function bidBudget(): Budget {
  return countdownBudget(timeoutOf(bidsRoutes.createBid) * 1000);
}
