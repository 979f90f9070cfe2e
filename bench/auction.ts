import {
  AdminAddUserToGroupCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { cpus } from 'node:os';
import WebSocket from 'ws';
import type { Twin } from '../infra/local/twin';
import { bidsDeps, createBid } from '../functions/bids/index';
import { bidBudget, bidInput } from '../functions/bids/testing/lots';
import { dynamoDocumentClient } from '../functions/core/clients';
import { readEnv } from '../functions/core/env';
import { putFinishedItem } from '../functions/items/testing/items';
import { listingContract } from '../functions/offerings/testing/listing';
import { markOnboarded } from '../functions/profiles/testing/sellers';
import type { AuctionView } from '../shared/schemas/bids';
import { GUEST_USER_ID } from '../shared/realtime/messages';
import { startDynamoCounter } from './dynamo-counter';
import { logInWithPins } from './login';
import { bearer, HOUR, json, listApproved, submitForm } from './http';
import { median, ms, percentile, table } from './stats';

/**
 * Auctions (issue 13), on the twin in this process:
 * - throughput on one hot lot: accepted bids per second with N concurrent bidders, each a real
 *   account (Cognito access token, a 4242 card saved on the Stripe twin's hosted page) calling
 *   POST /api/users/{id}/bid/create through the local HTTP gateway and bidding the lot's current
 *   minimum; next to the raw DynamoDB Local baseline on one item of the same table with the same
 *   concurrency: a read-modify-write (consistent GetItem, then UpdateItem conditioned on the
 *   version read, again on a lost race; the bid's own shape) and a blind conditional counter
 *   UpdateItem; and the bid's own write alone (what a rebid that keeps its bidder in the lot's
 *   book commits: the lot with its note, one PutItem conditioned on its version, through the
 *   product's repo.commit, on a copy of the hot lot): the floor of any bid of this design. Rounds interleave the five so all see the same machine; medians over rounds,
 *   with the CPU this process and the whole machine used meanwhile. Then the DynamoDB requests and
 *   write units per accepted bid (bench/dynamo-counter.ts; a contended run's refused bids
 *   included, the clients' own lot reads after a refusal not).
 * - bid → watcher: 1,000 guest connections to the twin's WebSocket gateway subscribed to another
 *   lot's topic; two bidders alternate at the minimum, sequentially; from just before each bid
 *   call to the `bid.new` event on one chosen watcher (the first opened) and on the last of all.
 * The bidders, the gateway, the handlers and the 1,000 sockets share this one Node process;
 * DynamoDB Local is a Java process beside it.
 */

export interface AuctionBenchOptions {
  /** Concurrent clients of each throughput measure (e.g. [1, 8]). */
  concurrency: number[];
  rounds: number;
  /** Seconds each measure runs in a round. */
  seconds: number;
  /** WebSocket connections subscribed to the watched lot. */
  watchers: number;
  /** Timed bids of the watcher measure (after 3 warm-up bids). */
  watchBids: number;
}

type Bidder = Awaited<ReturnType<typeof account>>;

export async function benchAuction(twin: Twin, options: AuctionBenchOptions) {
  const api = twin.urls.http;
  const env = readEnv();
  const stamp = `au${Date.now().toString(36)}`;
  const auth = bearer;

  // --- accounts: a seller, support (an admin by the pool's group), the bidders with a card -----
  const seller = await account(twin, stamp);
  await markOnboarded(seller.id);
  const admin = await adminAccount(twin, `${stamp}s`);
  const bidderCount = Math.max(2, ...options.concurrency);
  const bidders: Bidder[] = [];
  for (let index = 0; index < bidderCount; index += 1) {
    const bidder = await account(twin, `${stamp}b${index}`);
    const setup = await json<{ url: string }>(
      await fetch(`${api}/api/payment-gateway/create-setup-intent`, {
        method: 'POST',
        headers: auth(bidder.token),
        body: JSON.stringify({ type: 'card' }),
      }),
    );
    await submitForm(setup.url, {
      email: `${bidder.nick}@example.com`,
      number: '4242424242424242',
      expiry: '12 / 34',
      cvc: '123',
      name: 'Bench Bidder',
    });
    bidders.push(bidder);
  }
  await twin.stripe.webhooksSettled();

  // --- two auction lots (one copy, a digital item), listed and approved through the API ---------
  const listAuction = async (label: string): Promise<string> => {
    const item = await putFinishedItem({
      creator: seller,
      copies: 1,
      product_type: 'digital',
      title: `Bench lot ${label}`,
    });
    const offering = listingContract(item.id, {
      type: 'auction',
      price: 1_000,
      end_at: new Date(Date.now() + 72 * HOUR).toISOString(),
    });
    return listApproved(api, { seller, admin }, offering, `${stamp}-${label}`);
  };
  const hotLot = await listAuction('hot');
  const watchedLot = await listAuction('watched');

  // --- bidding through the gateway ------------------------------------------------------------
  const lotView = async (offeringId: string) =>
    json<AuctionView>(await fetch(`${api}/api/users/-/bid/getbyofferingid/${offeringId}`));
  /** One bid call: accepted (201, the new minimum) or refused by a rule (another got there first). */
  const bid = async (bidder: Bidder, offeringId: string, amount: number) => {
    const response = await fetch(`${api}/api/users/${bidder.id}/bid/create`, {
      method: 'POST',
      headers: auth(bidder.token),
      body: JSON.stringify({
        offeringid: offeringId,
        bidprice: amount,
        currency: 'EUR',
        quantity: 1,
      }),
    });
    const text = await response.text();
    if (response.status === 201) {
      return { accepted: true, min: (JSON.parse(text) as { data: AuctionView }).data.minimBid };
    }
    const error = (
      JSON.parse(text) as { error?: { code?: string; details?: { minimBid?: number } } }
    ).error;
    const code = error?.code ?? '';
    if (['market.bid.errors.beaten', 'market.bid.errors.too_low'].includes(code)) {
      return { accepted: false, min: error?.details?.minimBid };
    }
    throw new Error(`bid ${amount} answered ${response.status}: ${text}`);
  };

  // The lot's minimum as the clients know it: from accepted answers, and from a refusal's
  // `details.minimBid` (read again only if a refusal did not say it).
  let known = (await lotView(hotLot)).minimBid;
  type Send = (bidder: Bidder, amount: number) => Promise<{ accepted: boolean; min?: number }>;
  /** A client bidding the minimum it knows, again and again, through `send`. */
  const bidLoop = async (send: Send, bidder: Bidder, until: number, tally: Tally) => {
    while (performance.now() < until) {
      const amount = known;
      const answer = await send(bidder, amount);
      if (answer.accepted) {
        tally.ok += 1;
        known = Math.max(known, answer.min ?? known);
      } else {
        tally.refused += 1;
        if (answer.min !== undefined) known = Math.max(known, answer.min);
        else if (known <= amount) {
          tally.reads += 1;
          known = Math.max(known, (await lotView(hotLot)).minimBid);
        }
      }
    }
  };
  const bidClient = (bidder: Bidder, until: number, tally: Tally) =>
    bidLoop((who, amount) => bid(who, hotLot, amount), bidder, until, tally);

  // The same bids through the use case in this process (no HTTP gateway, no token check): what a
  // bid costs the lot's storage path (the read when the container has no current copy, the rules,
  // the lot's conditioned write with its note, which the twin's stream poller hands to the
  // bidEvents trigger in this same process meanwhile), comparable with the raw baseline below.
  const deps = bidsDeps();
  const direct = async (bidder: Bidder, amount: number) => {
    try {
      const view = await createBid(
        deps,
        bidInput(bidder.id, hotLot, amount),
        new Date(),
        bidBudget(),
      );
      return { accepted: true, min: view.minimBid };
    } catch (error) {
      const { code = '', details } = error as {
        code?: string;
        details?: { minimBid?: number };
      };
      if (['market.bid.errors.beaten', 'market.bid.errors.too_low'].includes(code)) {
        return { accepted: false, min: details?.minimBid };
      }
      throw error;
    }
  };
  const directClient = (bidder: Bidder, until: number, tally: Tally) =>
    bidLoop(direct, bidder, until, tally);

  // --- the raw baseline: one item of the same table ------------------------------------------
  const doc = dynamoDocumentClient(env);
  const rawKey = { pk: `BENCH#AUCTION#${stamp}`, sk: 'RAW' };
  await doc.send(new PutCommand({ TableName: env.tableName, Item: { ...rawKey, v: 0, n: 0 } }));
  const readModifyWrite = async (until: number, tally: Tally) => {
    while (performance.now() < until) {
      const read = await doc.send(
        new GetCommand({ TableName: env.tableName, Key: rawKey, ConsistentRead: true }),
      );
      const version = Number(read.Item?.v);
      try {
        await doc.send(
          new UpdateCommand({
            TableName: env.tableName,
            Key: rawKey,
            UpdateExpression: 'SET v = :next, n = n + :one',
            ConditionExpression: 'v = :expected',
            ExpressionAttributeValues: { ':next': version + 1, ':one': 1, ':expected': version },
          }),
        );
        tally.ok += 1;
      } catch (error) {
        if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
        tally.refused += 1;
      }
    }
  };
  const counterUpdate = async (until: number, tally: Tally) => {
    while (performance.now() < until) {
      await doc.send(
        new UpdateCommand({
          TableName: env.tableName,
          Key: rawKey,
          UpdateExpression: 'SET n = n + :one',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':one': 1 },
        }),
      );
      tally.ok += 1;
    }
  };

  // --- the bid's own write alone: what a rebid that keeps its bidder among the lot's leading
  // bids commits (the product's repo.commit): the lot conditioned on its version, with the note the
  // stream carries out (a line and a follow-up of the usual size; its version marks it as no change,
  // so the trigger passes it over), on a copy of the hot lot as the warm-up left it (same size),
  // with no session, rules, read or follow-up: the floor of this design, next to the raw baselines.
  const copyId = `${hotLot}-WRITE`;
  let copyLot: NonNullable<Awaited<ReturnType<typeof deps.repo.getLot>>> | undefined;
  const transactionOnly = async (until: number, tally: Tally, client: number) => {
    const bidder = bidders[client] as Bidder;
    while (performance.now() < until) {
      const lot = copyLot;
      if (lot === undefined) throw new Error('the lot copy is not written');
      const at = new Date().toISOString();
      const next = { ...lot, log: lot.log + 1, version: lot.version + 1 };
      const result = await deps.repo.commit(
        next,
        lot.version,
        {
          version: 0,
          line: {
            index: lot.log,
            kind: 'bid',
            bidder_id: bidder.id,
            nick: bidder.nick,
            amount: 1_000,
            max: 1_000,
            quantity: 1,
            seq: lot.log + 1,
            at,
            follow: { size: 'x'.repeat(600) },
          },
          entry: {
            bidder_id: bidder.id,
            standing: {
              bidder_id: bidder.id,
              bidder_nick: bidder.nick,
              amount: 1_000,
              max: 1_000,
              quantity: 1,
              seq: lot.log + 1,
              placed_at: at,
            },
            last_at: at,
          },
        },
        [],
      );
      if (result.written) {
        tally.ok += 1;
        if ((copyLot?.version ?? 0) < next.version) copyLot = next;
        continue;
      }
      tally.refused += 1;
      const current = result.current ?? (await deps.repo.getLot(copyId));
      if (current !== undefined && (copyLot?.version ?? 0) < current.version) copyLot = current;
    }
  };

  const KINDS = {
    bids: (until: number, tally: Tally, client: number) =>
      bidClient(bidders[client] as Bidder, until, tally),
    direct: (until: number, tally: Tally, client: number) =>
      directClient(bidders[client] as Bidder, until, tally),
    rmw: (until: number, tally: Tally) => readModifyWrite(until, tally),
    counter: (until: number, tally: Tally) => counterUpdate(until, tally),
    transaction: (until: number, tally: Tally, client: number) =>
      transactionOnly(until, tally, client),
  } as const;
  type Kind = keyof typeof KINDS;
  const measure = async (kind: Kind, clients: number, seconds: number) => {
    const tally: Tally = { ok: 0, refused: 0, reads: 0 };
    const cpu = process.cpuUsage();
    const machine = machineTimes();
    const started = performance.now();
    const until = started + seconds * 1000;
    await Promise.all(
      Array.from({ length: clients }, (_, client) => KINDS[kind](until, tally, client)),
    );
    const elapsedMs = performance.now() - started;
    const used = process.cpuUsage(cpu);
    const after = machineTimes();
    return {
      perSecond: tally.ok / (elapsedMs / 1000),
      ...tally,
      // This process's CPU (gateway, handlers, clients) in cores; the machine's busy share.
      processCores: (used.user + used.system) / 1000 / elapsedMs,
      machineBusy: 1 - (after.idle - machine.idle) / (after.total - machine.total),
    };
  };

  // Warm-up: every bidder's first bid reads their card from Stripe (later ones find it on the lot).
  for (const bidder of bidders) {
    const answer = await bid(bidder, hotLot, known);
    if (answer.accepted) known = Math.max(known, answer.min ?? known);
    else known = (await lotView(hotLot)).minimBid;
  }
  const warmLot = await deps.repo.getLot(hotLot);
  if (warmLot === undefined) throw new Error('the hot lot is not written');
  // Not stale, no close look planned, ending when the hot lot does: the sweeper leaves it alone.
  copyLot = { ...warmLot, offering_id: copyId, stale: false, next_at: null, version: 1 };
  if (!(await deps.repo.saveLot(copyLot, 0))) throw new Error('the lot copy exists');
  for (const clients of options.concurrency) {
    for (const kind of Object.keys(KINDS) as Kind[]) await measure(kind, clients, 1);
  }

  const samples = new Map<
    string,
    ReturnType<typeof measure> extends Promise<infer R> ? R[] : never
  >();
  const key = (kind: Kind, clients: number) => `${kind}|${clients}`;
  const order: Kind[] = ['bids', 'direct', 'transaction', 'rmw', 'counter'];
  for (let round = 0; round < options.rounds; round += 1) {
    for (const clients of options.concurrency) {
      // Rotated each round, so no measure always runs first after the other concurrency.
      for (let step = 0; step < order.length; step += 1) {
        const kind = order[(round + step) % order.length] as Kind;
        const result = await measure(kind, clients, options.seconds);
        const list = samples.get(key(kind, clients)) ?? [];
        list.push(result);
        samples.set(key(kind, clients), list);
      }
    }
  }
  const rateOf = (kind: Kind, clients: number) =>
    median((samples.get(key(kind, clients)) ?? []).map((sample) => sample.perSecond));
  const medianOf = (kind: Kind, clients: number, field: 'processCores' | 'machineBusy') =>
    median((samples.get(key(kind, clients)) ?? []).map((sample) => sample[field]));
  const sumOf = (kind: Kind, clients: number, field: 'ok' | 'refused' | 'reads') =>
    (samples.get(key(kind, clients)) ?? []).reduce((sum, sample) => sum + sample[field], 0);

  // --- DynamoDB requests and write units per accepted bid (counting proxy, not timed) ---------
  const dynamo = await startDynamoCounter(twin.urls.dynamodb);
  const savedEndpoint = process.env.DYNAMODB_ENDPOINT;
  const perAccepted: Record<number, PerAccepted> = {};
  try {
    process.env.DYNAMODB_ENDPOINT = dynamo.url;
    // A client's own lot read after a refusal (GET bid/getbyofferingid) is not the bid's: its
    // requests, counted alone first, are taken out below.
    dynamo.reset();
    await lotView(hotLot);
    const perRead = dynamo.counts();
    for (const clients of options.concurrency) {
      const tally: Tally = { ok: 0, refused: 0, reads: 0 };
      dynamo.reset();
      if (clients === 1) {
        for (let run = 0; run < 20; run += 1) {
          const answer = await bid(bidders[0] as Bidder, hotLot, known);
          if (!answer.accepted) throw new Error('a lone bidder was refused');
          tally.ok += 1;
          known = Math.max(known, answer.min ?? known);
        }
      } else {
        const until = performance.now() + options.seconds * 1000;
        await Promise.all(
          Array.from({ length: clients }, (_, client) =>
            bidClient(bidders[client] as Bidder, until, tally),
          ),
        );
      }
      // What follows the bids (the bidEvents stream trigger, in this process) is theirs too.
      await twin.streamsSettled();
      const counts = dynamo.counts();
      for (const [operation, count] of Object.entries(perRead)) {
        counts[operation] = (counts[operation] ?? 0) - count * tally.reads;
      }
      const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
      perAccepted[clients] = {
        accepted: tally.ok,
        refused: tally.refused,
        requests: total / tally.ok,
        writeUnits: dynamo.writeUnits() / tally.ok,
        operations: Object.fromEntries(
          Object.entries(counts)
            .filter(([, count]) => count !== 0)
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([name, count]) => [name, count / tally.ok]),
        ),
      };
    }
  } finally {
    if (savedEndpoint === undefined) Reflect.deleteProperty(process.env, 'DYNAMODB_ENDPOINT');
    else process.env.DYNAMODB_ENDPOINT = savedEndpoint;
    await dynamo.stop();
  }

  const throughput = options.concurrency.map((clients) => {
    const bids = rateOf('bids', clients);
    const viaUseCase = rateOf('direct', clients);
    const rmw = rateOf('rmw', clients);
    const counter = rateOf('counter', clients);
    const transaction = rateOf('transaction', clients);
    return {
      clients,
      bidTransactionPerSecond: transaction,
      transactionRatioToCounterUpdate: transaction / counter,
      acceptedBidsPerSecond: bids,
      useCaseBidsPerSecond: viaUseCase,
      useCaseRatioToReadModifyWrite: viaUseCase / rmw,
      rawReadModifyWritePerSecond: rmw,
      rawCounterUpdatePerSecond: counter,
      ratioToReadModifyWrite: bids / rmw,
      ratioToCounterUpdate: bids / counter,
      bidsAccepted: sumOf('bids', clients, 'ok'),
      bidsRefused: sumOf('bids', clients, 'refused'),
      rawConditionFailures: sumOf('rmw', clients, 'refused'),
      cpu: Object.fromEntries(
        (['bids', 'direct', 'transaction', 'rmw', 'counter'] as const).map((kind) => [
          kind,
          {
            processCores: medianOf(kind, clients, 'processCores'),
            machineBusy: medianOf(kind, clients, 'machineBusy'),
          },
        ]),
      ),
    };
  });
  console.log(
    `\n15. One hot auction lot: accepted bids per second vs raw conditional UpdateItem on one item ` +
      `(${options.rounds} interleaved rounds of ${options.seconds} s each; medians)\n`,
  );
  console.log(
    `   bidders: ${bidderCount} real accounts (access tokens, a saved 4242 card on the Stripe twin), ` +
      `POST /api/users/{id}/bid/create through the twin's HTTP gateway, each bidding the current minimum`,
  );
  console.log(
    '   raw: DynamoDB Local, one item of the same table, same SDK client; read-modify-write = ' +
      'consistent GetItem + UpdateItem conditioned on the version read; counter = UpdateItem ' +
      'SET n = n + 1 conditioned on attribute_exists; "via the use case": the same bidders calling ' +
      'createBid in this process (no HTTP, no token check; the follow-ups still run, from the table stream); ' +
      '"the bid\'s write alone": what a rebid that keeps its bidder in the lot\'s book commits ' +
      '(the lot with its note, one PutItem conditioned on its version; repo.commit) on a copy of ' +
      'the hot lot, with nothing else\n',
  );
  console.log(
    table(
      [
        'clients',
        'accepted bids/s (HTTP)',
        'via the use case/s',
        "the bid's write alone/s",
        'raw read-modify-write/s',
        'raw counter UpdateItem/s',
        'bids / RMW',
        'use case / RMW',
        'bids / counter',
        'use case / counter',
        'write alone / counter',
        'bids accepted : refused',
      ],
      throughput.map((row) => [
        String(row.clients),
        row.acceptedBidsPerSecond.toFixed(1),
        row.useCaseBidsPerSecond.toFixed(1),
        row.bidTransactionPerSecond.toFixed(1),
        row.rawReadModifyWritePerSecond.toFixed(1),
        row.rawCounterUpdatePerSecond.toFixed(1),
        `${(row.ratioToReadModifyWrite * 100).toFixed(1)} %`,
        `${(row.useCaseRatioToReadModifyWrite * 100).toFixed(1)} %`,
        `${(row.ratioToCounterUpdate * 100).toFixed(1)} %`,
        `${((row.useCaseBidsPerSecond / row.rawCounterUpdatePerSecond) * 100).toFixed(1)} %`,
        `${(row.transactionRatioToCounterUpdate * 100).toFixed(1)} %`,
        `${row.bidsAccepted} : ${row.bidsRefused}`,
      ]),
    ),
  );
  console.log('\n   goal: accepted bids/s ≥ 50 % of the raw conditional UpdateItem/s');
  const cores = cpus().length;
  console.log(
    `   CPU while measuring (medians): this Node process (gateway, handlers, clients) in cores; ` +
      `the machine's ${cores} cores busy (DynamoDB Local and anything else running)\n`,
  );
  console.log(
    table(
      [
        'clients',
        'bids: process / machine',
        'RMW: process / machine',
        'counter: process / machine',
      ],
      throughput.map((row) => [
        String(row.clients),
        ...(['bids', 'rmw', 'counter'] as const).map((kind) => {
          const cpu = row.cpu[kind];
          return cpu === undefined
            ? ''
            : `${cpu.processCores.toFixed(2)} / ${(cpu.machineBusy * 100).toFixed(0)} %`;
        }),
      ]),
    ),
  );
  console.log('');
  for (const clients of options.concurrency) {
    const entry = perAccepted[clients];
    if (entry === undefined) continue;
    console.log(
      `   per accepted bid, ${clients} client${clients === 1 ? '' : 's'} (${entry.accepted} accepted, ${entry.refused} refused, counted): ` +
        `${entry.requests.toFixed(1)} DynamoDB requests, ${entry.writeUnits.toFixed(1)} write units; ` +
        JSON.stringify(
          Object.fromEntries(
            Object.entries(entry.operations).map(([name, value]) => [
              name,
              Number(value.toFixed(2)),
            ]),
          ),
        ),
    );
  }

  const watch = await benchWatchers(twin, {
    offeringId: watchedLot,
    watchers: options.watchers,
    bids: options.watchBids,
    bidOnce: async (index) => {
      const bidder = bidders[index % 2] as Bidder;
      const min = (await lotView(watchedLot)).minimBid;
      return { min, call: () => bid(bidder, watchedLot, min) };
    },
  });

  return { bidderCount, via: 'gateway', throughput, perAccepted, watch };
}

/** All cores' CPU times (ms) since boot: idle and total. */
function machineTimes(): { idle: number; total: number } {
  return cpus().reduce(
    (sum, { times }) => ({
      idle: sum.idle + times.idle,
      total: sum.total + times.user + times.nice + times.sys + times.idle + times.irq,
    }),
    { idle: 0, total: 0 },
  );
}

interface Tally {
  ok: number;
  refused: number;
  reads: number;
}

interface PerAccepted {
  accepted: number;
  refused: number;
  /** DynamoDB requests per accepted bid (refused bids' requests included). */
  requests: number;
  writeUnits: number;
  operations: Record<string, number>;
}

let phones = 0;

/** Sign-up through the gateway and the real login (e-mail and SMS pins from the outbox). */
async function account(twin: Twin, nick: string) {
  phones += 1;
  const user = {
    user_option: 'individual',
    nick,
    email: `${nick}@example.com`,
    phone: `+4477${String(Date.now() + phones).slice(-8)}`,
    name: 'Bench',
    surname: 'Bidder',
    terms: true,
  };
  const { id } = await json<{ id: string }>(
    await fetch(`${twin.urls.http}/api/users/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user }),
    }),
  );
  const logIn = async () => {
    const cognito = new CognitoIdentityProviderClient({
      region: 'us-east-1',
      endpoint: twin.urls.cognito,
    });
    try {
      return (await logInWithPins(twin, cognito, twin.cognito.clientId, user)).accessToken;
    } finally {
      cognito.destroy();
    }
  };
  return { id, nick, token: await logIn(), logIn };
}

/**
 * A fresh account in the pool's admin group (support approves listings), logged in again so its
 * token carries the group; not the twin's support e-mail, which another bench may have taken.
 */
async function adminAccount(twin: Twin, nick: string) {
  const user = await account(twin, nick);
  const cognito = new CognitoIdentityProviderClient({
    region: 'us-east-1',
    endpoint: twin.urls.cognito,
  });
  try {
    await cognito.send(
      new AdminAddUserToGroupCommand({
        UserPoolId: twin.userPoolId,
        Username: user.id,
        GroupName: 'admin',
      }),
    );
  } finally {
    cognito.destroy();
  }
  return { ...user, token: await user.logIn() };
}

async function benchWatchers(
  twin: Twin,
  input: {
    offeringId: string;
    watchers: number;
    bids: number;
    /** Reads the lot's minimum (untimed) and answers the bid call to time. */
    bidOnce: (
      index: number,
    ) => Promise<{ min: number; call: () => Promise<{ accepted: boolean }> }>;
  },
) {
  const topic = `offering:${input.offeringId}`;
  const url = `${twin.urls.ws}?userid=${encodeURIComponent(GUEST_USER_ID)}`;
  const sockets: WebSocket[] = [];
  let limit: string | null = null;

  // What the current bid's event reached: its id (the first arrival's), how many, when.
  let current: {
    id: string | undefined;
    count: number;
    chosenAt: number | undefined;
    lastAt: number;
    stray: number;
    done: () => void;
  } = { id: undefined, count: 0, chosenAt: undefined, lastAt: 0, stray: 0, done: () => undefined };

  const open = (index: number) =>
    new Promise<WebSocket>((resolve, reject) => {
      const socket = new WebSocket(url);
      const timer = setTimeout(() => reject(new Error('no subscribed in 30 s')), 30_000);
      socket.on('message', (data) => {
        const at = performance.now();
        const message = JSON.parse(String(data)) as { type?: string; id?: string; topic?: string };
        if (message.type === 'subscribed' && message.topic === topic) {
          clearTimeout(timer);
          resolve(socket);
          return;
        }
        if (message.type !== 'bid.new') return;
        current.id ??= message.id;
        if (message.id !== current.id) {
          current.stray += 1;
          return;
        }
        current.count += 1;
        current.lastAt = at;
        if (index === 0) current.chosenAt = at;
        if (current.count === sockets.length) current.done();
      });
      socket.once('open', () => socket.send(JSON.stringify({ action: 'subscribe', topic })));
      socket.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });

  const BATCH = 50;
  const openStarted = performance.now();
  try {
    for (let start = 0; start < input.watchers && limit === null; start += BATCH) {
      const batch = await Promise.allSettled(
        Array.from({ length: Math.min(BATCH, input.watchers - start) }, (_, offset) =>
          open(start + offset),
        ),
      );
      for (const outcome of batch) {
        if (outcome.status === 'fulfilled') sockets.push(outcome.value);
        else limit ??= String((outcome.reason as Error).message);
      }
    }
    const openMs = performance.now() - openStarted;
    if (limit !== null) {
      console.log(
        `\n   ! only ${sockets.length} of ${input.watchers} connections opened (${limit}); measured with ${sockets.length}`,
      );
    }

    const chosen: number[] = [];
    const last: number[] = [];
    const answered: number[] = [];
    const WARMUP = 3;
    for (let run = 0; run < input.bids + WARMUP; run += 1) {
      const { call } = await input.bidOnce(run);
      const heard = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`bid.new reached ${current.count} of ${sockets.length} in 30 s`)),
          30_000,
        );
        current = {
          id: undefined,
          count: 0,
          chosenAt: undefined,
          lastAt: 0,
          stray: current.stray,
          done: () => {
            clearTimeout(timer);
            resolve();
          },
        };
      });
      const started = performance.now();
      const [answer] = await Promise.all([
        call().then((result) => ({ ...result, at: performance.now() })),
        heard,
      ]);
      if (!answer.accepted) throw new Error('a watched bid was refused');
      if (run < WARMUP) continue;
      chosen.push((current.chosenAt ?? Number.NaN) - started);
      last.push(current.lastAt - started);
      answered.push(answer.at - started);
    }

    console.log(
      `\n16. Bid → bid.new on ${sockets.length.toLocaleString('en')} subscribed WebSocket connections ` +
        `(guests on the twin's WebSocket gateway, one topic; ${input.bids} sequential bids through the ` +
        `HTTP gateway, two bidders alternating at the minimum; ${sockets.length.toLocaleString('en')} ` +
        `connections opened and subscribed in ${(openMs / 1000).toFixed(1)} s)\n`,
    );
    console.log(
      table(
        ['from just before the bid call to', 'p50', 'p95'],
        [
          ['bid.new at one chosen watcher', ms(percentile(chosen, 50)), ms(percentile(chosen, 95))],
          [
            `bid.new at the last of ${sockets.length.toLocaleString('en')}`,
            ms(percentile(last, 50)),
            ms(percentile(last, 95)),
          ],
          [
            "the bid call's answer (201)",
            ms(percentile(answered, 50)),
            ms(percentile(answered, 95)),
          ],
        ],
      ),
    );
    if (current.stray > 0) console.log(`   (${current.stray} bid.new of another bid ignored)`);
    return {
      watchers: sockets.length,
      requested: input.watchers,
      limit,
      bids: input.bids,
      openMs,
      chosenP50: percentile(chosen, 50),
      chosenP95: percentile(chosen, 95),
      lastP50: percentile(last, 50),
      lastP95: percentile(last, 95),
      answerP50: percentile(answered, 50),
      answerP95: percentile(answered, 95),
    };
  } finally {
    await Promise.all(
      sockets.map(
        (socket) =>
          new Promise<void>((resolve) => {
            if (socket.readyState === WebSocket.CLOSED) {
              resolve();
              return;
            }
            const timer = setTimeout(() => {
              socket.terminate();
              resolve();
            }, 5_000);
            socket.once('close', () => {
              clearTimeout(timer);
              resolve();
            });
            socket.close();
          }),
      ),
    );
  }
}
