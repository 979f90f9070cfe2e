import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTwinEnv } from '../../infra/local/test/twin-context';
import { call, hasCognito, type TestUser } from '../accounts/testing/session';
import { dynamoDocumentClient } from '../core/clients';
import { readEnv } from '../core/env';
import type { OfferingDetail } from '../../shared/schemas/offerings';
import { bidsDeps } from './bids.deps';
import { liveMarkerKey, lotKey, staleMarkerKey } from './bids.keys';
import { runCloseStep, SWEEP_GRACE_MS, sweepAuctions } from './close';
import type { BidsDeps } from './ports';
import { auctionCast, DEFAULT_CARD, HOUR, listAuction, placeBid, writtenLot } from './testing/lots';

/**
 * The sweeper's two lists on the twin (issue 13 §4; docs/data-model.md, "Indexes on the lot"):
 * lots not closed by end, and lots whose offering counters lag. They are small marker items of
 * the lot's partition, never the lot itself (whose every bid would also rewrite both shared
 * indexes): written when the lot opens, closes or first lags, set to the lot's end by each look
 * of its close and by the sweeper after an extension, and taken off the lagging list only when no
 * bid came since the refresh.
 */
const RUN = `sw${Date.now().toString(36)}`;
let seller: TestUser;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  useTwinEnv();
  if (!hasCognito()) return;
  ({
    seller,
    admin,
    bidders: { alice, bob },
  } = await auctionCast(RUN, { alice: DEFAULT_CARD, bob: DEFAULT_CARD }));
}, 180_000);

async function raw(key: { pk: string; sk: string }) {
  const env = readEnv();
  const result = await dynamoDocumentClient(env).send(
    new GetCommand({ TableName: env.tableName, Key: key, ConsistentRead: true }),
  );
  return result.Item;
}

/** The sweeper with its executions recorded instead of started. */
function sweeper(): { deps: BidsDeps; started: string[] } {
  const started: string[] = [];
  const deps: BidsDeps = {
    ...bidsDeps(),
    startClose: async (offeringId) => {
      started.push(offeringId);
    },
  };
  return { deps, started };
}

async function bid(user: TestUser, offeringId: string, bidprice: number) {
  const answer = await placeBid(user, offeringId, { bidprice });
  expect(answer.status).toBe(201);
}

const countersOf = async (offeringId: string) =>
  (
    await call<OfferingDetail>(
      'POST',
      `/api/users/${seller.id}/offering/getofferingbyid/${offeringId}`,
      { token: seller.accessToken, body: {} },
    )
  ).json.data;

describe.runIf(hasCognito())("the sweeper's lists", () => {
  it('the lot carries no index keys; it is listed as lagging by the bid that makes it lag, and unlisted only when no bid came since', async () => {
    const offering = await listAuction({ seller, admin }, 1, { endsIn: 2 * HOUR });
    const lot = await writtenLot(offering.id);
    expect(await raw(liveMarkerKey(offering.id))).toMatchObject({
      gsi3pk: 'AUCTIONS#LIVE',
      gsi3sk: `${lot.auction.end_at}#${offering.id}`,
      offering_id: offering.id,
    });
    expect(await raw(staleMarkerKey(offering.id))).toBeUndefined();

    // The first bid brings the counters up to date; the second, within 30 s, leaves them lagging.
    await bid(alice, offering.id, 1_000);
    expect(await raw(staleMarkerKey(offering.id))).toBeUndefined();
    await bid(bob, offering.id, 1_500);
    expect(await raw(staleMarkerKey(offering.id))).toMatchObject({
      gsi4pk: 'AUCTIONS#STALE',
      gsi4sk: offering.id,
    });
    expect(await bidsDeps().repo.staleLots(100)).toContain(offering.id);
    const lagging = await raw(lotKey(offering.id));
    expect(lagging).toMatchObject({ stale: true });
    for (const key of ['gsi3pk', 'gsi3sk', 'gsi4pk', 'gsi4sk'])
      expect(lagging).not.toHaveProperty(key);

    // A refresh that a bid overtook leaves the lot listed.
    const before = (await bidsDeps().repo.getLot(offering.id))?.version ?? 0;
    expect(await bidsDeps().repo.clearStale(offering.id, before - 1)).toBe(false);
    expect(await raw(staleMarkerKey(offering.id))).toBeDefined();

    // The sweeper refreshes the counters and unlists the lot.
    const { deps, started } = sweeper();
    await sweepAuctions(deps, new Date());
    expect(started).not.toContain(offering.id);
    expect(await countersOf(offering.id)).toMatchObject({ bids: 2, highest_bid: 1_500 });
    expect(await raw(staleMarkerKey(offering.id))).toBeUndefined();
    expect((await bidsDeps().repo.getLot(offering.id))?.stale).toBe(false);

    // The next bid within the interval lists it again.
    await bid(alice, offering.id, 2_000);
    expect(await raw(staleMarkerKey(offering.id))).toBeDefined();
  });

  it('an extended lot is not due at its first end: its marker moves on, and it is due at its new end', async () => {
    const offering = await listAuction({ seller, admin }, 1, { endsIn: 2 * HOUR });
    // After the lot's own close workflow took its first look (it writes the lot).
    const lot = await writtenLot(
      offering.id,
      (found) => found.next_at !== null && Date.parse(found.next_at) > Date.now() + 60_000,
    );
    const end = Date.parse(lot.auction.end_at);
    // Extended by an hour (as bids in the last minutes do, a few minutes at a time).
    const later = new Date(end + HOUR).toISOString();
    expect(
      await bidsDeps().repo.saveLot(
        { ...lot, auction: { ...lot.auction, end_at: later }, version: lot.version + 1 },
        lot.version,
      ),
    ).toBe(true);

    const first = sweeper();
    await sweepAuctions(first.deps, new Date(end + SWEEP_GRACE_MS + 60_000));
    expect(first.started).not.toContain(offering.id);
    expect(await raw(liveMarkerKey(offering.id))).toMatchObject({
      end_at: later,
      gsi3sk: `${later}#${offering.id}`,
    });
    // Not listed before its new end.
    expect(
      await bidsDeps().repo.dueLots(new Date(end + HOUR - 1).toISOString(), 100),
    ).not.toContain(offering.id);

    const second = sweeper();
    await sweepAuctions(second.deps, new Date(end + HOUR + SWEEP_GRACE_MS + 60_000));
    expect(second.started).toContain(offering.id);
  });

  it("a lot missing from the list (written before markers) is listed again at its close's next look, at its real end", async () => {
    const offering = await listAuction({ seller, admin }, 1, { endsIn: 2 * HOUR });
    const lot = await writtenLot(
      offering.id,
      (found) => found.next_at !== null && Date.parse(found.next_at) > Date.now() + 60_000,
    );
    const env = readEnv();
    await dynamoDocumentClient(env).send(
      new DeleteCommand({ TableName: env.tableName, Key: liveMarkerKey(offering.id) }),
    );
    const later = new Date(Date.parse(lot.auction.end_at) + 10 * 60_000).toISOString();
    expect(
      await bidsDeps().repo.saveLot(
        { ...lot, auction: { ...lot.auction, end_at: later }, version: lot.version + 1 },
        lot.version,
      ),
    ).toBe(true);
    expect(await raw(liveMarkerKey(offering.id))).toBeUndefined();
    await runCloseStep(bidsDeps(), offering.id, new Date());
    expect(await raw(liveMarkerKey(offering.id))).toMatchObject({
      end_at: later,
      gsi3sk: `${later}#${offering.id}`,
    });
  });

  it('the close takes the lot off the list of lots not closed; a delisted lot is taken off by the sweeper', async () => {
    const closing = await listAuction({ seller, admin }, 1, { endsIn: 2 * HOUR });
    const end = Date.parse((await writtenLot(closing.id)).auction.end_at);
    for (let round = 0; round < 5; round += 1) {
      if ((await bidsDeps().repo.getLot(closing.id))?.phase === 'closed') break;
      await runCloseStep(bidsDeps(), closing.id, new Date(end + 1_000));
    }
    expect((await bidsDeps().repo.getLot(closing.id))?.phase).toBe('closed');
    expect(await raw(liveMarkerKey(closing.id))).toBeUndefined();

    const delisted = await listAuction({ seller, admin }, 1, { endsIn: 2 * HOUR });
    const delistedEnd = Date.parse((await writtenLot(delisted.id)).auction.end_at);
    const answer = await call('POST', `/api/users/${seller.id}/offering/delist/${delisted.id}`, {
      token: seller.accessToken,
    });
    expect(answer.status).toBe(200);
    const { deps, started } = sweeper();
    await sweepAuctions(deps, new Date(delistedEnd + SWEEP_GRACE_MS + 60_000));
    expect(started).not.toContain(delisted.id);
    expect(await raw(liveMarkerKey(delisted.id))).toBeUndefined();
  });
});
