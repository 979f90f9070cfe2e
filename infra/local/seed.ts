import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { accountSeedItems, type AccountRecord } from '../../functions/accounts/testing/seed';
import { onboardedSellerItem, paymentsRecordKey } from '../../functions/payments/testing/seed';
import { onboardedSellerProfileItem } from '../../functions/profiles/testing/sellers';
import Stripe from 'stripe';
import { startStripeTwin, TWIN_SECRET_KEY } from './stripe/server';
import { dynamoClient, ensureTable, startDynamoLocal } from './dynamodb';
import { startS3 } from './s3';
import { seedProfiles } from './seed-data';
import { DEFAULT_DATA_DIR, TWIN_CREDENTIALS, TWIN_REGION, TwinError, type Log } from './support';
import { DEV_PORTS, TWIN_NAMES } from './twin';

/**
 * Demo data: `npm run seed` re-seeds (idempotent: the same sellers, ids and avatars each time).
 * It writes into the running `npm start` twin when there is one; otherwise it starts DynamoDB
 * Local and s3rver on the data directory itself, seeds, and stops them.
 */

export interface SeedTarget {
  dynamodbUrl: string;
  s3Url: string;
  tableName: string;
  imagesBucket: string;
  /** The Stripe twin: the demo sellers get Connect accounts onboarded on it (issue 9 §4). */
  stripeUrl: string;
}

/** Written by `npm start` while it runs, so `npm run seed` finds it. */
export const RUNNING_FILE = 'twin.json';

export interface RunningTwinFile {
  pid: number;
  urls: { http: string; dynamodb: string; s3: string; outbox: string; stripe: string };
  startedAt: string;
}

/** Writes the demo sellers (profile items and avatars). Returns how many were written. */
export async function seedDemoData(target: SeedTarget, log: Log): Promise<number> {
  const profiles = seedProfiles();
  const s3 = new S3Client({
    endpoint: target.s3Url,
    forcePathStyle: true,
    region: TWIN_REGION,
    credentials: TWIN_CREDENTIALS,
  });
  const base = dynamoClient(target.dynamodbUrl);
  const doc = DynamoDBDocumentClient.from(base, {
    marshallOptions: { removeUndefinedValues: true },
  });
  const TableName = target.tableName;
  const url = new URL(target.stripeUrl);
  const stripe = new Stripe(TWIN_SECRET_KEY, {
    host: url.hostname,
    port: Number(url.port),
    protocol: 'http',
    maxNetworkRetries: 2,
  });
  try {
    for (const profile of profiles) {
      const image = await profile.avatar.render();
      await s3.send(
        new PutObjectCommand({
          Bucket: target.imagesBucket,
          Key: profile.avatar.key,
          Body: image,
          ContentType: 'image/webp',
          CacheControl: 'public, max-age=31536000, immutable',
        }),
      );
      // The same items a sign-up writes (account, nick/e-mail/phone guards, profile), so seeded
      // sellers are found by nick and their nick, e-mail and phone are taken. Plain puts: a
      // re-seed overwrites them with the same values. (No Cognito user: they cannot log in.)
      const { record } = profile;
      const account: AccountRecord = {
        id: record.id,
        nick: record.nick,
        email: profile.account.email,
        phone: profile.account.phone,
        user_option: record.user_option,
        email_verified: true,
        phone_verified: true,
        blocked: false,
        is_admin: false,
        created_at: record.created_at,
      };
      await doc.send(
        new TransactWriteCommand({ TransactItems: accountSeedItems(TableName, account) }),
      );
      // A seller is a user whose Stripe onboarding is complete: the demo sellers onboard on the
      // Stripe twin as a seller would (an Express account, its hosted form submitted "verified").
      const accountId = await onboardDemoSeller(stripe, doc, TableName, record.id, account.email);
      // Its fields set, not the record replaced: the demo market keeps the seller's Stripe
      // customer (their saved test card) on the same record, and a re-seed must not lose it.
      await doc.send(
        setFields(
          TableName,
          paymentsRecordKey(record.id),
          onboardedSellerItem({
            userId: record.id,
            stripeAccountId: accountId,
            country: DEMO_COUNTRY,
            at: record.created_at,
          }),
        ),
      );
      await doc.send(
        new PutCommand({
          TableName,
          Item: onboardedSellerProfileItem(record),
        }),
      );
    }
  } finally {
    s3.destroy();
    base.destroy();
  }
  log(`[seed] ${profiles.length} sellers with avatars written, onboarded on the Stripe twin`);
  return profiles.length;
}

/** Written in the data directory once the demo market is seeded (`npm start` seeds it if absent). */
export const SEEDED_MARKET_MARKER = 'seeded-market';

/**
 * The demo market (seed-market.ts) on the twin running in this process: its environment must be
 * in process.env, since the listing goes through the product's use cases and workflows. Loaded
 * only when needed: it brings the functions' modules.
 */
export async function seedDemoMarketOn(
  target: Pick<SeedTarget, 's3Url' | 'imagesBucket'>,
  log: Log,
): Promise<number> {
  const { seedDemoMarket } = await import('./seed-market');
  const s3 = new S3Client({
    endpoint: target.s3Url,
    forcePathStyle: true,
    region: TWIN_REGION,
    credentials: TWIN_CREDENTIALS,
  });
  try {
    return await seedDemoMarket({
      sellers: seedProfiles(),
      log,
      async putImage(key, body) {
        await s3.send(
          new PutObjectCommand({
            Bucket: target.imagesBucket,
            Key: key,
            Body: body,
            ContentType: 'image/webp',
            CacheControl: 'public, max-age=31536000, immutable',
          }),
        );
      },
    });
  } finally {
    s3.destroy();
  }
}

/** An UpdateItem setting the item's attributes other than the key (others on it are kept). */
function setFields(
  TableName: string,
  key: { pk: string; sk: string },
  item: Record<string, unknown>,
): UpdateCommand {
  const fields = Object.entries(item).filter(([name]) => !(name in key));
  return new UpdateCommand({
    TableName,
    Key: key,
    UpdateExpression: `SET ${fields.map((_, index) => `#f${index} = :v${index}`).join(', ')}`,
    ExpressionAttributeNames: Object.fromEntries(
      fields.map(([name], index) => [`#f${index}`, name]),
    ),
    ExpressionAttributeValues: Object.fromEntries(
      fields.map(([, value], index) => [`:v${index}`, value]),
    ),
  });
}

const DEMO_COUNTRY = 'GB';

/**
 * The seller's Connect account on the Stripe twin, onboarded: the one kept for them if the twin
 * still has it complete, else a new Express account whose hosted form is submitted "verified".
 */
async function onboardDemoSeller(
  stripe: Stripe,
  doc: DynamoDBDocumentClient,
  TableName: string,
  userId: string,
  email: string,
): Promise<string> {
  const kept = await doc.send(new GetCommand({ TableName, Key: paymentsRecordKey(userId) }));
  const keptId = kept.Item?.stripe_account_id as string | undefined;
  if (keptId !== undefined) {
    const account = await stripe.accounts.retrieve(keptId).catch(() => undefined);
    if (account?.capabilities?.transfers === 'active' && account.metadata?.user_id === userId) {
      return keptId;
    }
  }
  const account = await stripe.accounts.create({
    type: 'express',
    country: DEMO_COUNTRY,
    email,
    capabilities: { transfers: { requested: true } },
    metadata: { user_id: userId },
  });
  const link = await stripe.accountLinks.create({
    account: account.id,
    type: 'account_onboarding',
    refresh_url: 'http://localhost/stripe/payment/refresh',
    return_url: 'http://localhost/stripe/onboarding/minter',
  });
  const submitted = await fetch(link.url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'choice=complete',
    redirect: 'manual',
  });
  if (submitted.status !== 303) {
    throw new TwinError(`the Stripe twin's onboarding form answered ${submitted.status}`);
  }
  return account.id;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function answers(dynamodbUrl: string): Promise<boolean> {
  const client = new DynamoDBClient({
    endpoint: dynamodbUrl,
    region: TWIN_REGION,
    credentials: TWIN_CREDENTIALS,
    maxAttempts: 1,
    requestHandler: { requestTimeout: 2_000, connectionTimeout: 1_000 },
  });
  try {
    await client.send(new ListTablesCommand({ Limit: 1 }));
    return true;
  } catch {
    return false;
  } finally {
    client.destroy();
  }
}

/** The running `npm start` twin's endpoints, if one runs on this data directory. */
export async function findRunningTwin(dataDir: string): Promise<RunningTwinFile['urls'] | null> {
  const file = path.join(dataDir, RUNNING_FILE);
  if (existsSync(file)) {
    try {
      const running = JSON.parse(readFileSync(file, 'utf8')) as RunningTwinFile;
      if (processAlive(running.pid) && (await answers(running.urls.dynamodb))) return running.urls;
    } catch {
      // A stale or partial file: fall through to the port probe.
    }
  }
  // No file, but something answers as DynamoDB on the fixed port: an `npm start` twin (its
  // database file is locked by it, so starting a second DynamoDB Local on it would fail).
  const dynamodb = `http://localhost:${DEV_PORTS.dynamodb}`;
  if (await answers(dynamodb)) {
    return {
      http: `http://localhost:${DEV_PORTS.http}`,
      dynamodb,
      s3: `http://localhost:${DEV_PORTS.s3}`,
      outbox: `http://localhost:${DEV_PORTS.outbox}`,
      stripe: `http://localhost:${DEV_PORTS.stripe}`,
    };
  }
  return null;
}

/** `npm run seed`. */
export async function seedCommand(dataDir = DEFAULT_DATA_DIR, log: Log = console.log) {
  const target = { tableName: TWIN_NAMES.table, imagesBucket: TWIN_NAMES.imagesBucket };
  const running = await findRunningTwin(dataDir);
  if (running !== null) {
    log(`[seed] seeding the running twin (${running.http})`);
    await ensureTable(running.dynamodb, target.tableName);
    await seedDemoData(
      { ...target, dynamodbUrl: running.dynamodb, s3Url: running.s3, stripeUrl: running.stripe },
      log,
    );
    log(MARKET_NOTE);
    return;
  }
  log(`[seed] no running twin: starting DynamoDB Local and s3rver on ${dataDir}`);
  const dynamo = await startDynamoLocal({ dbPath: path.join(dataDir, 'dynamodb'), log });
  try {
    const s3 = await startS3({
      directory: path.join(dataDir, 's3'),
      buckets: [TWIN_NAMES.imagesBucket, TWIN_NAMES.filesBucket, TWIN_NAMES.failedBatchesBucket],
      region: TWIN_REGION,
      credentials: TWIN_CREDENTIALS,
      corsOrigins: [],
      log,
    });
    // The Stripe twin on its state file (webhooks reach nobody: the seed writes the statuses).
    const stripe = await startStripeTwin({ persistFile: path.join(dataDir, 'stripe.json') });
    try {
      await ensureTable(dynamo.url, target.tableName);
      await seedDemoData(
        { ...target, dynamodbUrl: dynamo.url, s3Url: s3.url, stripeUrl: stripe.url },
        log,
      );
    } finally {
      await stripe.stop();
      await s3.stop();
    }
  } finally {
    await dynamo.stop();
  }
  log(MARKET_NOTE);
}

/** `npm run seed` leaves the market alone: listing needs the workflows of a running `npm start`. */
const MARKET_NOTE = `[seed] the demo market (offerings and bids) is seeded by npm start when ${SEEDED_MARKET_MARKER} is missing from the data directory`;

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  seedCommand().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error instanceof TwinError ? error.message : error);
      process.exit(1);
    },
  );
}
