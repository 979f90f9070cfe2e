/**
 * The offerings domain's public module (issue 11): listings, the market's lists, delisting,
 * invitations, favourites and support's validation. Checkout and auctions (next issues) act on
 * offerings through what this file exports.
 */
export {
  canDelist,
  transition,
  type ListingEffect,
  type ListingEvent,
  type ListingState,
} from './listing.machine';
export { afterSale, applyEvent, runListingTask, saleEffectsOf, saleOf } from './listing';
// Listing as the seller's create call and support's validation do it (the dev seed's demo market).
export { createOffering, getListingStatus } from './create-offering';
export { validateOffering } from './manage';
export { offeringsDeps } from './offerings.deps';
export { createOfferingsRepo, type OfferingsRepo } from './offerings.repo';
export { marketEntriesOf, type OfferingRecord } from './offerings';
export { getOfferingCards } from './queries';
export type { OfferingsDeps } from './ports';
