import {
  CATEGORIES,
  MY_OFFERING_FILTERS,
  OFFER_FILTERS,
  type Category,
  type GetOfferingsBody,
  type MyOfferingFilter,
} from '@shared/schemas/offerings';
import { MY_BIDS_FILTERS, type MyBidsFilter } from '@shared/schemas/bids';
import type { ProductType } from '@shared/switches';

/**
 * The market's filters (spec 000 §2) as the address bar carries them, so a filtered market can be
 * reloaded, shared and navigated back to: `?type=product_physical&type=ticket&category=art&offer=auction`.
 * The type values are the spec's names; the API takes the item types they stand for. Defaults
 * (any) are left out of the address; unknown values are ignored.
 */
export const TYPE_FILTERS = ['product_physical', 'product_digital', 'ticket', 'service'] as const;
export type TypeFilter = (typeof TYPE_FILTERS)[number];

export const TYPE_OF_FILTER: Record<TypeFilter, ProductType> = {
  product_physical: 'physical',
  product_digital: 'digital',
  ticket: 'ticket',
  service: 'service',
};

export type CategoryFilter = 'any' | Category;
export type OfferFilter = (typeof OFFER_FILTERS)[number];

export interface MarketFilters {
  /** Empty: any type. Always in the order of TYPE_FILTERS (one query per combination). */
  types: TypeFilter[];
  category: CategoryFilter;
  offer: OfferFilter;
}

export const NO_FILTERS: MarketFilters = { types: [], category: 'any', offer: 'any' };

const member = <T extends string>(values: readonly T[], value: string | null): T | undefined =>
  values.find((candidate) => candidate === value);

export function readMarketFilters(params: URLSearchParams): MarketFilters {
  const types = new Set(params.getAll('type'));
  return {
    types: TYPE_FILTERS.filter((type) => types.has(type)),
    category: member(CATEGORIES, params.get('category')) ?? 'any',
    offer: member(OFFER_FILTERS, params.get('offer')) ?? 'any',
  };
}

/** The address's query for `filters`, keeping any other parameter of `current`. */
export function writeMarketFilters(
  filters: MarketFilters,
  current: URLSearchParams = new URLSearchParams(),
): URLSearchParams {
  const next = new URLSearchParams(current);
  next.delete('type');
  next.delete('category');
  next.delete('offer');
  for (const type of TYPE_FILTERS) if (filters.types.includes(type)) next.append('type', type);
  if (filters.category !== 'any') next.set('category', filters.category);
  if (filters.offer !== 'any') next.set('offer', filters.offer);
  return next;
}

export function hasFilters(filters: MarketFilters): boolean {
  return filters.types.length > 0 || filters.category !== 'any' || filters.offer !== 'any';
}

/** The body of getofferings for the market's filters (newest first; `last` added per page). */
export function marketBody(
  filters: MarketFilters,
  limit: GetOfferingsBody['limit'],
): Partial<GetOfferingsBody> {
  return {
    types: filters.types.map((type) => TYPE_OF_FILTER[type]),
    category: filters.category,
    offer: filters.offer,
    limit,
  };
}

/** My Offerings' status filter (`?status=`): any, active, sold, closed. */
export function readMyOfferingsStatus(params: URLSearchParams): MyOfferingFilter {
  return member(MY_OFFERING_FILTERS, params.get('status')) ?? 'any';
}

/** My Bids' status filter (spec 000 §2): any, active, closed (getmybettedofferings' `status`). */
export const MY_BID_FILTERS = MY_BIDS_FILTERS;
export type MyBidFilter = MyBidsFilter;

export function readMyBidsStatus(params: URLSearchParams): MyBidFilter {
  return member(MY_BID_FILTERS, params.get('status')) ?? 'any';
}

/** `params` with `status` set (the default, any, is left out). */
export function withStatus(params: URLSearchParams, status: string): URLSearchParams {
  const next = new URLSearchParams(params);
  if (status === 'any') next.delete('status');
  else next.set('status', status);
  return next;
}
