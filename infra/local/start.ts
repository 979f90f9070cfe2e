import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkJava } from './dynamodb';
import {
  RUNNING_FILE,
  SEEDED_MARKET_MARKER,
  seedDemoData,
  seedDemoMarketOn,
  type RunningTwinFile,
} from './seed';
import { DEFAULT_DATA_DIR, REPO_ROOT, TwinError, assertPortFree, type Log } from './support';
import { DEV_PORTS, TWIN_NAMES, startTwin, type Twin } from './twin';

/**
 * `npm start`: the whole product on this machine, stopped by one Ctrl-C.
 * Checks Java and the ports, builds the web app when its build is missing or older than web/,
 * starts the twin on http://localhost:3000, seeds demo data on the first start (a marker in
 * .data/; the demo market has its own marker), and prints the URLs. SIGINT/SIGTERM stop every part (DynamoDB Local's JVM included;
 * a watchdog kills it even if this process is killed outright).
 */

export const SEEDED_MARKER = 'seeded';

const WEB_DIR = path.join(REPO_ROOT, 'web');
const WEB_BUILD = path.join(REPO_ROOT, 'dist', 'web');

/** Newest modification time under a directory (node_modules and dot-directories skipped). */
export function newestMtime(directory: string): number {
  let newest = 0;
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      if (/\.test\.tsx?$/.test(entry.name)) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else newest = Math.max(newest, statSync(full).mtimeMs);
    }
  };
  if (existsSync(directory)) walk(directory);
  return newest;
}

/** Why the web build must be (re)made, or null when it is current. */
export function webBuildReason(): string | null {
  const index = path.join(WEB_BUILD, 'index.html');
  if (!existsSync(index)) return 'dist/web is missing';
  const sources = Math.max(newestMtime(WEB_DIR), newestMtime(path.join(REPO_ROOT, 'shared')));
  return sources > statSync(index).mtimeMs ? 'web/ changed since the last build' : null;
}

interface Running {
  child?: ChildProcess;
  starting?: Promise<Twin>;
  stopping?: Promise<void>;
}

async function runBuild(running: Running, log: Log): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const child = spawn('npm', ['run', 'build:web'], { cwd: REPO_ROOT, stdio: 'inherit' });
    running.child = child;
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      running.child = undefined;
      if (code === 0) resolve();
      else if (signal !== null) reject(new TwinError(`the web build was stopped (${signal})`));
      else reject(new TwinError(`\`npm run build:web\` failed with exit code ${code ?? '?'}.`));
    });
  });
  log('[start] web build done');
}

export async function start(options: { dataDir?: string; log?: Log } = {}): Promise<void> {
  const log = options.log ?? console.log;
  const dataDir = options.dataDir ?? DEFAULT_DATA_DIR;
  const running: Running = {};
  const runningFile = path.join(dataDir, RUNNING_FILE);

  const shutdown = (reason: string, code: number): Promise<void> => {
    running.stopping ??= (async () => {
      log(`\n[start] ${reason}: stopping…`);
      running.child?.kill('SIGTERM');
      const twin = await running.starting?.catch(() => undefined);
      await twin?.stop();
      rmSync(runningFile, { force: true });
      log('[start] stopped.');
      process.exit(code);
    })();
    return running.stopping;
  };
  let interrupts = 0;
  const onSignal = (signal: NodeJS.Signals): void => {
    interrupts += 1;
    if (interrupts > 1) {
      log('[start] second interrupt: exiting now (the DynamoDB Local watchdog stops Java).');
      process.exit(130);
    }
    void shutdown(`${signal} received`, 0);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);
  // `npm start` runs us under `sh -c`, which does not pass SIGTERM on: when whoever started us
  // (npm, a test runner) is gone, stop too instead of running on as an orphan.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) void shutdown('parent process exited', 0);
  }, 1_000).unref();

  try {
    const javaMajor = await checkJava();
    log(`[start] Java ${javaMajor} found`);
    await assertPortFree(DEV_PORTS.http, 'HTTP gateway, http://localhost:3000');
    await assertPortFree(DEV_PORTS.dynamodb, 'DynamoDB Local');
    await assertPortFree(DEV_PORTS.s3, 'S3 (s3rver guard)');
    await assertPortFree(DEV_PORTS.outbox, 'e-mail/SMS outbox');
    await assertPortFree(DEV_PORTS.ws, 'WebSocket gateway');
    await assertPortFree(DEV_PORTS.sfn, 'workflow runner (Step Functions)');
    await assertPortFree(DEV_PORTS.stripe, 'Stripe twin');

    if (existsSync(path.join(WEB_DIR, 'vite.config.ts'))) {
      const reason = webBuildReason();
      if (reason !== null) {
        log(`[start] building the web app (${reason})…`);
        await runBuild(running, log);
      } else {
        log('[start] web build is up to date');
      }
    } else {
      log('[start] no web/ app yet: the gateway will say so at http://localhost:3000');
    }
    if (running.stopping) return;

    mkdirSync(dataDir, { recursive: true });
    running.starting = startTwin({
      mode: 'dev',
      ports: DEV_PORTS,
      dataDir,
      log,
      accessLog: (line) => log(`[http] ${line}`),
    });
    const twin = await running.starting;
    if (running.stopping) return;
    const file: RunningTwinFile = {
      pid: process.pid,
      urls: twin.urls,
      startedAt: new Date().toISOString(),
    };
    writeFileSync(runningFile, JSON.stringify(file, null, 2));

    const marker = path.join(dataDir, SEEDED_MARKER);
    if (!existsSync(marker)) {
      log('[start] first start: seeding demo data…');
      await seedDemoData(
        {
          dynamodbUrl: twin.urls.dynamodb,
          s3Url: twin.urls.s3,
          stripeUrl: twin.urls.stripe,
          tableName: TWIN_NAMES.table,
          imagesBucket: TWIN_NAMES.imagesBucket,
        },
        log,
      );
      writeFileSync(marker, `${new Date().toISOString()}\n`);
    }
    // The demo market, on a first start and on a data directory seeded before it existed.
    const marketMarker = path.join(dataDir, SEEDED_MARKET_MARKER);
    if (!existsSync(marketMarker)) {
      log('[start] seeding the demo market (listings, approvals and bids through the workflows)…');
      await seedDemoMarketOn({ s3Url: twin.urls.s3, imagesBucket: TWIN_NAMES.imagesBucket }, log);
      writeFileSync(marketMarker, `${new Date().toISOString()}\n`);
    }

    log(
      [
        '',
        `  Marketplace   ${twin.urls.http}`,
        `  API           ${twin.urls.http}/api/health`,
        `  Dev outbox    ${twin.urls.http}/dev/outbox`,
        `  Live channel  ${twin.urls.ws}  (@connections ${twin.urls.wsConnections})`,
        `  DynamoDB      ${twin.urls.dynamodb}`,
        `  S3            ${twin.urls.s3}`,
        `  SES/SNS       ${twin.urls.outbox}`,
        `  Step Fns      ${twin.urls.sfn}`,
        `  Stripe        ${twin.urls.stripe}  (twin: API and hosted onboarding pages)`,
        `  Data          ${dataDir}  (reset: stop, then rm -rf .data)`,
        '',
        `  Ready in ${twin.timings.startMs} ms. Press Ctrl-C to stop.`,
        '',
      ].join('\n'),
    );
  } catch (error) {
    const message =
      error instanceof TwinError
        ? error.message
        : error instanceof Error
          ? (error.stack ?? error.message)
          : String(error);
    console.error(`\n[start] ${message}`);
    await shutdown('start failed', 1);
  }
}

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) void start();
