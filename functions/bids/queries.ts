import type {
  AssignedTokens,
  AuctionView,
  MyBidsFilter,
  MyBidsPage,
} from '../../shared/schemas/bids';
import { standingOf } from '../../shared/auction';
import { DomainError } from '../core/errors';
import { loadLot, lotOfOffering } from './place';
import { mayBid, myBidOf, reserveState, viewOf } from './lot';
import type { BidsDeps } from './ports';

/**
 * The bid lists (issue 13 §6): `GET users/{id|-}/bid/getbyofferingid/{offeringid}` (the lot as
 * bidders see it) and `POST users/{id}/offering/getmybettedofferings` (My Bids).
 */

export async function getBidsByOffering(
  deps: BidsDeps,
  input: { callerId: string | null; offeringId: string },
  now: Date,
): Promise<AuctionView> {
  const caller = input.callerId;
  const [{ lot }, mine] = await Promise.all([
    loadLotForView(deps, input.offeringId),
    caller === null ? undefined : deps.repo.getBidder(input.offeringId, caller),
  ]);
  if (!(await mayBid(lot, caller, deps.offerings.isInvited))) {
    throw new DomainError('market.offering.errors.not_found', {
      message: 'This offering could not be found.',
    });
  }
  return viewOf(lot, mine, now);
}

/** A lot to show: an auction that ended before any bid still has its (empty) lot to show. */
async function loadLotForView(deps: BidsDeps, offeringId: string) {
  try {
    return await loadLot(deps, offeringId);
  } catch (error) {
    if (!(error instanceof DomainError) || error.code !== 'market.bid.errors.ended') throw error;
    const offering = await deps.offerings.get(offeringId);
    if (offering === undefined) throw error;
    const lot = await lotOfOffering(deps, offering);
    return { lot: { ...lot, phase: 'closed' as const }, expected: 0 };
  }
}

/** `POST users/{id}/offering/getassignedtokens`: the copies the caller won (or was offered). */
export async function getAssignedTokens(
  deps: BidsDeps,
  input: { callerId: string; offeringId: string },
): Promise<AssignedTokens> {
  const lot = await deps.repo.getLot(input.offeringId);
  const offers = (lot?.offers ?? []).filter(
    (offer) => offer.bidder_id === input.callerId && offer.order_id !== null,
  );
  if (offers.length === 0) return { offeringid: input.offeringId, tokens: [] };
  const copies = await deps.orders.copies(offers.map((offer) => offer.order_id as string));
  const tokens: AssignedTokens['tokens'] = [];
  for (const offer of offers) {
    const order = copies.find((entry) => entry.order_id === offer.order_id);
    if (order === undefined || order.state === 'lapsed') continue;
    for (const serial of order.serials) {
      tokens.push({
        copy_id: `${order.item_id}-${String(serial).padStart(3, '0')}`,
        item_id: order.item_id,
        index: serial,
        order_id: order.order_id,
        assignround: offer.round === 0 ? 'winner' : 'substitute',
        price: offer.price,
        paid: order.state === 'paid',
        pay_by: order.state === 'paid' ? null : order.pay_by,
        balance_due: order.balance_due,
      });
    }
  }
  return { offeringid: input.offeringId, tokens };
}

export async function getMyBids(
  deps: BidsDeps,
  input: { callerId: string; status: MyBidsFilter; last: string | null; limit: number },
  now: Date,
): Promise<MyBidsPage> {
  const page = await deps.repo.myBids(input.callerId, input.status, input.last, input.limit);
  const ids = page.items.map((entry) => entry.offering_id);
  const [lots, cards] = await Promise.all([deps.repo.getLots(ids), deps.offerings.cards(ids, now)]);
  const lotById = new Map(lots.map((lot) => [lot.offering_id, lot]));
  const cardById = new Map(cards.map((card) => [card.id, card]));
  const items: MyBidsPage['items'] = [];
  for (const entry of page.items) {
    const lot = lotById.get(entry.offering_id);
    const card = cardById.get(entry.offering_id);
    if (lot === undefined || card === undefined) continue;
    const bid = myBidOf(lot, entry, now);
    if (bid === null) continue;
    const standing = standingOf(lot.auction);
    items.push({
      offering: card,
      bid,
      phase: lot.phase,
      end_at: lot.auction.end_at,
      highestBid: standing.highest,
      reserve: reserveState(standing),
    });
  }
  return { items, nextCursor: page.next };
}
