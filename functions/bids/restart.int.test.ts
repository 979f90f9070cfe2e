import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTwinEnv } from '../../infra/local/test/twin-context';
import { startWorkflowRunner, type WorkflowRunner } from '../../infra/local/workflows/runner';
import {
  call,
  hasCognito,
  logIn,
  makeAdmin,
  newUser,
  type TestUser,
} from '../accounts/testing/session';
import { allCopies } from '../items/index';
import { ordersDeps } from '../orders/index';
import { putFinishedItem } from '../items/testing/items';
import type { AuctionView } from '../../shared/schemas/bids';
import { addCard, listApproved, onboardSeller, until } from '../orders/testing/market';
import { bidsDeps } from './bids.deps';

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
let dataDir: string;
let runner: WorkflowRunner | undefined;
const saved = {
  endpoint: process.env.SFN_ENDPOINT,
  prefix: process.env.WORKFLOW_ARN_PREFIX,
};

async function startRunner(): Promise<WorkflowRunner> {
  const started = await startWorkflowRunner({
    workflowsDir: path.resolve('infra/workflows'),
    dataDir,
    port: 0,
    log: () => undefined,
  });
  process.env.SFN_ENDPOINT = started.endpoint;
  process.env.WORKFLOW_ARN_PREFIX = started.stateMachineArnPrefix;
  return started;
}

beforeAll(async () => {
  useTwinEnv();
  dataDir = mkdtempSync(path.join(tmpdir(), 'auction-restart-'));
  if (!hasCognito()) return;
  [seller, bidder, admin] = await Promise.all([newUser(RUN), newUser(RUN), newUser(RUN)]);
  await makeAdmin(admin.id);
  admin = { ...admin, ...(await logIn(admin)) };
  await Promise.all([onboardSeller(seller), addCard(bidder)]);
}, 180_000);

afterAll(async () => {
  await runner?.stop();
  process.env.SFN_ENDPOINT = saved.endpoint;
  process.env.WORKFLOW_ARN_PREFIX = saved.prefix;
  rmSync(dataDir, { recursive: true, force: true });
});

describe.runIf(hasCognito())('a runner restart during an auction', () => {
  it('closes once after the restart: one order, one charge, the copy with its winner', async () => {
    const item = await putFinishedItem({
      creator: { id: seller.id, nick: seller.nick },
      copies: 1,
      product_type: 'digital',
    });
    const offering = await listApproved(seller, admin, item.id, {
      type: 'auction',
      price: 1_000,
      end_at: new Date(Date.now() + 2 * 3_600_000).toISOString(),
    });
    const placed = await call<AuctionView>('POST', `/api/users/${bidder.id}/bid/create`, {
      token: bidder.accessToken,
      body: { offeringid: offering.id, bidprice: 1_000, currency: 'EUR', quantity: 1 },
    });
    expect(placed.status).toBe(201);

    // The lot now ends in 4 seconds; its close runs on this test's runner.
    const deps = bidsDeps();
    const lot = await deps.repo.getLot(offering.id);
    if (lot === undefined) throw new Error('no lot');
    const end = new Date(Date.now() + 4_000).toISOString();
    expect(
      await deps.repo.saveLot(
        { ...lot, auction: { ...lot.auction, end_at: end }, version: lot.version + 1 },
        lot.version,
      ),
    ).toBe(true);
    runner = await startRunner();
    await bidsDeps().startClose(offering.id, 'resume', new Date());
    await new Promise((resolve) => setTimeout(resolve, 500));
    // The runner goes down while the workflow waits, and stays down past the end.
    await runner.stop();
    runner = undefined;
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect((await deps.repo.getLot(offering.id))?.phase).toBe('open');

    runner = await startRunner();
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
    const copies = await allCopies(ordersDeps().items, item.id);
    expect(copies.map((copy) => copy.owner_id)).toEqual([bidder.id]);
  }, 120_000);
});
