import { PAGE_SIZE } from '@shared/constants/limits';

/*
 * How many sellers the home strip and a directory page ask for. A module of its own: the entry
 * (app/earlyStart.ts) sends a guest's first sellers call with them before the app has arrived.
 */

/** Sellers in the home page's "Top sellers" strip. */
export const TOP_SELLERS_LIMIT = 8;

/** Sellers per page of the directory (`/sellers`). */
export const DIRECTORY_PAGE_SIZE = PAGE_SIZE.large;
