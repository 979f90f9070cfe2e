import { call, newAdmin, newUser, type TestUser } from '../../accounts/testing/session';
import { putFinishedItem } from '../../items/testing/items';
import { addCard, listApproved, onboardSeller, until } from '../../orders/testing/market';
import type { AuctionView } from '../../../shared/schemas/bids';
import type { ListingContract, OfferingDetail } from '../../../shared/schemas/offerings';
import { bidsDeps } from '../bids.deps';
import type { BidsRepo } from '../bids.repo';

/**
 * For integration tests of auctions (issue 13): the cast (a seller onboarded on the Stripe twin,
 * support, bidders with their cards saved on the twin's hosted page), an auction lot listed and
 * approved through the listing workflow, bids and the lot as the gateway answers them, and the
 * lot's record once the publication's effects wrote it.
 */
export const HOUR = 3_600_000;

/** The Stripe twin's card that pays without asking (addCard's default). */
export const DEFAULT_CARD = '4242424242424242';

export interface AuctionCast<Name extends string> {
  seller: TestUser;
  admin: TestUser;
  bidders: Record<Name, TestUser>;
}

/**
 * New users for `run`: a seller onboarded (Connect Express, verified), support (admin) and a
 * bidder per name of `cards`, with that card saved (null: no card).
 */
export async function auctionCast<Name extends string>(
  run: string,
  cards: Record<Name, string | null>,
): Promise<AuctionCast<Name>> {
  const entries = Object.entries(cards) as [Name, string | null][];
  const [seller, admin, bidders] = await Promise.all([
    newUser(run),
    newAdmin(run),
    Promise.all(entries.map(async ([name]) => [name, await newUser(run)] as const)),
  ]);
  await Promise.all([
    onboardSeller(seller),
    ...bidders.map(([, bidder], index) => {
      const card = entries[index]?.[1] ?? null;
      return card === null ? undefined : addCard(bidder, card);
    }),
  ]);
  return { seller, admin, bidders: Object.fromEntries(bidders) as Record<Name, TestUser> };
}

/**
 * A digital item of the seller's with `copies` copies, listed at auction (starting price 10.00,
 * ending in `endsIn`) and approved by `admin`; `extra` replaces any of the listing's fields.
 */
export async function listAuction(
  cast: { seller: TestUser; admin: TestUser },
  copies: number,
  options: { title?: string; endsIn?: number; extra?: Partial<ListingContract> } = {},
): Promise<OfferingDetail> {
  const { seller, admin } = cast;
  const item = await putFinishedItem({
    creator: { id: seller.id, nick: seller.nick },
    copies,
    product_type: 'digital',
    ...(options.title === undefined ? {} : { title: options.title }),
  });
  return listApproved(seller, admin, item.id, {
    type: 'auction',
    copies,
    price: 1_000,
    multi_copy: copies > 1,
    end_at: new Date(Date.now() + (options.endsIn ?? 3 * HOUR)).toISOString(),
    ...options.extra,
  });
}

/** POST bid/create for the user (in EUR, one copy unless `body` says otherwise). */
export const placeBid = (user: TestUser, offeringId: string, body: Record<string, unknown>) =>
  call<AuctionView>('POST', `/api/users/${user.id}/bid/create`, {
    token: user.accessToken,
    body: { offeringid: offeringId, currency: 'EUR', quantity: 1, ...body },
  });

/** The lot as bid/getbyofferingid answers it, to the user or to a guest. */
export const lotOf = (offeringId: string, user?: TestUser) =>
  call<AuctionView>('GET', `/api/users/${user?.id ?? '-'}/bid/getbyofferingid/${offeringId}`, {
    token: user?.accessToken,
  });

export type LotRecord = NonNullable<Awaited<ReturnType<BidsRepo['getLot']>>>;

/**
 * The lot's record (written by the publication's effects, a moment after the approval), once
 * `ready` holds for it.
 */
export async function writtenLot(
  offeringId: string,
  ready: (lot: LotRecord) => boolean = () => true,
): Promise<LotRecord> {
  const lot = await until(
    () => bidsDeps().repo.getLot(offeringId),
    (found) => found !== undefined && ready(found),
  );
  if (lot === undefined) throw new Error('no lot');
  return lot;
}

export { bidBudget, bidInput, SAVED_CARD } from './inputs';
