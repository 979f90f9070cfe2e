import { DeleteObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { failedBatchObject } from '../../infra/local/streams';
import { runJob, streamsSettled, useTwinEnv } from '../../infra/local/test/twin-context';
import { call, hasCognito, type TestUser } from '../accounts/testing/session';
import { dynamoDocumentClient, s3Client } from '../core/clients';
import { readEnv } from '../core/env';
import { FAILED_BATCHES_PREFIX, type ReplayReport } from '../core/failed-batches';
import type { NotificationPage } from '../../shared/schemas/notifications';
import { bidsDeps } from './bids.deps';
import { bidLogKey, lotKey } from './bids.keys';
import { auctionCast, DEFAULT_CARD, HOUR, listAuction, placeBid } from './testing/lots';

/**
 * A bidEvents batch Lambda gave up on (its retries spent, or an hour old) is kept with its records
 * in the failed-batches bucket (core/failed-batches.ts), as the twin's poller and AWS's S3
 * on-failure destination write it; the `bidEventsReplay` schedule hands it to bidEvents again.
 * What it carries out is written (the bid's log line), what was already done is not done twice
 * (the outbid notice), the batch is deleted once carried out, and another function's is left.
 */
const RUN = `rp${Date.now().toString(36)}`;
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

async function rawLot(offeringId: string): Promise<Record<string, unknown>> {
  const env = readEnv();
  const result = await dynamoDocumentClient(env).send(
    new GetCommand({ TableName: env.tableName, Key: lotKey(offeringId), ConsistentRead: true }),
  );
  return result.Item as Record<string, unknown>;
}

/** This run's shard: its kept batches are told apart from other runs' by it. */
const SHARD = `shardId-${RUN}`;

/**
 * A kept batch as Lambda writes it (the twin's poller's `failedBatchObject`): the invocation
 * record, with the event the function was given, the lot's write on the stream.
 */
async function keep(functionName: string, image: Record<string, unknown>): Promise<string> {
  const env = readEnv();
  const { key, body } = failedBatchObject({
    functionName,
    functionArn: `arn:aws:lambda:${env.region}:000000000000:function:${functionName}`,
    requestId: `${RUN}-request`,
    condition: 'RetryAttemptsExhausted',
    invocations: 11,
    threw: true,
    shardId: SHARD,
    streamArn: 'arn:aws:dynamodb:ddblocal:000000000000:table/market/stream/2026-11-25T00:00:00.000',
    records: [
      {
        record: {
          eventID: `${RUN}-1`,
          eventName: 'MODIFY',
          eventVersion: '1.1',
          eventSource: 'aws:dynamodb',
          awsRegion: env.region,
          dynamodb: {
            ApproximateCreationDateTime: 1_795_000_000,
            Keys: marshall(lotKey(image.offering_id as string)) as never,
            NewImage: marshall(image, { removeUndefinedValues: true }) as never,
            SequenceNumber: '4000000000000000000001',
            SizeBytes: 1_000,
            StreamViewType: 'NEW_IMAGE',
          },
        },
        at: Date.now(),
      },
    ],
    now: Date.now(),
  });
  await s3Client(env).send(
    new PutObjectCommand({
      Bucket: env.failedBatchesBucket,
      Key: key,
      ContentType: 'application/json',
      Body: body,
    }),
  );
  return key;
}

/** The kept batches of this run's shard, whichever function they name. */
async function keptKeys(): Promise<string[]> {
  const env = readEnv();
  const listed = await s3Client(env).send(
    new ListObjectsV2Command({ Bucket: env.failedBatchesBucket, Prefix: FAILED_BATCHES_PREFIX }),
  );
  return (listed.Contents ?? [])
    .map((object) => object.Key as string)
    .filter((key) => key.includes(`/${SHARD}/`));
}

async function outbidNotices(user: TestUser, offeringId: string): Promise<number> {
  const answer = await call<NotificationPage>(
    'GET',
    `/api/notifications/${user.id}?section=market`,
    { token: user.accessToken },
  );
  expect(answer.status).toBe(200);
  return answer.json.data.notifications.filter(
    (item) => item.activity === 'market_outbid' && item.payload.offeringId === offeringId,
  ).length;
}

describe.runIf(hasCognito())('a bidEvents batch Lambda gave up on', () => {
  it('is handed to bidEvents again on its schedule: what it left undone is done, nothing twice, and it is deleted', async () => {
    const offering = await listAuction({ seller, admin }, 1, { endsIn: 2 * HOUR });
    expect((await placeBid(alice, offering.id, { bidprice: 1_000 })).status).toBe(201);
    expect((await placeBid(bob, offering.id, { bidprice: 1_500 })).status).toBe(201);
    await streamsSettled();
    expect(await outbidNotices(alice, offering.id)).toBe(1);

    // Bob's bid as its lot write left it on the stream; its log line as if the batch had failed
    // before writing it (the notice to Alice went out before it failed).
    const image = await rawLot(offering.id);
    const index = (image.last as { line: { index: number } }).line.index;
    const env = readEnv();
    await dynamoDocumentClient(env).send(
      new DeleteCommand({ TableName: env.tableName, Key: bidLogKey(offering.id, index) }),
    );
    const before = await bidsDeps().repo.logOf(offering.id);
    expect(before.map((line) => line.index)).not.toContain(index);

    const ours = await keep('bidEvents', image);
    const theirs = await keep('someOtherTrigger', image);
    const report = (await runJob('bidEventsReplay')) as ReplayReport;
    expect(report.replayed).toBeGreaterThanOrEqual(1);
    expect(report.others).toBeGreaterThanOrEqual(1);

    // The log line is back; Alice was not told twice; the batch is gone, the other one stays.
    const after = await bidsDeps().repo.logOf(offering.id);
    expect(after.find((line) => line.index === index)).toMatchObject({
      index,
      bidder_id: bob.id,
      kind: 'bid',
    });
    expect(await outbidNotices(alice, offering.id)).toBe(1);
    expect(await keptKeys()).toEqual([theirs]);
    expect(await keptKeys()).not.toContain(ours);

    // A second run finds nothing of its own left.
    const again = (await runJob('bidEventsReplay')) as ReplayReport;
    expect(await keptKeys()).toEqual([theirs]);
    expect(again.kept).toBe(0);
    await s3Client(env).send(
      new DeleteObjectCommand({ Bucket: env.failedBatchesBucket, Key: theirs }),
    );
  });
});
