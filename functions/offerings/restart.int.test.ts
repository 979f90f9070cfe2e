import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownWorkflowRunner } from '../../infra/local/test/own-runner';
import { useTwinEnv } from '../../infra/local/test/twin-context';
import { dynamoDocumentClient } from '../core/clients';
import { readEnv } from '../core/env';
import { executionName, startWorkflow } from '../core/workflows';
import { hasCognito, newUser, type TestUser } from '../accounts/testing/session';
import { putFinishedItem } from '../items/testing/items';
import { allCopies, createItemsRepo } from '../items/index';
import { markOnboarded } from '../profiles/testing/sellers';
import { createOffering } from './create-offering';
import { validateOffering } from './manage';
import { marketPartition } from './offerings.keys';
import { offeringsDeps } from './offerings.deps';
import type { OfferingsDeps } from './ports';

/**
 * A restart of the twin's workflow runner in the middle of a listing (issue 11 §2): the listing
 * runs on a runner of this test (the same ASL and handlers, executions kept in a data dir), which
 * is stopped while the offering waits for support and started again on the same data dir. The
 * callback keeps its token; support's decision then finishes the listing once: one set of market
 * entries, one notification, the copies reserved once.
 */
const RUN = `rs${Date.now().toString(36)}`;
let seller: TestUser;
const runner = ownWorkflowRunner('listing-restart-');

beforeAll(async () => {
  useTwinEnv();
  if (!hasCognito()) return;
  seller = await newUser(RUN);
  await markOnboarded(seller.id);
}, 120_000);

afterAll(() => runner.dispose());

function deps(): OfferingsDeps {
  return {
    ...offeringsDeps(),
    async startListing(offeringId) {
      await startWorkflow({
        workflow: 'listing',
        name: executionName('listing', offeringId),
        input: { offeringId },
      });
    },
  };
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 30_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.runIf(hasCognito())('a restart of the workflow runner mid-listing', () => {
  it('finishes the listing once after the restart', async () => {
    await runner.start();
    const item = await putFinishedItem({ creator: seller, copies: 60, title: `Restart ${RUN}` });
    const now = new Date();
    const progress = await createOffering(
      deps(),
      seller.id,
      {
        item_id: item.id,
        type: 'fixed',
        copies: 60,
        currency: 'USD',
        price: 1000,
        payment_mode: 'fullprice',
        deposit: null,
        buy_price: null,
        reserve_price: null,
        multi_copy: false,
        start_at: now.toISOString(),
        end_at: new Date(now.getTime() + 72 * 3_600_000).toISOString(),
        categories: ['gaming'],
        notes: '',
        terms: 'None',
        access: 'public',
        invited: [],
        collection_id: null,
      },
      `${RUN}-key`,
      now,
    );
    const repo = deps().repo;
    const offeringId = progress.offeringId;
    // Waiting for support (the callback's token stored), then the runner goes away.
    await until(
      () => repo.get(offeringId),
      (record) => record?.status === 'pending' && record.token !== null,
    );
    await runner.stop();
    await runner.start();

    await validateOffering(deps(), offeringId, { decision: 'approve' }, new Date());
    const published = await until(
      () => repo.get(offeringId),
      (record) => record?.status === 'validated',
    );
    expect(published).toMatchObject({ reserved: 60, copies_left: 60 });

    const env = readEnv();
    const doc = dynamoDocumentClient(env);
    const copies = await allCopies(createItemsRepo({ doc, tableName: env.tableName }), item.id);
    expect(copies.filter((copy) => copy.offering_id === offeringId)).toHaveLength(60);
    const entries = await until(
      () =>
        doc.send(
          new QueryCommand({
            TableName: env.tableName,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': marketPartition('any', 'gaming', 'any') },
          }),
        ),
      (answer) => (answer.Items ?? []).some((entry) => String(entry.sk).endsWith(offeringId)),
    );
    expect(
      (entries.Items ?? []).filter((entry) => String(entry.sk).endsWith(offeringId)),
    ).toHaveLength(1);
    const notes = await doc.send(
      new QueryCommand({
        TableName: env.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :n)',
        ExpressionAttributeValues: { ':pk': `NOTIFY#${seller.id}`, ':n': 'N#' },
      }),
    );
    const validated = (notes.Items ?? []).filter(
      (note) =>
        note.activity === 'market_offeringvalidated' &&
        (note.payload as { offeringId?: string }).offeringId === offeringId,
    );
    expect(validated).toHaveLength(1);
  });
});
