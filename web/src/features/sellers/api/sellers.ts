import type { SellerPage } from '@shared/schemas/profiles';
import { apiGet } from '../../../lib/api';

export const sellersKeys = {
  all: ['sellers'] as const,
  directory: (limit: number) => [...sellersKeys.all, 'directory', limit] as const,
  top: (limit: number) => [...sellersKeys.all, 'top', limit] as const,
};

export interface FetchSellersParams {
  limit: number;
  cursor?: string | null;
  signal?: AbortSignal;
}

/** GET /api/users/sellers?limit&cursor → `{ data: { items: SellerSummary[], nextCursor } }`. */
export function fetchSellers({ limit, cursor, signal }: FetchSellersParams): Promise<SellerPage> {
  return apiGet('/users/sellers', {
    query: { limit, cursor: cursor ?? undefined },
    // The schema (and zod) load with the call, not with the page: the page is live before.
    schema: () => import('@shared/schemas/profiles').then((module) => module.sellerPageSchema),
    signal,
  });
}
