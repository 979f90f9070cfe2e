/**
 * `npm run bench`: prints, in one run,
 *  1. the minified size of each handler bundle (one esbuild pass over the route table),
 *  2. each handler module's init time on the Node that runs this (24, pinned by npm): median of
 *     fresh-process imports,
 *  3. p50/p95 of GET /api/users/sellers (a full page of 50) through the local gateway, next to the
 *     raw DynamoDB Local Query the call makes for the same page, interleaved in the same run,
 *  4. the login round trip and DynamoDB requests of sign-up and login (bench/login.ts),
 *  5. creating a 200-copy item: time, DynamoDB requests and write units (bench/mint.ts),
 *  6. the JavaScript a guest needs before /, /sellers and a profile are live, raw and gzip
 *     (bench/web-js.ts),
 *  7. Lighthouse mobile performance, LCP, TBT, CLS and the JavaScript downloaded on /, /sellers
 *     and a profile page, on the production build served by the twin, with Lighthouse's simulated
 *     throttling (the default) and with applied (DevTools) throttling (bench/lighthouse.ts),
 *  8. the profile page rendered on request: loading the web's server bundle in a fresh process
 *     (a cold page call) and rendering a profile with 50 items (bench/page-render.ts).
 *  9. Stripe's webhook through the local gateway: p50/p95 and DynamoDB requests per event, for a
 *     seller's account.updated, a saved card's setup_intent.succeeded and a redelivery
 *     (bench/webhook.ts).
 * 10. notify() → `notification.created` on a user's open WebSocket: p50/p95 (bench/notify.ts).
 * 11. The fan-out of a new offering to 10,000 followers (the follower-fanout workflow): the start
 *     call, the time to the last notification, DynamoDB write units and requests per follower
 *     (bench/notify.ts).
 * 12. A market page of 50 offerings with filters on: p50/p95 through the local gateway next to the
 *     raw Query of its partition, interleaved, and the DynamoDB requests per page (goal 1); 13.
 *     listing a 200-copy item end to end (bench/market.ts).
 * 14. Checkout: book one copy, pay with the saved card, fulfilled: p50/p95 next to the market page
 *     in the same run (goal ≤ 5× at p95), and the DynamoDB requests, write units and Stripe calls
 *     per order (bench/checkout.ts).
 * 15. Auctions: accepted bids per second on one hot lot (bidders through the local gateway) next
 *     to raw conditional UpdateItems per second on one item of the same table, interleaved rounds,
 *     1 and 8 concurrent clients (goal ≥ 50 %), and the DynamoDB requests and write units per
 *     accepted bid; 16. bid → `bid.new` at one watcher and at the last of 1,000 subscribed
 *     WebSocket connections, p50/p95 (bench/auction.ts).
 * `npm run bench -- web` runs 6 to 8 only; `npm run bench -- market` runs 12 and 13 only; `npm run bench -- checkout` runs 14 only; `npm run bench -- auction` runs 15 and 16 only; `npm run bench -- web-js` runs 6 only (seconds);
 * `npm run bench -- webhook` runs 9 only; `npm run bench -- notify` runs 10 and 11 only.
 * Figures go to stdout and to bench/results/latest.json. The machine is noisy: compare medians
 * and the ratio measured in the same run, not absolute numbers across runs.
 */
import './quiet';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { bundleFunctions, REPO_ROOT } from '../infra/lib/bundle';
import { startTwin } from '../infra/local/twin';
import { dynamoDocumentClient } from '../functions/core/clients';
import { readEnv } from '../functions/core/env';
import { putSellers, sellerProfile } from '../functions/profiles/testing/sellers';
import { renderDirOf } from '../infra/lib/web-pages';
import { measureInitTime } from './init-time';
import { benchPageRender } from './page-render';
import { benchLogin } from './login';
import { benchMint } from './mint';
import { benchWebhook } from './webhook';
import { benchFanOut, benchNotifyToBell } from './notify';
import { benchMarket } from './market';
import { benchCheckout } from './checkout';
import { benchAuction, type AuctionBenchOptions } from './auction';
import { benchLighthouse } from './lighthouse';
import { benchWebJs } from './web-js';
import { kib, median, ms, percentile, table } from './stats';

const INIT_RUNS = Number(process.env.BENCH_INIT_RUNS ?? 7);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
const SELLERS = 200;
const LOGINS = Number(process.env.BENCH_LOGINS ?? 20);
const MINTS = Number(process.env.BENCH_MINTS ?? 5);
const WEBHOOKS = Number(process.env.BENCH_WEBHOOKS ?? 100);
const NOTIFIES = Number(process.env.BENCH_NOTIFIES ?? 200);
const FAN_OUT_FOLLOWERS = Number(process.env.BENCH_FANOUT_FOLLOWERS ?? 10_000);
const MARKET_REQUESTS = Number(process.env.BENCH_MARKET_REQUESTS ?? 300);
const CHECKOUTS = Number(process.env.BENCH_CHECKOUTS ?? 40);
const AUCTION: AuctionBenchOptions = {
  concurrency: (process.env.BENCH_AUCTION_CLIENTS ?? '1,8').split(',').map(Number),
  rounds: Number(process.env.BENCH_AUCTION_ROUNDS ?? 5),
  seconds: Number(process.env.BENCH_AUCTION_SECONDS ?? 3),
  watchers: Number(process.env.BENCH_AUCTION_WATCHERS ?? 1000),
  watchBids: Number(process.env.BENCH_AUCTION_WATCH_BIDS ?? 40),
};

async function bundles() {
  const outDir = path.join(REPO_ROOT, 'dist', 'bench-functions');
  const result = await bundleFunctions({ outDir, minify: true, sourcemap: false });
  const rows = Object.entries(result).sort(([a], [b]) => a.localeCompare(b));
  console.log('\n1. Handler bundles (minified, one esbuild pass)\n');
  console.log(
    table(
      ['handler', 'size'],
      rows.map(([handler, { bytes }]) => [handler, kib(bytes)]),
    ),
  );
  return rows;
}

function initTimes(rows: [string, { file: string; bytes: number }][]) {
  console.log(
    `\n2. Handler init time on Node ${process.versions.node} (median of ${INIT_RUNS} fresh imports)\n`,
  );
  const results = rows.map(([handler, { file }]) => {
    const { medianMs, samples } = measureInitTime(file, INIT_RUNS);
    return { handler, medianMs, minMs: Math.min(...samples) };
  });
  console.log(
    table(
      ['handler', 'median', 'min'],
      results.map((r) => [r.handler, ms(r.medianMs), ms(r.minMs)]),
    ),
  );
  return results;
}

async function latency() {
  const twin = await startTwin({ mode: 'test' });
  try {
    const env = readEnv();
    const doc = dynamoDocumentClient(env);
    // A full page and more of sellers, written straight to the table.
    await putSellers(
      ...Array.from({ length: SELLERS }, (_, index) => ({
        ...sellerProfile(`bench${index}`, (index * 7919) % 5000, `Bench ${index}`),
        title: 'Maker',
        profile_image: `avatars/bench/${index}.webp`,
        is_verified: index % 3 === 0,
      })),
    );
    const url = `${twin.urls.http}/api/users/sellers?limit=50`;
    const query = new QueryCommand({
      TableName: env.tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :sellers',
      ExpressionAttributeValues: { ':sellers': 'SELLERS' },
      ScanIndexForward: false,
      Limit: 51,
    });
    const timeApi = async () => {
      const started = performance.now();
      const response = await fetch(url);
      const body = (await response.json()) as { data: { items: unknown[] } };
      if (response.status !== 200 || body.data.items.length !== 50)
        throw new Error(`bad answer ${response.status}`);
      return performance.now() - started;
    };
    const timeQuery = async () => {
      const started = performance.now();
      const result = await doc.send(query);
      if ((result.Items ?? []).length !== 51) throw new Error('bad query');
      return performance.now() - started;
    };
    for (let warm = 0; warm < 30; warm += 1) {
      await timeApi();
      await timeQuery();
    }
    const api: number[] = [];
    const raw: number[] = [];
    // Interleaved, so both see the same machine noise.
    for (let request = 0; request < REQUESTS; request += 1) {
      api.push(await timeApi());
      raw.push(await timeQuery());
    }
    const rows = [
      ['GET /api/users/sellers (gateway)', ms(percentile(api, 50)), ms(percentile(api, 95))],
      ['raw DynamoDB Local Query', ms(percentile(raw, 50)), ms(percentile(raw, 95))],
    ];
    console.log(
      `\n3. A page of 50 sellers (of ${SELLERS}), ${REQUESTS} sequential requests each, interleaved\n`,
    );
    console.log(table(['call', 'p50', 'p95'], rows));
    const ratio = median(api) / median(raw);
    console.log(`\n   gateway p50 / raw Query p50 = ${ratio.toFixed(2)}×`);
    const login = await benchLogin(twin, LOGINS);
    const mint = await benchMint(twin, MINTS);
    const webhook = await benchWebhook(twin, WEBHOOKS);
    const notifyToBell = await benchNotifyToBell(twin, NOTIFIES);
    const fanOut = await benchFanOut(twin, FAN_OUT_FOLLOWERS);
    const market = await benchMarket(twin, MARKET_REQUESTS);
    const checkout = await benchCheckout(twin, CHECKOUTS);
    const auction = await benchAuction(twin, AUCTION);
    return {
      market,
      checkout,
      auction,
      login,
      mint,
      webhook,
      notifyToBell,
      fanOut,
      apiP50: percentile(api, 50),
      apiP95: percentile(api, 95),
      rawP50: percentile(raw, 50),
      rawP95: percentile(raw, 95),
      ratio,
    };
  } finally {
    await twin.stop();
  }
}

async function webFigures() {
  const { outDir, ...js } = await benchWebJs();
  const lighthouse = await benchLighthouse(outDir, js.guestHomeGzip);
  const pageRender = await benchPageRender(renderDirOf(outDir));
  console.log(
    "\n8. Profile page rendered on request (functions/pages, the web build's server bundle)\n",
  );
  console.log(
    table(
      [
        'server bundle',
        'import (cold, median of 5)',
        'render (median of 30)',
        'render p95',
        'HTML',
      ],
      [
        [
          kib(pageRender.bundleBytes),
          ms(pageRender.importMedianMs),
          ms(pageRender.renderMedianMs),
          ms(pageRender.renderP95Ms),
          kib(pageRender.htmlBytes),
        ],
      ],
    ),
  );
  return { ...js, lighthouse, pageRender };
}

async function main() {
  process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
  const args = process.argv.slice(2);
  const webOnly = args.includes('web');
  const webJsOnly = args.includes('web-js');
  const resultsDir = path.join(REPO_ROOT, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  const write = (file: string, figures: object) => {
    writeFileSync(
      path.join(resultsDir, file),
      JSON.stringify(
        { at: new Date().toISOString(), node: process.versions.node, ...figures },
        null,
        2,
      ),
    );
    console.log(`\nResults written to bench/results/${file}`);
  };
  if (args.includes('webhook')) {
    const twin = await startTwin({ mode: 'test' });
    try {
      write('webhook.json', { webhook: await benchWebhook(twin, WEBHOOKS) });
    } finally {
      await twin.stop();
    }
    return;
  }
  if (args.includes('auction')) {
    const twin = await startTwin({ mode: 'test' });
    try {
      write('auction.json', { auction: await benchAuction(twin, AUCTION) });
    } finally {
      await twin.stop();
    }
    return;
  }
  if (args.includes('checkout')) {
    const twin = await startTwin({ mode: 'test' });
    try {
      write('checkout.json', { checkout: await benchCheckout(twin, CHECKOUTS) });
    } finally {
      await twin.stop();
    }
    return;
  }
  if (args.includes('market')) {
    const twin = await startTwin({ mode: 'test' });
    try {
      write('market.json', { market: await benchMarket(twin, MARKET_REQUESTS) });
    } finally {
      await twin.stop();
    }
    return;
  }
  if (args.includes('notify')) {
    const twin = await startTwin({ mode: 'test' });
    try {
      write('notify.json', {
        notifyToBell: await benchNotifyToBell(twin, NOTIFIES),
        fanOut: await benchFanOut(twin, FAN_OUT_FOLLOWERS),
      });
    } finally {
      await twin.stop();
    }
    return;
  }
  if (webJsOnly) {
    const { outDir: _outDir, ...js } = await benchWebJs();
    write('web-js.json', { webJs: js });
    return;
  }
  if (webOnly) {
    write('web.json', { web: await webFigures() });
    return;
  }
  const rows = await bundles();
  const init = initTimes(rows);
  const sellers = await latency();
  const web = await webFigures();
  write('latest.json', {
    bundles: Object.fromEntries(rows.map(([handler, { bytes }]) => [handler, bytes])),
    initMs: Object.fromEntries(init.map((r) => [r.handler, r.medianMs])),
    sellers,
    web,
  });
}

await main();
