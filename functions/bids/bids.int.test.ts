import { beforeAll, describe, expect, it } from 'vitest';
import { streamsSettled, useTwinEnv } from '../../infra/local/test/twin-context';
import { call, hasCognito, type TestUser } from '../accounts/testing/session';
import {
  CONTENDING_MARGIN,
  contending,
  replay,
  standingOf,
  type BookAction,
  type BookEntry,
} from '../../shared/auction';
import type { AuctionView, MyBidsPage } from '../../shared/schemas/bids';
import type { ListingContract, OfferingDetail } from '../../shared/schemas/offerings';
import type { CardPayment, Order } from '../../shared/schemas/orders';
import type { NotificationPage } from '../../shared/schemas/notifications';
import { putSellers, sellerProfile } from '../profiles/testing/sellers';
import { ordersDeps } from '../orders/index';
import { expireBooking, until } from '../orders/testing/market';
import { bidsDeps } from './bids.deps';
import { sweepAuctions } from './close';
import { createBid, type BidInput } from './place';
import { bidsRoutes } from './bids.routes';
import { invokeWithin } from '../../infra/local/invocation';
import { timeoutOf } from '../core/budgets';
import { invocationBudget } from '../core/clock';
import { isDomainError } from '../core/errors';
import type { BidsDeps } from './ports';
import {
  auctionCast,
  bidBudget,
  bidInput,
  DEFAULT_CARD,
  listAuction,
  lotOf,
  placeBid as bid,
  SAVED_CARD,
  writtenLot,
} from './testing/lots';

/**
 * Bidding on the twin (issue 13 §1, §3): real users through the gateway (saved cards on the Stripe
 * twin, auctions listed and approved through the listing workflow), and 200 bidders racing on one
 * lot through the use case, checked against the rules replayed from the lot's log.
 */
const RUN = `bd${Date.now().toString(36)}`;
let seller: TestUser;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let admin: TestUser;

beforeAll(async () => {
  useTwinEnv();
  if (!hasCognito()) return;
  ({
    seller,
    admin,
    bidders: { alice, bob, carol },
  } = await auctionCast(RUN, { alice: DEFAULT_CARD, bob: DEFAULT_CARD, carol: null }));
}, 180_000);

/** Every number in a JSON value, however deep. */
function numbersIn(value: unknown): number[] {
  if (typeof value === 'number') return [value];
  if (value === null || typeof value !== 'object') return [];
  return Object.values(value).flatMap(numbersIn);
}

/**
 * A bid through the use case as bid/create's handler runs it: one invocation held to the route's
 * budget as the twin holds every handler (stopped at its timeout, its later I/O refused), the
 * use case given the invocation's countdown. Answers the status the gateway would: 201, the
 * refusal's, or 500 for an invocation stopped at its timeout (or anything unexpected).
 */
async function invokeBid(
  deps: BidsDeps,
  input: BidInput,
): Promise<{ status: number; code?: string; ms: number }> {
  const started = Date.now();
  try {
    await invokeWithin(
      {
        functionName: 'market-createBid',
        handler: bidsRoutes.createBid.handler,
        timeoutSeconds: timeoutOf(bidsRoutes.createBid),
        region: 'us-east-1',
      },
      (context) =>
        createBid(
          deps,
          input,
          new Date(),
          invocationBudget(() => context.getRemainingTimeInMillis()),
        ),
    );
    return { status: 201, ms: Date.now() - started };
  } catch (error) {
    const ms = Date.now() - started;
    if (isDomainError(error)) return { status: error.status, code: error.code, ms };
    return { status: 500, code: String(error), ms };
  }
}

const auction = (copies: number, extra: Partial<ListingContract> = {}) =>
  listAuction({ seller, admin }, copies, { title: 'Lot', extra });

describe('bidding through the gateway', () => {
  it('the rules, the card, the proxy, the list, My Bids, delisting and retraction', async (context) => {
    if (!hasCognito()) return context.skip();
    const offering: OfferingDetail = await auction(1);

    const noCard = await bid(carol, offering.id, { bidprice: 1_000 });
    expect(noCard.status).toBe(402);
    expect(noCard.json.error.code).toBe('market.bid.errors.no_card');
    const own = await bid(seller, offering.id, { bidprice: 1_000 });
    expect(own.status).toBe(403);
    expect(own.json.error.code).toBe('market.bid.errors.own_offering');
    const low = await bid(alice, offering.id, { bidprice: 999 });
    expect(low.status).toBe(400);
    expect(low.json.error.code).toBe('market.bid.errors.too_low');
    // A refusal says the smallest bid the lot takes now: no read needed to bid again.
    expect(low.json.error.details).toEqual({ minimBid: 1_000 });
    const currency = await bid(alice, offering.id, { bidprice: 1_000, currency: 'USD' });
    expect(currency.json.error.code).toBe('market.bid.errors.currency');
    const two = await bid(alice, offering.id, { bidprice: 1_000, quantity: 2 });
    expect(two.json.error.code).toBe('market.bid.errors.quantity');

    const first = await bid(alice, offering.id, { bidprice: 1_000 });
    expect(first.status).toBe(201);
    expect(first.json.data).toMatchObject({
      highestBid: 1_000,
      minimBid: 1_050,
      bids: 1,
      mine: { status: 'active', price: 1_000, card: { last4: '4242' } },
    });

    const beaten = await bid(bob, offering.id, { bidprice: 1_040 });
    expect(beaten.status).toBe(409);
    expect(beaten.json.error.code).toBe('market.bid.errors.beaten');
    expect(beaten.json.error.details).toEqual({ minimBid: 1_050 });

    const proxy = await bid(bob, offering.id, { bidprice: 1_050, maxbid: 5_000 });
    expect(proxy.status).toBe(201);
    expect(proxy.json.data.mine).toMatchObject({ status: 'active', price: 1_050, max: 5_000 });

    // Alice bids 20.00: Bob's maximum answers at once, one increment above.
    const again = await bid(alice, offering.id, { bidprice: 2_000 });
    expect(again.status).toBe(201);
    expect(again.json.data.mine?.status).toBe('outbid');
    expect(again.json.data.highestBid).toBe(2_050);

    const guest = await lotOf(offering.id);
    expect(guest.status).toBe(200);
    expect(guest.json.data.mine).toBeNull();
    expect(
      guest.json.data.bidlist.map((entry) => [entry.nick, entry.amount, entry.status]),
    ).toEqual([
      [bob.nick, 2_050, 'active'],
      [alice.nick, 2_000, 'outbid'],
    ]);
    // Bob's maximum stays secret to others: no amount in the view is it (read as numbers: a nick
    // made of digits may contain 5000 by chance).
    expect(numbersIn(guest.json.data)).not.toContain(5_000);

    const delist = await call('POST', `/api/users/${seller.id}/offering/delist/${offering.id}`, {
      token: seller.accessToken,
    });
    expect(delist.status).toBe(409);
    expect(delist.json.error.code).toBe('market.offering.errors.has_bids');

    const mine = await call<MyBidsPage>(
      'POST',
      `/api/users/${alice.id}/offering/getmybettedofferings`,
      { token: alice.accessToken, body: { status: 'active' } },
    );
    expect(mine.status).toBe(200);
    expect(mine.json.data.items.map((entry) => [entry.offering.id, entry.bid.status])).toEqual([
      [offering.id, 'outbid'],
    ]);
    const closed = await call<MyBidsPage>(
      'POST',
      `/api/users/${alice.id}/offering/getmybettedofferings`,
      { token: alice.accessToken, body: { status: 'closed' } },
    );
    expect(closed.json.data.items).toEqual([]);

    // Less than 12 hours left, but Bob bid less than an hour ago: he may retract.
    const retract = await call<AuctionView>(
      'POST',
      `/api/users/${bob.id}/bid/cancel/${offering.id}`,
      { token: bob.accessToken },
    );
    expect(retract.status).toBe(200);
    expect(retract.json.data).toMatchObject({ bids: 1, highestBid: 2_000 });
    expect(retract.json.data.mine?.status).toBe('cancelled');
    const twice = await call('POST', `/api/users/${bob.id}/bid/cancel/${offering.id}`, {
      token: bob.accessToken,
    });
    expect(twice.status).toBe(404);
    expect(twice.json.error.code).toBe('market.bid.errors.no_bid');

    // The offering's counters (the market's cards) follow: at once on the first bid, then at most
    // every 30 s, or when the sweeper finds them lagging.
    await sweepAuctions(bidsDeps(), new Date());
    const detail = await call<OfferingDetail>(
      'POST',
      `/api/users/${seller.id}/offering/getofferingbyid/${offering.id}`,
      { token: seller.accessToken, body: {} },
    );
    expect(detail.json.data).toMatchObject({ bids: 1, highest_bid: 2_000, can_delist: false });
  });

  it("what follows each bid comes from the table's stream: the seller told of each new bidder, each outbid bidder told once", async (context) => {
    if (!hasCognito()) return context.skip();
    const offering: OfferingDetail = await auction(1);
    expect((await bid(alice, offering.id, { bidprice: 1_000 })).status).toBe(201);
    expect((await bid(bob, offering.id, { bidprice: 1_500 })).status).toBe(201);
    expect((await bid(alice, offering.id, { bidprice: 2_000 })).status).toBe(201);
    // The bids answered before any of it happened; the stream trigger does it after.
    await streamsSettled();
    const about = async (user: TestUser, activity: string) => {
      const page = await call<NotificationPage>(
        'GET',
        `/api/notifications/${user.id}?section=market`,
        {
          token: user.accessToken,
        },
      );
      expect(page.status).toBe(200);
      return page.json.data.notifications.filter(
        (entry) =>
          entry.activity === activity &&
          (entry.payload as { offeringId?: string }).offeringId === offering.id,
      );
    };
    expect(
      (await about(seller, 'market_bidcreated')).map((entry) => entry.sourceid).sort(),
    ).toEqual([alice.id, bob.id].sort());
    expect((await about(alice, 'market_outbid')).map((entry) => entry.sourceid)).toEqual([bob.id]);
    expect((await about(bob, 'market_outbid')).map((entry) => entry.sourceid)).toEqual([alice.id]);
  });

  it('a private auction: only invitees bid and see it, also those invited after it opened', async (context) => {
    if (!hasCognito()) return context.skip();
    const offering = await auction(1, { access: 'private', invited: [] });
    const invite = await call(
      'POST',
      `/api/users/${seller.id}/offering/add-invitations/${offering.id}`,
      { token: seller.accessToken, body: { invitedIds: [alice.nick] } },
    );
    expect(invite.status).toBe(200);
    expect((await bid(alice, offering.id, { bidprice: 1_000 })).status).toBe(201);
    const stranger = await bid(bob, offering.id, { bidprice: 2_000 });
    expect(stranger.status).toBe(404);
    expect(stranger.json.error.code).toBe('market.offering.errors.not_found');
    expect((await lotOf(offering.id)).status).toBe(404);
    expect((await lotOf(offering.id, seller)).json.data.bids).toBe(1);
  });

  it('buy now until the first bid: the copies leave the lot, an expired booking gives them back', async (context) => {
    if (!hasCognito()) return context.skip();
    const offering = await auction(2, { buy_price: 5_000 });
    const buyNow = (user: TestUser) =>
      call<Order>('POST', `/api/users/${user.id}/offering/assigntoken2preorder`, {
        token: user.accessToken,
        body: { order: { offeringid: offering.id, quantity: 1, postaladdress: null } },
      });
    const bought = await buyNow(bob);
    expect(bought.status).toBe(201);
    expect(bought.json.data.lineItems[0]?.amount).toBe(5_000);
    const paid = await call<CardPayment>('POST', '/api/payment-gateway/create-payment-intent', {
      token: bob.accessToken,
      body: { order_id: bought.json.data.id },
    });
    expect(paid.json.data.status).toBe('succeeded');
    expect((await lotOf(offering.id)).json.data.copies).toBe(1);

    // Carol books the last copy: nothing is left to bid on while her booking runs.
    const held = await buyNow(carol);
    expect(held.status).toBe(201);
    const none = await bid(alice, offering.id, { bidprice: 1_000 });
    expect(none.status).toBe(409);
    expect(none.json.error.code).toBe('market.bid.errors.ended');
    // Her booking runs out unpaid: the copy is the bidding's again.
    await expireBooking(ordersDeps(), held.json.data.id, new Date(Date.now() + 6 * 60_000));
    expect((await lotOf(offering.id)).json.data.copies).toBe(1);
    expect((await bid(alice, offering.id, { bidprice: 1_000 })).status).toBe(201);

    // After the first bid, buy now is over.
    const late = await buyNow(bob);
    expect(late.status).toBe(409);
    expect(late.json.error.code).toBe('market.buy.errors.auction_bids');
  });

  it('buy now in a deposit auction: the deposit per copy now, the rest when the seller is ready', async (context) => {
    if (!hasCognito()) return context.skip();
    const offering = await auction(1, {
      buy_price: 5_000,
      payment_mode: 'deposit',
      deposit: 300,
    });
    const bought = await call<Order>('POST', `/api/users/${bob.id}/offering/assigntoken2preorder`, {
      token: bob.accessToken,
      body: { order: { offeringid: offering.id, quantity: 1, postaladdress: null } },
    });
    expect(bought.status).toBe(201);
    expect(bought.json.data).toMatchObject({ payment_mode: 'deposit', total: 5_000, due_now: 300 });
    const paid = await call<CardPayment>('POST', '/api/payment-gateway/create-payment-intent', {
      token: bob.accessToken,
      body: { order_id: bought.json.data.id },
    });
    expect(paid.json.data.status).toBe('succeeded');
    const order = await until(
      () =>
        call<Order>('POST', '/api/order/retrievebyid', {
          token: bob.accessToken,
          body: { order_id: bought.json.data.id },
        }),
      (answer) => answer.json.data.status === 'checkout_complete',
    );
    expect(order.json.data).toMatchObject({ paid: 300, balance_due: 4_700 });
  });

  it("two tabs of one bidder: the bid's transaction hands back their entry when it moved on and writes nothing", async (context) => {
    if (!hasCognito()) return context.skip();
    const offering = await auction(1);
    expect((await bid(alice, offering.id, { bidprice: 1_000 })).status).toBe(201);
    const repo = bidsDeps().repo;
    const lot = await writtenLot(offering.id);
    const entry = await repo.getBidder(offering.id, alice.id);
    if (entry === undefined) throw new Error('no entry');
    expect(entry).toMatchObject({ version: 1, card: { last4: '4242' }, cancelled_at: null });
    // The lot lost the card with the move to the entries.
    expect(JSON.stringify(lot)).not.toContain(entry.card?.id ?? 'none');
    const at = new Date().toISOString();
    const line = {
      index: lot.log,
      kind: 'bid' as const,
      bidder_id: alice.id,
      nick: entry.nick,
      amount: 1_100,
      max: 1_100,
      quantity: 1,
      seq: lot.auction.seq + 1,
      at,
    };
    const next = { ...lot, log: lot.log + 1, version: lot.version + 1 };
    const note = { version: next.version, line };
    // This tab's entry is one version behind: the other tab's bid came first.
    const stale = await repo.commit(next, lot.version, note, [{ ...entry, last_at: at }]);
    expect(stale).toMatchObject({ written: false, bidder: { current: entry } });
    expect((await writtenLot(offering.id)).version).toBe(lot.version);
    await streamsSettled();
    expect(await repo.logOf(offering.id)).toHaveLength(1);
    // On the entry as it stands, the write goes through; the stream writes its log line.
    const written = await repo.commit(next, lot.version, note, [
      { ...entry, last_at: at, version: entry.version + 1 },
    ]);
    expect(written).toEqual({ written: true });
    expect(await repo.getBidder(offering.id, alice.id)).toMatchObject({
      version: 2,
      last_at: at,
      first_at: entry.first_at,
    });
    await streamsSettled();
    expect((await repo.logOf(offering.id)).map((entry) => entry.amount)).toEqual([1_000, 1_100]);
  });

  it('a rebid that keeps its bidder in the lot writes the lot alone; the stream writes its line and brings the entry up to it', async (context) => {
    if (!hasCognito()) return context.skip();
    const offering = await auction(1);
    expect((await bid(alice, offering.id, { bidprice: 1_000 })).status).toBe(201);
    expect((await bid(bob, offering.id, { bidprice: 1_500 })).status).toBe(201);
    const repo = bidsDeps().repo;
    const before = await repo.getBidder(offering.id, alice.id);
    const rebid = await bid(alice, offering.id, { bidprice: 2_000 });
    expect(rebid.status).toBe(201);
    expect(rebid.json.data.mine).toMatchObject({ status: 'active', max: 2_000 });
    // My Bids shows the new bid at once: it reads the lot's book, not the entry.
    const mine = await call<MyBidsPage>(
      'POST',
      `/api/users/${alice.id}/offering/getmybettedofferings`,
      { token: alice.accessToken, body: { status: 'active' } },
    );
    expect(mine.json.data.items.map((entry) => [entry.offering.id, entry.bid.max])).toContainEqual([
      offering.id,
      2_000,
    ]);
    await streamsSettled();
    // The entry was not written with the lot (its version stands); the stream brought it up.
    expect(await repo.getBidder(offering.id, alice.id)).toMatchObject({
      version: before?.version,
      standing: { amount: 2_000 },
      lot_version: (await writtenLot(offering.id)).version,
    });
    const log = await repo.logOf(offering.id);
    expect(log.map((line) => [line.index, line.bidder_id, line.amount])).toEqual([
      [0, alice.id, 1_000],
      [1, bob.id, 1_500],
      [2, alice.id, 2_000],
    ]);
  });

  it('below a hidden reserve bids compete: the leader leads at their price, the others are outbid, the threshold moves', async (context) => {
    if (!hasCognito()) return context.skip();
    const offering = await auction(1, { reserve_price: 5_000 });
    expect((await bid(alice, offering.id, { bidprice: 2_000, maxbid: 3_000 })).status).toBe(201);
    const beaten = await bid(bob, offering.id, { bidprice: 2_100 });
    expect(beaten.status).toBe(201);
    // Alice's proxy keeps the lead one increment above Bob, her maximum unseen.
    const below = (await lotOf(offering.id, bob)).json.data;
    expect(below).toMatchObject({ reserve: 'not_met', highestBid: 2_150, minimBid: 2_200 });
    expect(below.bidlist.map((entry) => [entry.nick, entry.amount, entry.status])).toEqual([
      [alice.nick, 2_150, 'active'],
      [bob.nick, 2_100, 'outbid'],
    ]);
    const tooLow = await bid(bob, offering.id, { bidprice: 2_150 });
    expect(tooLow.json.error.code).toBe('market.bid.errors.beaten');
    expect(tooLow.json.error.details).toEqual({ minimBid: 2_200 });

    // Bob's maximum reaches the reserve: he wins at it, and Alice is outbid.
    expect((await bid(bob, offering.id, { bidprice: 2_200, maxbid: 6_000 })).status).toBe(201);
    const met = (await lotOf(offering.id, alice)).json.data;
    expect(met).toMatchObject({ reserve: 'met', highestBid: 5_000, minimBid: 5_100 });
    expect(met.mine?.status).toBe('outbid');
    expect(met.bidlist.map((entry) => [entry.nick, entry.amount, entry.status])).toEqual([
      [bob.nick, 5_000, 'active'],
      [alice.nick, 3_000, 'outbid'],
    ]);
  });

  it('an auction without bids can be delisted; a bid after that is refused', async (context) => {
    if (!hasCognito()) return context.skip();
    const offering = await auction(1);
    const delist = await call('POST', `/api/users/${seller.id}/offering/delist/${offering.id}`, {
      token: seller.accessToken,
    });
    expect(delist.status).toBe(200);
    const late = await bid(alice, offering.id, { bidprice: 1_000 });
    expect(late.status).toBe(409);
    expect(late.json.error.code).toBe('market.bid.errors.ended');
  });
});

describe('200 bidders racing on one lot (issue 13 §3)', () => {
  it.each([
    [1, 'single-copy'],
    [10, '10-copy'],
  ])(
    '%i copies (%s): no bid lost, none below its threshold, the lot equals its log replayed',
    async (copies) => {
      if (!hasCognito()) return;
      const offering = await auction(copies);
      const bidders = Array.from({ length: 200 }, (_, index) =>
        sellerProfile(`${RUN}${copies}x${index}`.slice(0, 20), 0),
      );
      await putSellers(...bidders);
      const deps: BidsDeps = { ...bidsDeps(), cardsOf: () => Promise.resolve([SAVED_CARD]) };
      let seed = copies;
      const random = () => {
        seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
        return seed / 2 ** 31;
      };
      const inputs = bidders.map((profile) => {
        const amount = 1_000 + Math.floor(random() * 400) * 50;
        return bidInput(profile.id, offering.id, amount, {
          maxbid: random() < 0.4 ? amount + Math.floor(random() * 100) * 50 : null,
          quantity: copies > 1 ? 1 + Math.floor(random() * 3) : 1,
        });
      });
      // Launched lowest first, as bids climb on a real hot lot: were the highest bid to land first,
      // the rules would rightly refuse all the others and the race would accept a single write.
      const launch = [...inputs].sort((a, b) => a.bidprice - b.bidprice);
      const started = Date.now();
      const answers = await Promise.all(launch.map((input) => invokeBid(deps, input)));
      const outcomes = inputs.map((input) => {
        const answer = answers[launch.indexOf(input)];
        if (answer === undefined) throw new Error('a bid without its answer');
        return answer;
      });
      const accepted = inputs.filter((_, index) => outcomes[index]?.status === 201);
      // Every bid is accepted (201) or refused by a rule (beaten, too low), within its budget:
      // none is 503 'Error sending bid' (the lot busy), none a 500 (an invocation stopped at its
      // timeout, or anything unexpected).
      const rules = ['market.bid.errors.beaten', 'market.bid.errors.too_low'];
      const other = outcomes.filter(
        (answer) => answer.status !== 201 && !rules.includes(answer.code ?? ''),
      );
      expect(other).toEqual([]);
      const slowest = Math.max(...outcomes.map((answer) => answer.ms));
      console.info(
        `${copies} copies: 200 bids in ${Date.now() - started} ms, ${accepted.length} accepted, ` +
          `the slowest answered in ${slowest} ms (budget ${timeoutOf(bidsRoutes.createBid)} s)`,
      );
      expect(accepted.length).toBeGreaterThan(copies);

      // The log lines and the entries of rebids that wrote the lot alone come from the stream.
      await streamsSettled();
      const lot = await deps.repo.getLot(offering.id);
      const log = await deps.repo.logOf(offering.id);
      if (lot === undefined) throw new Error('no lot');
      // No accepted bid lost: one log line per accepted answer, each as it was sent.
      expect(log).toHaveLength(accepted.length);
      expect(log.map((line) => line.index)).toEqual(log.map((_, index) => index));
      for (const input of accepted) {
        const line = log.find((entry) => entry.bidder_id === input.callerId);
        expect(line).toMatchObject({
          kind: 'bid',
          amount: input.bidprice,
          max: input.maxbid ?? input.bidprice,
          quantity: input.quantity,
        });
      }
      // The lot is its log replayed through the rules, in acceptance order (each line beat the
      // threshold of the lot as it stood then: replay throws otherwise).
      const actions: BookAction[] = log.map((line) => ({
        kind: 'bid',
        at: line.at,
        bid: {
          bidder_id: line.bidder_id,
          bidder_nick: line.nick,
          amount: line.amount,
          max: line.max,
          quantity: line.quantity,
        },
      }));
      const initial = {
        ...lot.auction,
        seq: 0,
        book: [],
        bidders: 0,
        end_at: lot.scheduled_end_at,
      };
      const whole = replay(initial, actions);
      expect(whole.book).toHaveLength(accepted.length);
      // Every accepted bid stands on its bidder's entry: the entries hold the whole book.
      const byBidder = (book: readonly BookEntry[]) =>
        [...book].sort((a, b) => a.bidder_id.localeCompare(b.bidder_id));
      const entries = await deps.repo.biddersOf(offering.id);
      expect(
        byBidder(entries.flatMap((entry) => (entry.standing ? [entry.standing] : []))),
      ).toEqual(byBidder(whole.book));
      // The lot is the whole book's contending part: the leading bids alone, the same standing.
      const leading = contending(whole).state;
      expect({ ...lot.auction, book: byBidder(lot.auction.book) }).toEqual({
        ...leading,
        book: byBidder(leading.book),
      });
      expect(lot.auction.book.length).toBeLessThanOrEqual(copies + CONTENDING_MARGIN);
      const view = await lotOf(offering.id);
      expect(view.json.data.bids).toBe(accepted.length);
      expect(view.json.data.bidlist.reduce((sum, entry) => sum + entry.copies, 0)).toBe(copies);
    },
    180_000,
  );

  it('20 bidders rebidding against each other: rebids (the lot alone, or decided in its queue), bidders pushed out and coming back; nothing lost, the entries and the log agree with the lot', async () => {
    if (!hasCognito()) return;
    const offering = await auction(1);
    const bidders = Array.from({ length: 20 }, (_, index) =>
      sellerProfile(`${RUN}rb${index}`.slice(0, 20), 0),
    );
    await putSellers(...bidders);
    const deps: BidsDeps = { ...bidsDeps(), cardsOf: () => Promise.resolve([SAVED_CARD]) };
    const accepted: string[] = [];
    const refusals = new Set<string>();
    // Each bidder bids from the minimum as the lot stands when they look, ten times over: most
    // bids are rebids, some of bidders the lot's book holds (the lot alone), some of bidders it
    // left out.
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    await Promise.all(
      bidders.map(async (profile) => {
        for (let round = 0; round < 10; round += 1) {
          // Bidders look at different moments, as people do.
          await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 40)));
          const lot = await deps.repo.getLot(offering.id);
          const minimum = lot === undefined ? 1_000 : standingOf(lot.auction).min_next;
          // Above the minimum by 0 to 3 steps, some with a maximum: fewer ties, more rebids.
          const amount = minimum + Math.floor(random() * 4) * 50;
          const maxbid = random() < 0.3 ? amount + Math.floor(random() * 10) * 50 : null;
          try {
            await createBid(
              deps,
              bidInput(profile.id, offering.id, amount, { maxbid }),
              new Date(),
              bidBudget(),
            );
            accepted.push(profile.id);
          } catch (error) {
            refusals.add((error as { code?: string }).code ?? String(error));
          }
        }
      }),
    );
    // Only the rules refuse: beaten, too low, or below the bidder's own standing bid (a winner whose
    // proxy price is below what they bid, bidding the minimum).
    const rules = ['beaten', 'too_low', 'not_higher'].map((code) => `market.bid.errors.${code}`);
    expect([...refusals].filter((code) => !rules.includes(code))).toEqual([]);
    expect(accepted.length).toBeGreaterThan(10);
    await streamsSettled();
    const lot = await writtenLot(offering.id);
    const log = await deps.repo.logOf(offering.id);
    // Every accepted bid has its line, in acceptance order, and the lot is the log replayed.
    expect(log).toHaveLength(accepted.length);
    expect(log.map((line) => line.index)).toEqual(log.map((_, index) => index));
    const whole = replay(
      { ...lot.auction, seq: 0, book: [], bidders: 0, end_at: lot.scheduled_end_at },
      log.map((line) => ({
        kind: 'bid' as const,
        at: line.at,
        bid: {
          bidder_id: line.bidder_id,
          bidder_nick: line.nick,
          amount: line.amount,
          max: line.max === line.amount ? null : line.max,
          quantity: line.quantity,
        },
      })),
    );
    const byBidder = (book: readonly BookEntry[]) =>
      [...book].sort((a, b) => a.bidder_id.localeCompare(b.bidder_id));
    const leading = contending(whole).state;
    expect(byBidder(lot.auction.book)).toEqual(byBidder(leading.book));
    // Every bidder's entry, once the stream settled, holds their last bid; those the lot left out
    // held it from the write that left them out.
    const entries = await deps.repo.biddersOf(offering.id);
    expect(entries).toHaveLength(new Set(accepted).size);
    expect(byBidder(entries.flatMap((entry) => (entry.standing ? [entry.standing] : [])))).toEqual(
      byBidder(whole.book),
    );
    for (const entry of entries) expect(entry.lot_version ?? 0).toBeLessThanOrEqual(lot.version);
    // Entries written again (a bidder left out, coming back, or decided in the hot lot's queue,
    // which writes each entry with the lot). A rebid that wrote the lot alone left its entry to
    // the stream (fewer entry writes than bids); on a lot this hot most go through the queue, so
    // that path is counted, not required (the gateway's test above makes it happen).
    const bidsOf = new Map<string, number>();
    for (const id of accepted) bidsOf.set(id, (bidsOf.get(id) ?? 0) + 1);
    expect(entries.some((entry) => entry.version > 1)).toBe(true);
    const alone = entries.filter((entry) => entry.version < (bidsOf.get(entry.bidder_id) ?? 0));
    console.info(
      `20 bidders: ${accepted.length} bids accepted, ${alone.length} bidders with a rebid that wrote the lot alone`,
    );
  }, 180_000);
});
