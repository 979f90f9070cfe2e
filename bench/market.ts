import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Twin } from '../infra/local/twin';
import { LOCAL_SUPPORT_EMAIL } from '../infra/local/twin';
import { dynamoDocumentClient } from '../functions/core/clients';
import { readEnv } from '../functions/core/env';
import { putFinishedItem } from '../functions/items/testing/items';
import { markOnboarded } from '../functions/profiles/testing/sellers';
import { marketPartition, offeringKey, typesKey } from '../functions/offerings/testing/keys';
import { listingContract } from '../functions/offerings/testing/listing';
import type { ListingProgress } from '../shared/schemas/offerings';
import { startDynamoCounter } from './dynamo-counter';
import { logInWithPins } from './login';
import { median, ms, percentile, table } from './stats';
import { json } from './http';

/**
 * The market (issue 11), on the twin in this process:
 * - a market page of 50 offerings with filters on (types, category, offer), through the local
 *   gateway (POST /api/users/-/offering/getofferings) and as the raw DynamoDB Local Query of the
 *   same partition, interleaved; and the DynamoDB requests one page makes (goal: 1);
 * - listing a 200-copy item end to end: the create call, the listing workflow reserving the 200
 *   copies in packs to `pending`, support's approval to the market entries; time, DynamoDB
 *   requests and write units.
 */

export async function account(twin: Twin, stamp: string, email: string) {
  const cognito = new CognitoIdentityProviderClient({
    region: 'us-east-1',
    endpoint: twin.urls.cognito,
  });
  const user = {
    user_option: 'individual',
    nick: stamp,
    email,
    phone: `+4478${String(Date.now()).slice(-8)}`,
    name: 'Bench',
    surname: 'Seller',
    terms: true,
  };
  const { id } = await json<{ id: string }>(
    await fetch(`${twin.urls.http}/api/users/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user }),
    }),
  );
  const { accessToken } = await logInWithPins(twin, cognito, twin.cognito.clientId, user);
  cognito.destroy();
  return { id, nick: stamp, token: accessToken };
}

/**
 * Support (the admin that approves offerings) in this twin: registered once per run, since the
 * e-mail is unique, then shared by every bench that approves (market, checkout, auction).
 */
const supports = new WeakMap<Twin, ReturnType<typeof account>>();
export function supportAccount(twin: Twin): ReturnType<typeof account> {
  let support = supports.get(twin);
  if (support === undefined) {
    support = account(twin, `sup${Date.now().toString(36)}`, LOCAL_SUPPORT_EMAIL);
    supports.set(twin, support);
  }
  return support;
}

const HOUR = 3_600_000;
const FILTERS = { types: ['physical'], category: 'art', offer: 'buy' } as const;

export async function benchMarket(twin: Twin, requests: number) {
  const api = twin.urls.http;
  const stamp = `mk${Date.now().toString(36)}`;
  const seller = await account(twin, stamp, `${stamp}@example.com`);
  const admin = await supportAccount(twin);
  await markOnboarded(seller.id);
  const auth = (token: string) => ({
    'content-type': 'application/json',
    authorization: `Bearer ${token}`,
  });
  let keys = 0;
  const list = async (itemId: string, copies: number): Promise<ListingProgress> => {
    const offering = listingContract(itemId, {
      copies,
      price: 1500,
      end_at: new Date(Date.now() + 72 * HOUR).toISOString(),
      categories: ['art', 'music'],
    });
    return json<ListingProgress>(
      await fetch(`${api}/api/users/${seller.id}/offering/create`, {
        method: 'POST',
        headers: { ...auth(seller.token), 'idempotency-key': `${stamp}-${(keys += 1)}` },
        body: JSON.stringify({ offering }),
      }),
    );
  };
  const waitFor = async (read: () => Promise<boolean>) => {
    const deadline = Date.now() + 120_000;
    while (!(await read())) {
      if (Date.now() > deadline) throw new Error('the listing did not get there in 120 s');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  const statusOf = async (offeringId: string) =>
    json<ListingProgress>(
      await fetch(`${api}/api/users/${seller.id}/offering/create/status`, {
        method: 'POST',
        headers: auth(seller.token),
        body: JSON.stringify({ offeringId }),
      }),
    );
  const approve = async (offeringId: string) =>
    json(
      await fetch(`${api}/api/admin/offerings/${offeringId}/validate`, {
        method: 'POST',
        headers: auth(admin.token),
        body: JSON.stringify({ decision: 'approve' }),
      }),
    );
  const marketPage = () =>
    fetch(`${api}/api/users/-/offering/getofferings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(FILTERS),
    });

  // 60 published offerings (one copy each) under the filters: a full page of 50 and more.
  const items = await Promise.all(
    Array.from({ length: 60 }, () => putFinishedItem({ creator: seller, copies: 1 })),
  );
  const listed = await Promise.all(items.map((item) => list(item.id, 1)));
  await Promise.all(
    listed.map((progress) =>
      waitFor(async () => (await statusOf(progress.offeringId)).step === 'done'),
    ),
  );
  await Promise.all(listed.map((progress) => approve(progress.offeringId)));
  await waitFor(async () => {
    const page = await json<{ items: unknown[] }>(await marketPage());
    return page.items.length === 50;
  });

  const env = readEnv();
  const doc = dynamoDocumentClient(env);
  const partition = marketPartition(typesKey([...FILTERS.types]), FILTERS.category, FILTERS.offer);
  const rawQuery = () =>
    doc.send(
      new QueryCommand({
        TableName: env.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': partition },
        ScanIndexForward: false,
        Limit: 50,
      }),
    );
  const viaApi: number[] = [];
  const raw: number[] = [];
  for (let run = 0; run < requests + 20; run += 1) {
    let started = performance.now();
    const answer = await marketPage();
    await answer.arrayBuffer();
    const apiMs = performance.now() - started;
    started = performance.now();
    const result = await rawQuery();
    const rawMs = performance.now() - started;
    if ((result.Items ?? []).length !== 50) throw new Error('the raw page is not 50 entries');
    if (run >= 20) {
      viaApi.push(apiMs);
      raw.push(rawMs);
    }
  }

  // Requests per page, and the 200-copy listing, through a counting proxy.
  const counter = await startDynamoCounter(twin.urls.dynamodb);
  const endpoint = process.env.DYNAMODB_ENDPOINT;
  process.env.DYNAMODB_ENDPOINT = counter.url;
  try {
    const pages = 20;
    counter.reset();
    for (let page = 0; page < pages; page += 1) await (await marketPage()).arrayBuffer();
    const perPage = counter.total() / pages;
    const pageOperations = counter.counts();

    const big = await putFinishedItem({ creator: seller, copies: 200 });
    counter.reset();
    const started = performance.now();
    const progress = await list(big.id, 200);
    const answeredMs = performance.now() - started;
    // Polled on the table directly (not through the counting proxy): only the listing counts.
    await waitFor(async () => {
      const found = await doc.send(
        new GetCommand({ TableName: env.tableName, Key: offeringKey(progress.offeringId) }),
      );
      return found.Item?.step === 'done';
    });
    const pendingMs = performance.now() - started;
    const toPending = { requests: counter.total(), writeUnits: counter.writeUnits() };
    counter.reset();
    const approvedAt = performance.now();
    await approve(progress.offeringId);
    await waitFor(async () => {
      const found = await doc.send(
        new QueryCommand({
          TableName: env.tableName,
          KeyConditionExpression: 'pk = :pk AND sk > :from',
          ExpressionAttributeValues: {
            ':pk': marketPartition('any', 'music', 'buy'),
            ':from': new Date(Date.now() - 60_000).toISOString(),
          },
        }),
      );
      return (found.Items ?? []).some((entry) => String(entry.sk).endsWith(progress.offeringId));
    });
    const publishedMs = performance.now() - approvedAt;
    const toPublished = { requests: counter.total(), writeUnits: counter.writeUnits() };

    console.log(
      `\n12. A market page of 50 offerings, filters on (${JSON.stringify(FILTERS)}), ${requests} sequential requests each, interleaved\n`,
    );
    console.log(
      table(
        ['call', 'p50', 'p95'],
        [
          [
            'POST /api/users/-/offering/getofferings (gateway)',
            ms(percentile(viaApi, 50)),
            ms(percentile(viaApi, 95)),
          ],
          [
            'raw DynamoDB Local Query of the partition',
            ms(percentile(raw, 50)),
            ms(percentile(raw, 95)),
          ],
        ],
      ),
    );
    const ratio = median(viaApi) / median(raw);
    console.log(`\n   gateway p50 / raw Query p50 = ${ratio.toFixed(2)}×`);
    console.log(
      `   DynamoDB requests per market page: ${perPage.toFixed(2)} (${JSON.stringify(pageOperations)})`,
    );
    console.log(
      '\n13. Listing a 200-copy item end to end (create → pending → approved → on the market)\n',
    );
    console.log(
      table(
        ['step', 'time', 'DynamoDB requests', 'write units'],
        [
          ['create call answered (202)', ms(answeredMs), '', ''],
          [
            '200 copies reserved, submitted (pending)',
            ms(pendingMs),
            String(toPending.requests),
            String(toPending.writeUnits),
          ],
          [
            'approved → market entries written',
            ms(publishedMs),
            String(toPublished.requests),
            String(toPublished.writeUnits),
          ],
        ],
      ),
    );
    return {
      pageP50: percentile(viaApi, 50),
      pageP95: percentile(viaApi, 95),
      rawP50: percentile(raw, 50),
      rawP95: percentile(raw, 95),
      ratio,
      requestsPerPage: perPage,
      listing200: { answeredMs, pendingMs, publishedMs, toPending, toPublished },
    };
  } finally {
    if (endpoint === undefined) Reflect.deleteProperty(process.env, 'DYNAMODB_ENDPOINT');
    else process.env.DYNAMODB_ENDPOINT = endpoint;
    await counter.stop();
  }
}
