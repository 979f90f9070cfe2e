import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownWorkflowRunner } from '../../infra/local/test/own-runner';
import { useTwinEnv } from '../../infra/local/test/twin-context';
import { hasCognito, newAdmin, newUser, type TestUser } from '../accounts/testing/session';
import { allCopies } from '../items/index';
import { putFinishedItem } from '../items/testing/items';
import { markOnboarded } from '../profiles/testing/sellers';
import { preorder } from './booking';
import { ordersDeps } from './orders.deps';
import { listApproved, until } from './testing/market';

/**
 * A restart of the twin's workflow runner in the middle of a booking (issue 12 §3): the booking's
 * expiry runs on a runner of this test (the same ASL and handlers, executions kept in a data dir),
 * which is stopped while the booking-expiry workflow waits and started again on the same data dir
 * after the expiry passed. The booking then expires exactly once: the copy is free again, the
 * offering keeps it, and the timeline has one `order_expired`.
 */
const RUN = `ox${Date.now().toString(36)}`;
let seller: TestUser;
let buyer: TestUser;
let admin: TestUser;
const runner = ownWorkflowRunner('booking-restart-');

beforeAll(async () => {
  useTwinEnv();
  if (!hasCognito()) return;
  [seller, buyer, admin] = await Promise.all([newUser(RUN), newUser(RUN), newAdmin(RUN)]);
  await markOnboarded(seller.id);
}, 120_000);

afterAll(() => runner.dispose());

describe.runIf(hasCognito())('a runner restart during a booking', () => {
  it('expires the booking once after the restart; the copy is free again', async () => {
    const item = await putFinishedItem({
      creator: { id: seller.id, nick: seller.nick },
      copies: 1,
      product_type: 'digital',
    });
    // Started 9 minutes ago (the list form's slack is 10), so a booking "made" 5 minutes ago is
    // within the sale and its expiry comes in a few seconds.
    const offering = await listApproved(seller, admin, item.id, {
      copies: 1,
      start_at: new Date(Date.now() - 9 * 60_000).toISOString(),
    });
    await runner.start();
    const deps = ordersDeps();
    const madeAt = new Date(Date.now() - 5 * 60_000 + 4_000);
    const order = await preorder(
      deps,
      {
        callerId: buyer.id,
        offeringId: offering.id,
        quantity: 1,
        postaladdress: null,
        idempotencyKey: undefined,
      },
      madeAt,
    );
    expect(order.status).toBe('accepted');
    // The runner goes down while the workflow waits, and stays down past the expiry.
    await runner.stop();
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    expect((await deps.repo.get(order.id))?.status).toBe('accepted');
    await runner.start();
    const expired = await until(
      () => deps.repo.get(order.id),
      (record) => record?.status === 'order_expired',
      30_000,
    );
    expect(expired?.timeline.filter((entry) => entry.status === 'order_expired')).toHaveLength(1);
    const [copy] = await allCopies(deps.items, item.id);
    expect(copy).toMatchObject({ status: 'blocked', offering_id: offering.id });
    expect(copy?.order_id).toBeUndefined();
    // Free again: another booking takes it.
    const again = await preorder(
      deps,
      {
        callerId: buyer.id,
        offeringId: offering.id,
        quantity: 1,
        postaladdress: null,
        idempotencyKey: undefined,
      },
      new Date(),
    );
    expect(again.lineItems[0]?.nftuniqueids).toEqual(order.lineItems[0]?.nftuniqueids);
  });
});
