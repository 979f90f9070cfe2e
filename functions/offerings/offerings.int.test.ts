import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { gatewayFetch, useTwinEnv } from '../../infra/local/test/twin-context';
import { dynamoDocumentClient } from '../core/clients';
import { readEnv } from '../core/env';
import {
  call,
  hasCognito,
  logIn,
  makeAdmin,
  newUser,
  type TestUser,
} from '../accounts/testing/session';
import { putFinishedItem } from '../items/testing/items';
import { allCopies, createItemsRepo } from '../items/index';
import { markOnboarded } from '../profiles/testing/sellers';
import type {
  ListingContract,
  ListingProgress,
  OfferingDetail,
  OfferingPage,
  PendingOffering,
} from '../../shared/schemas/offerings';
import { offeringKey } from './offerings.keys';
import { listingContract } from './testing/listing';

/**
 * Listing on the twin (issue 11): the create call starts infra/workflows/listing.asl.json on the
 * local runner; support decides through the admin calls (the workflow's callback task); the
 * market reads what the workflow published. Items are written straight to the table
 * (putFinishedItem), sellers onboarded by their profile's status (as the Stripe webhook leaves it).
 */
const RUN = `of${Date.now().toString(36)}`;
let seller: TestUser;
let other: TestUser;
let admin: TestUser;
let counter = 0;

beforeAll(async () => {
  useTwinEnv();
  if (!hasCognito()) return;
  [seller, other, admin] = await Promise.all([newUser(RUN), newUser(RUN), newUser(RUN)]);
  await Promise.all([markOnboarded(seller.id), markOnboarded(other.id), makeAdmin(admin.id)]);
  admin = { ...admin, ...(await logIn(admin)) };
}, 120_000);

async function list(user: TestUser, offering: ListingContract, key = `${RUN}-${(counter += 1)}`) {
  const response = await gatewayFetch(`/api/users/${user.id}/offering/create`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${user.accessToken}`,
      'idempotency-key': key,
    },
    body: JSON.stringify({ offering }),
  });
  return {
    status: response.status,
    json: (await response.json()) as {
      data: ListingProgress;
      error: { code: string; fields?: Record<string, string> };
    },
  };
}

async function status(user: TestUser, offeringId: string) {
  return call<ListingProgress>('POST', `/api/users/${user.id}/offering/create/status`, {
    token: user.accessToken,
    body: { offeringId },
  });
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

const byId = (user: TestUser | null, offeringId: string) =>
  call<OfferingDetail>(
    'POST',
    `/api/users/${user?.id ?? '-'}/offering/getofferingbyid/${offeringId}`,
    user === null ? { body: {} } : { token: user.accessToken, body: {} },
  );

async function waitStep(user: TestUser, offeringId: string, step: string) {
  return until(
    () => status(user, offeringId),
    (answer) => answer.json.data?.step === step,
  );
}

async function decide(offeringId: string, body: Record<string, unknown>) {
  return call<OfferingDetail>('POST', `/api/admin/offerings/${offeringId}/validate`, {
    token: admin.accessToken,
    body,
  });
}

async function copiesOf(itemId: string) {
  const env = readEnv();
  return allCopies(
    createItemsRepo({ doc: dynamoDocumentClient(env), tableName: env.tableName }),
    itemId,
  );
}

describe.runIf(hasCognito())('listing on the twin', () => {
  it('lists, waits for support, publishes to the market and the item page, and notifies the seller', async () => {
    // A follower of the seller hears of the offering once it is published (the fan-out).
    const follower = await newUser(RUN);
    expect(
      (
        await call('POST', '/api/rels/follow', {
          token: follower.accessToken,
          body: { uid: seller.id },
        })
      ).status,
    ).toBe(200);
    const item = await putFinishedItem({ creator: seller, copies: 3, title: `Lagoon ${RUN}` });
    const created = await list(
      seller,
      listingContract(item.id, { copies: 2, categories: ['art', 'music'] }),
    );
    expect(created.status).toBe(202);
    expect(created.json.data).toMatchObject({ step: 'loading', total: 2, percent: 5 });
    const offeringId = created.json.data.offeringId;
    expect(offeringId).toMatch(/^oF/);
    // A retried create (same Idempotency-Key, same body) is the same listing.
    const key = `${RUN}-retry`;
    const once = listingContract(item.id, { copies: 1, categories: ['art'] });
    const first = await list(seller, once, key);
    const retried = await list(seller, once, key);
    expect(retried.json.data.offeringId).toBe(first.json.data.offeringId);
    const reused = await list(seller, { ...once, price: 9900 }, key);
    expect(reused.json.error.code).toBe('idempotency.key_reused');

    const submitted = await waitStep(seller, offeringId, 'done');
    expect(submitted.json.data).toMatchObject({ done: 2, total: 2, percent: 100 });
    // Waiting for support: the seller sees it, nobody else; it is in the admin queue.
    expect((await byId(seller, offeringId)).json.data.display_status).toBe('pending');
    expect((await byId(other, offeringId)).status).toBe(404);
    expect((await byId(null, offeringId)).status).toBe(404);
    const queue = await call<{ items: PendingOffering[] }>('GET', '/api/admin/offerings', {
      token: admin.accessToken,
    });
    expect(queue.json.data.items.map((entry) => entry.id)).toContain(offeringId);
    expect((await call('GET', '/api/admin/offerings', { token: other.accessToken })).status).toBe(
      403,
    );

    await waitStep(seller, first.json.data.offeringId, 'done');
    const copies = await copiesOf(item.id);
    expect(copies.filter((copy) => copy.offering_id === offeringId)).toHaveLength(2);
    expect(copies.filter((copy) => copy.offering_id === first.json.data.offeringId)).toHaveLength(
      1,
    );

    expect((await decide(offeringId, { decision: 'approve' })).status).toBe(200);
    const published = await until(
      () => byId(null, offeringId),
      (answer) => answer.status === 200,
    );
    expect(published.json.data).toMatchObject({
      status: 'validated',
      display_status: 'buy_now',
      copies: 2,
      copies_left: 2,
      price: 2500,
      currency: 'EUR',
      seller: { id: seller.id },
    });
    // Deciding twice is refused.
    expect((await decide(offeringId, { decision: 'reject', reason: 'late' })).json.error.code).toBe(
      'market.offering.errors.not_pending',
    );

    // The market with filters: one Query of the matching partition.
    const market = (body: Record<string, unknown>) =>
      call<OfferingPage>('POST', '/api/users/-/offering/getofferings', { body });
    const ids = async (body: Record<string, unknown>) =>
      (await market(body)).json.data.items.map((card) => card.id);
    // The entries are written right after the status (the publish step's effect).
    await until(
      () => ids({}),
      (found) => found.includes(offeringId),
    );
    expect(await ids({ types: ['physical'], category: 'music', offer: 'buy' })).toContain(
      offeringId,
    );
    expect(await ids({ types: ['digital', 'physical'] })).toContain(offeringId);
    expect(await ids({ types: ['ticket'] })).not.toContain(offeringId);
    expect(await ids({ category: 'sports' })).not.toContain(offeringId);
    expect(await ids({ offer: 'auction' })).not.toContain(offeringId);
    expect(await ids({ item_id: item.id })).toEqual([offeringId]);

    const notes = await call<{
      notifications: { activity: string; payload: { offeringId?: string } }[];
    }>('GET', `/api/notifications/${seller.id}`, { token: seller.accessToken });
    expect(
      notes.json.data.notifications.some(
        (note) =>
          note.activity === 'market_offeringvalidated' && note.payload.offeringId === offeringId,
      ),
    ).toBe(true);

    const told = await until(
      () =>
        call<{ notifications: { activity: string; payload: { offeringId?: string } }[] }>(
          'GET',
          `/api/notifications/${follower.id}`,
          { token: follower.accessToken },
        ),
      (answer) =>
        answer.json.data.notifications.some(
          (note) =>
            note.activity === 'market_newoffering' && note.payload.offeringId === offeringId,
        ),
    );
    expect(told.status).toBe(200);

    // My offerings: active now.
    const mine = await call<OfferingPage>(
      'POST',
      `/api/users/${seller.id}/offering/getmyofferings`,
      {
        token: seller.accessToken,
        body: { status: 'active' },
      },
    );
    expect(mine.json.data.items.map((card) => card.id)).toContain(offeringId);

    // Favourites.
    expect(
      (
        await call('PUT', `/api/users/${other.id}/favorites/${offeringId}`, {
          token: other.accessToken,
        })
      ).status,
    ).toBe(200);
    const favorites = await call<OfferingPage>('GET', `/api/users/${other.id}/favorites`, {
      token: other.accessToken,
    });
    expect(favorites.json.data.items.map((card) => card.id)).toEqual([offeringId]);
    expect((await byId(other, offeringId)).json.data.favorite).toBe(true);

    // Delist: only its seller; then the copies are free again and the market forgets it.
    expect(
      (
        await call('POST', `/api/users/${other.id}/offering/delist/${offeringId}`, {
          token: other.accessToken,
        })
      ).status,
    ).toBe(403);
    const delisted = await call<OfferingDetail>(
      'POST',
      `/api/users/${seller.id}/offering/delist/${offeringId}`,
      { token: seller.accessToken },
    );
    expect(delisted.status).toBe(200);
    expect(delisted.json.data.status).toBe('delisted');
    const after = await copiesOf(item.id);
    expect(after.filter((copy) => copy.status === 'available')).toHaveLength(2);
    expect(after.some((copy) => copy.offering_id === offeringId)).toBe(false);
    expect(await ids({})).not.toContain(offeringId);
    const again = await call('POST', `/api/users/${seller.id}/offering/delist/${offeringId}`, {
      token: seller.accessToken,
    });
    expect(again.json).toMatchObject({ error: { code: 'market.offering.errors.not_delistable' } });
  });

  it('refuses a seller who is not onboarded, copies they do not have, and a rule broken', async () => {
    const stranger = await newUser(RUN);
    const item = await putFinishedItem({ creator: stranger, copies: 2 });
    const refused = await list(stranger, listingContract(item.id));
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe('market.list.errors.not_onboarded');

    const mine = await putFinishedItem({ creator: seller, copies: 2 });
    const tooMany = await list(seller, listingContract(mine.id, { copies: 3 }));
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.error.fields).toMatchObject({
      copies: 'market.list.errors.copies_available',
    });
    const soon = await list(
      seller,
      listingContract(mine.id, { end_at: new Date(Date.now() + 30 * 60_000).toISOString() }),
    );
    expect(soon.json.error.fields).toMatchObject({ end_at: 'market.list.validation.end_soon' });
    const notMine = await list(other, listingContract(mine.id));
    expect(notMine.status).toBe(403);
    expect(notMine.json.error.code).toBe('market.list.errors.not_owner');
    // Nothing was reserved by the refused calls.
    expect((await copiesOf(mine.id)).every((copy) => copy.status === 'available')).toBe(true);
  });

  it('two listings racing for the same copies reserve each copy once; the short one confirms or cancels', async () => {
    const item = await putFinishedItem({ creator: seller, copies: 6 });
    const [a, b] = await Promise.all([
      list(seller, listingContract(item.id, { copies: 5 })),
      list(seller, listingContract(item.id, { copies: 5 })),
    ]);
    expect([a.status, b.status]).toEqual([202, 202]);
    const settled = await Promise.all(
      [a, b].map((created) =>
        until(
          () => status(seller, created.json.data.offeringId),
          (answer) => ['done', 'confirm', 'error'].includes(answer.json.data.step),
        ),
      ),
    );
    const reserved = settled.map((answer) => answer.json.data.done);
    expect((reserved[0] ?? 0) + (reserved[1] ?? 0)).toBe(6);
    const copies = await copiesOf(item.id);
    expect(copies.every((copy) => copy.status === 'blocked')).toBe(true);
    const ownerOf = new Map(copies.map((copy) => [copy.serial, copy.offering_id]));
    expect(new Set(ownerOf.keys()).size).toBe(6);

    const short = settled.find((answer) => answer.json.data.step === 'confirm');
    expect(short).toBeDefined();
    const shortId = short?.json.data.offeringId as string;
    const cancel = await call<ListingProgress>(
      'POST',
      `/api/users/${seller.id}/offering/create/cancel`,
      { token: seller.accessToken, body: { offeringId: shortId } },
    );
    expect(cancel.json.data.step).toBe('cancelled');
    // Both may be short (e.g. 3 and 3): the other keeps what it holds, the cancelled one's return.
    const kept = settled.find((answer) => answer !== short)?.json.data.done ?? 0;
    await until(
      () => copiesOf(item.id),
      (all) => all.filter((copy) => copy.status === 'available').length === 6 - kept,
    );
    expect((await copiesOf(item.id)).filter((copy) => copy.offering_id === shortId)).toHaveLength(
      0,
    );
    // A cancelled listing cannot be confirmed any more.
    const late = await call('POST', `/api/users/${seller.id}/offering/create/confirm`, {
      token: seller.accessToken,
      body: { offeringId: shortId },
    });
    expect(late.json).toMatchObject({ error: { code: 'market.list.errors.not_confirmable' } });

    // The confirm path: another race, the short one lists what it got.
    const second = await putFinishedItem({ creator: seller, copies: 4 });
    const racing = await Promise.all([
      list(seller, listingContract(second.id, { copies: 3 })),
      list(seller, listingContract(second.id, { copies: 3 })),
    ]);
    const outcomes = await Promise.all(
      racing.map((created) =>
        until(
          () => status(seller, created.json.data.offeringId),
          (answer) => ['done', 'confirm'].includes(answer.json.data.step),
        ),
      ),
    );
    const partial = outcomes.find((answer) => answer.json.data.step === 'confirm');
    expect(partial?.json.data).toMatchObject({ total: 3, percent: 45 });
    const partialId = partial?.json.data.offeringId as string;
    const confirmed = await call<ListingProgress>(
      'POST',
      `/api/users/${seller.id}/offering/create/confirm`,
      { token: seller.accessToken, body: { offeringId: partialId } },
    );
    expect(confirmed.status).toBe(200);
    // Confirming again answers the same (a retried click), never a second listing.
    const repeated = await call<ListingProgress>(
      'POST',
      `/api/users/${seller.id}/offering/create/confirm`,
      { token: seller.accessToken, body: { offeringId: partialId } },
    );
    expect(repeated.status).toBe(200);
    const done = await waitStep(seller, partialId, 'done');
    expect(done.json.data.done).toBe(partial?.json.data.done);
    const detail = await byId(seller, partialId);
    expect(detail.json.data).toMatchObject({ status: 'pending', copies: partial?.json.data.done });
  });

  it('support rejects with a reason: copies released, seller notified', async () => {
    const item = await putFinishedItem({ creator: seller, copies: 2 });
    const created = await list(seller, listingContract(item.id, { copies: 2 }));
    const offeringId = created.json.data.offeringId;
    await waitStep(seller, offeringId, 'done');
    await until(
      () =>
        call<{ items: PendingOffering[] }>('GET', '/api/admin/offerings', {
          token: admin.accessToken,
        }),
      (answer) => answer.json.data.items.some((entry) => entry.id === offeringId),
    );
    const rejected = await decide(offeringId, { decision: 'reject', reason: 'Blurry photos' });
    expect(rejected.status).toBe(200);
    const seen = await until(
      () => byId(seller, offeringId),
      (answer) => answer.json.data.status === 'not_validated',
    );
    expect(seen.json.data).toMatchObject({
      display_status: 'not_validated',
      reason: 'Blurry photos',
    });
    await until(
      () => copiesOf(item.id),
      (copies) => copies.every((copy) => copy.status === 'available'),
    );
    const notes = await call<{
      notifications: { activity: string; payload: { reason?: string } }[];
    }>('GET', `/api/notifications/${seller.id}`, { token: seller.accessToken });
    expect(notes.json.data.notifications).toContainEqual(
      expect.objectContaining({
        activity: 'market_offeringrejected',
        payload: expect.objectContaining({ reason: 'Blurry photos' }) as unknown,
      }),
    );
  });

  it('an auction with a registered bid cannot be delisted; a private offering is for invitees only', async () => {
    const item = await putFinishedItem({ creator: seller, copies: 2 });
    const auction = await list(
      seller,
      listingContract(item.id, { type: 'auction', copies: 1, buy_price: 9000, multi_copy: false }),
    );
    const auctionId = auction.json.data.offeringId;
    await waitStep(seller, auctionId, 'done');
    await decide(auctionId, { decision: 'approve' });
    await until(
      () => byId(null, auctionId),
      (answer) => answer.status === 200,
    );
    // A registered bid (the auctions issue writes these; driven directly here).
    const env = readEnv();
    await dynamoDocumentClient(env).send(
      new UpdateCommand({
        TableName: env.tableName,
        Key: offeringKey(auctionId),
        UpdateExpression: 'SET bids = :one, version = version + :one',
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );
    const refused = await call('POST', `/api/users/${seller.id}/offering/delist/${auctionId}`, {
      token: seller.accessToken,
    });
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ error: { code: 'market.offering.errors.has_bids' } });

    const privateItem = await putFinishedItem({ creator: seller, copies: 1 });
    const hidden = await list(
      seller,
      listingContract(privateItem.id, { access: 'private', invited: [other.nick] }),
    );
    const hiddenId = hidden.json.data.offeringId;
    await waitStep(seller, hiddenId, 'done');
    await decide(hiddenId, { decision: 'approve' });
    await until(
      () => byId(other, hiddenId),
      (answer) => answer.status === 200,
    );
    expect((await byId(null, hiddenId)).status).toBe(404);
    const outsider = await newUser(RUN);
    expect((await byId(outsider, hiddenId)).status).toBe(404);
    const market = await call<OfferingPage>('POST', '/api/users/-/offering/getofferings', {
      body: {},
    });
    expect(market.json.data.items.map((card) => card.id)).not.toContain(hiddenId);
    const invited = await call<OfferingPage>(
      'POST',
      `/api/users/${other.id}/offering/getofferings`,
      { token: other.accessToken, body: { invited: true } },
    );
    expect(invited.json.data.items.map((card) => card.id)).toContain(hiddenId);
    // Invite the outsider: they see it now.
    const added = await call(
      'POST',
      `/api/users/${seller.id}/offering/add-invitations/${hiddenId}`,
      {
        token: seller.accessToken,
        body: { invitedIds: [outsider.nick] },
      },
    );
    expect(added.status).toBe(200);
    expect((await byId(outsider, hiddenId)).status).toBe(200);
  });
});
