import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { SellerSummary } from '@shared/schemas/profiles';
import { fetchSellers, sellersKeys } from '../api/sellers';
import { DIRECTORY_PAGE_SIZE } from '../sizes';

/** The seller directory, page by page (cursor), in the order the API returns. */
export function useSellerDirectory(limit: number = DIRECTORY_PAGE_SIZE) {
  return useInfiniteQuery({
    queryKey: sellersKeys.directory(limit),
    queryFn: ({ pageParam, signal }) => fetchSellers({ limit, cursor: pageParam, signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
    select: (data) => {
      // A seller whose follower count changes between pages could appear twice: keep the first.
      const seen = new Set<string>();
      const sellers: SellerSummary[] = [];
      for (const page of data.pages) {
        for (const seller of page.items) {
          if (seen.has(seller.id)) continue;
          seen.add(seller.id);
          sellers.push(seller);
        }
      }
      return { sellers, pageCount: data.pages.length };
    },
  });
}

/** The first `limit` sellers (most followed first) for the home page. */
export function useTopSellers(limit: number) {
  return useQuery({
    queryKey: sellersKeys.top(limit),
    queryFn: ({ signal }) => fetchSellers({ limit, signal }),
    select: (page) => page.items,
  });
}
