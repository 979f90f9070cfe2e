import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownWorkflowRunner } from '../../infra/local/test/own-runner';
import { useTwinEnv } from '../../infra/local/test/twin-context';
import { hasCognito, type TestUser } from '../accounts/testing/session';
import { allCopies } from '../items/index';
import { ordersDeps } from '../orders/index';
import { until } from '../orders/testing/market';
import { bidsDeps } from './bids.deps';
import { auctionCast, DEFAULT_CARD, HOUR, listAuction, placeBid, writtenLot } from './testing/lots';

/**
 * A restart of the twin's workflow runner in the middle of an auction's close (issue 13 §4): the
 * lot's auction-close workflow runs on a runner of this test (the same ASL and handlers,
 * executions kept in a data dir), which is stopped while the workflow waits for the end and
 * started again on the same data dir after the end passed. The close then happens exactly once:
 * one order, one charge, the lot closed, the copy with its winner. The lot's end is moved to a few
 * seconds from now by the test (a listing must end at least an hour ahead).
 */
const RUN = `ar${Date.now().toString(36)}`;
let seller: TestUser;
let bidder: TestUser;
let admin: TestUser;
const runner = ownWorkflowRunner('auction-restart-');

beforeAll(async () => {
  useTwinEnv();
  if (!hasCognito()) return;
  ({
    seller,
    admin,
    bidders: { bidder },
  } = await auctionCast(RUN, { bidder: DEFAULT_CARD }));
}, 180_000);

afterAll(() => runner.dispose());

describe.runIf(hasCognito())('a runner restart during an auction', () => {
  it('closes once after the restart: one order, one charge, the copy with its winner', async () => {
    const offering = await listAuction({ seller, admin }, 1, { endsIn: 2 * HOUR });
    const placed = await placeBid(bidder, offering.id, { bidprice: 1_000 });
    expect(placed.status).toBe(201);

    // The lot now ends in 4 seconds; its close runs on this test's runner. The lot's own close
    // workflow (on the twin's runner, started at publication) first takes its look and waits for
    // the next one, hours away: moved before that, the end would race it (a lot saved under the
    // test, or closed by it while this test's runner is down).
    const deps = bidsDeps();
    const lot = await writtenLot(
      offering.id,
      (found) => found.next_at !== null && Date.parse(found.next_at) > Date.now() + 60_000,
    );
    const end = new Date(Date.now() + 4_000).toISOString();
    expect(
      await deps.repo.saveLot(
        { ...lot, auction: { ...lot.auction, end_at: end }, version: lot.version + 1 },
        lot.version,
      ),
    ).toBe(true);
    await runner.start();
    await bidsDeps().startClose(offering.id, 'resume', new Date());
    await new Promise((resolve) => setTimeout(resolve, 500));
    // The runner goes down while the workflow waits, and stays down past the end.
    await runner.stop();
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect((await deps.repo.getLot(offering.id))?.phase).toBe('open');

    await runner.start();
    const closed = await until(
      () => deps.repo.getLot(offering.id),
      (found) => found?.phase === 'closed',
      60_000,
    );
    expect(closed?.offers).toHaveLength(1);
    const orderId = closed?.offers[0]?.order_id ?? '';
    const order = await ordersDeps().repo.get(orderId);
    expect(order).toMatchObject({ status: 'fulfilled', sub_scope: 'auction' });
    expect(order?.payments).toHaveLength(1);
    const copies = await allCopies(ordersDeps().items, offering.item.id);
    expect(copies.map((copy) => copy.owner_id)).toEqual([bidder.id]);
  }, 120_000);
});
