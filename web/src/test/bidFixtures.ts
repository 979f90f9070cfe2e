import type { AuctionView, BidEntry, MyBid, MyBidsPage } from '@shared/schemas/bids';
import { marketCardFixture } from './marketFixtures';
import { OFFERING_IDS } from './offeringFixtures';

/** Far enough ahead that every test sees the auction running. */
const END_AT = '2099-01-01T12:00:00.000Z';

/** A standing bid in a lot's list: @bruno, winning at $15,00. */
export function bidEntryFixture(overrides: Partial<BidEntry> = {}): BidEntry {
  return {
    bidid: `${OFFERING_IDS.auction}-1`,
    nick: 'bruno',
    amount: 1500,
    quantity: 1,
    copies: 1,
    status: 'active',
    created_at: '2026-02-10T09:30:00.000Z',
    ...overrides,
  };
}

/** The caller's (@ana, user-1) own bid: winning one copy at $15,50 with a $20,00 maximum. */
export function myBidFixture(overrides: Partial<MyBid> = {}): MyBid {
  return {
    bidid: `${OFFERING_IDS.auction}-2`,
    nick: 'ana',
    amount: 1550,
    quantity: 1,
    copies: 1,
    status: 'active',
    created_at: '2026-02-11T10:00:00.000Z',
    max: 2000,
    price: 1550,
    card: { id: 'pm_visa', brand: 'visa', last4: '4242' },
    can_cancel: true,
    order_id: null,
    pay_by: null,
    ...overrides,
  };
}

/**
 * The auction of offeringFixtures (minimum bid $10,00) as bid/getbyofferingid answers it: one
 * copy, @bruno leading at $15,00, the next bid at least $15,50, a reserve not met yet (so his
 * bid would not win yet).
 */
export function auctionViewFixture(overrides: Partial<AuctionView> = {}): AuctionView {
  return {
    offeringid: OFFERING_IDS.auction,
    currency: 'USD',
    phase: 'open',
    end_at: END_AT,
    scheduled_end_at: END_AT,
    soft_close_minutes: 5,
    expirationdatestamp: '2099-01-03T12:00:00.000Z',
    copies: 1,
    multi_copy: false,
    minimum: 1000,
    minimBid: 1550,
    highestBid: 1500,
    reserve: 'not_met',
    bids: 1,
    bidlist: [bidEntryFixture()],
    mine: null,
    ...overrides,
  };
}

/** One My Bids row: an open auction the caller is winning. */
export function myBidsItemFixture(
  overrides: Partial<MyBidsPage['items'][number]> = {},
): MyBidsPage['items'][number] {
  const offering = marketCardFixture({
    type: 'auction',
    display_status: 'auction',
    auction_display: 'open',
    price: 1000,
    highest_bid: 1550,
    copies: 1,
    copies_left: 1,
    end_at: '2026-03-06T14:30:00.000Z',
  });
  return {
    offering: {
      ...offering,
      item: { ...offering.item, title: 'Test pressing' },
    },
    bid: myBidFixture(),
    phase: 'open',
    end_at: '2026-03-06T14:30:00.000Z',
    highestBid: 1550,
    reserve: 'none',
    ...overrides,
  };
}
