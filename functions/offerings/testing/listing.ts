import type { ListingContract } from '../../../shared/schemas/offerings';

const HOUR = 3_600_000;

/**
 * A listing as the create call takes it (`ListingContract`): one copy of `itemId` at a fixed
 * 25.00 EUR paid in full, public, in the art category, on sale from now for 48 hours; `extra`
 * changes any field. For the tests, benches and browser journeys that list through the API.
 */
export function listingContract(
  itemId: string,
  extra: Partial<ListingContract> = {},
): ListingContract {
  return {
    item_id: itemId,
    type: 'fixed',
    copies: 1,
    currency: 'EUR',
    price: 2500,
    payment_mode: 'fullprice',
    deposit: null,
    buy_price: null,
    reserve_price: null,
    multi_copy: false,
    start_at: new Date().toISOString(),
    end_at: new Date(Date.now() + 48 * HOUR).toISOString(),
    categories: ['art'],
    notes: '',
    terms: 'None',
    access: 'public',
    invited: [],
    collection_id: null,
    ...extra,
  };
}
