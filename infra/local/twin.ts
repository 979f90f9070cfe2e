import { S3Client } from '@aws-sdk/client-s3';
import { devNotify } from './dev-notify';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { withoutSdkLogging } from '../../functions/core/clients';
import { ENV } from '../../functions/core/env';
import { cognitoAuthorizer } from './cognito/authorizer';
import {
  DEFAULT_TRIGGER_MODULES,
  missingTriggerFiles,
  startCognito,
  type CognitoEndpoint,
  type TriggerModules,
} from './cognito/server';
import { ensureTable, startDynamoLocal, type DynamoLocal } from './dynamodb';
import { RENDER_DIR_ENV } from '../../functions/pages/index';
import { httpRoutes } from '../../functions/routes';
import {
  startStripeTwin,
  STRIPE_ENV,
  STRIPE_WEBHOOK_PATH,
  TWIN_WEBHOOK_SECRET,
  type StripeTwin,
} from './stripe/server';
import { renderDirOf } from '../lib/web-pages';
import { handlerLoader, startHttpGateway, type Authorizer, type HttpGateway } from './http-gateway';
import { startOutbox, type Outbox } from './outbox';
import { startS3, type S3Twin } from './s3';
import { devRunJob, startScheduler, type Scheduler, type SchedulerJob } from './scheduler';
import { startStreams, type StreamMapping, type Streams } from './streams';
import {
  DEFAULT_DATA_DIR,
  REPO_ROOT,
  TWIN_CREDENTIALS,
  TWIN_REGION,
  assertPortFree,
  silentLog,
  type Log,
} from './support';
import { startWorkflowRunner, type WorkflowRunner } from './workflows/runner';
import { startWsGateway, type WsGateway, type WsHandler } from './ws-gateway';

/**
 * The local twin: DynamoDB Local, the guarded s3rver, the e-mail/SMS outbox and the HTTP gateway,
 * composed into one system whose handlers run in this process with the environment they get in
 * AWS (plus endpoint overrides). `npm start` runs it in 'dev' mode on fixed ports with data under
 * .data/; the integration tests run it in 'test' mode (in-memory DynamoDB, temporary S3 directory,
 * free ports).
 */

export interface TwinPorts {
  http?: number;
  dynamodb?: number;
  s3?: number;
  outbox?: number;
  /** WebSocket gateway and its @connections endpoint. */
  ws?: number;
  /** Step Functions endpoint of the workflow runner. */
  sfn?: number;
  /** The local Cognito-compatible endpoint (user pool). */
  cognito?: number;
  /** The Stripe twin (API and hosted pages). */
  stripe?: number;
}

export interface TwinOptions {
  mode: 'dev' | 'test';
  /** Fixed ports; each omitted port is a free one. */
  ports?: TwinPorts;
  /** Data directory for 'dev' mode (default <repo>/.data). Ignored in 'test' mode. */
  dataDir?: string;
  /** Progress lines and captured messages; silent if omitted. */
  log?: Log;
  /** One line per HTTP request; off if omitted. */
  accessLog?: Log;
  /** Web build directory (default <repo>/dist/web). */
  webDir?: string;
  /** The JWT authorizer for 'user'/'admin' routes (default: the local user pool's, cognito/). */
  authorizer?: Authorizer;
  /**
   * The custom-auth trigger modules the local Cognito endpoint runs (default: the real ones at
   * `cognitoTriggers` of functions/routes.ts; tests may pass the fixtures of cognito/fixtures/).
   */
  cognitoTriggers?: TriggerModules;
  /**
   * Fire the scheduled jobs (`scheduledJobs`) on their timers, as EventBridge does in AWS. Default:
   * on in 'dev' mode (`npm start`), off in 'test' mode, where tests run a job when they want it
   * (`runJob`, `POST /dev/jobs`) so a sweep never lands at a random point of another test.
   */
  jobTimers?: boolean;
}

export interface TwinUrls {
  /** The web app, the API under /api, images under /media, /dev/outbox. */
  http: string;
  dynamodb: string;
  /** S3 endpoint (path-style) behind the POST-policy guard. */
  s3: string;
  /** SESv2/SNS endpoint of the outbox. */
  outbox: string;
  /** The live channel (REALTIME_URL). */
  ws: string;
  /** `@connections` management endpoint (WS_CONNECTIONS_ENDPOINT). */
  wsConnections: string;
  /** Step Functions endpoint (SFN_ENDPOINT). */
  sfn: string;
  /** The local Cognito user pool endpoint (COGNITO_ENDPOINT, Amplify's userPoolEndpoint). */
  cognito: string;
  /** The Stripe twin: its API (`/v1/…`) and hosted pages (stripe/README.md). */
  stripe: string;
}

export interface TwinBudgets {
  httpRoutes: Record<string, number>;
  webSocketRoutes: Record<string, number>;
  tasks: Record<string, number>;
}

export interface Twin {
  urls: TwinUrls;
  /** The handler environment the twin put into its own process.env. */
  env: Record<string, string>;
  /** Milliseconds: total start, and DynamoDB Local alone. */
  timings: { startMs: number; dynamodbMs: number };
  outbox: Outbox;
  /** State machine name (ASL file name) → ARN on the local runner. */
  stateMachineArns: Record<string, string>;
  /** The local user pool (USER_POOL_ID) and the web's app client (USER_POOL_CLIENT_ID). */
  userPoolId: string;
  userPoolClientId: string;
  /** The local Cognito endpoint (test helpers such as addUserToGroup, signToken, jwks). */
  cognito: CognitoEndpoint;
  /** The Stripe twin (tests: its state, webhook deliveries and their controls). */
  stripe: StripeTwin;
  /** The scheduled jobs the twin runs (scheduler.ts), by name: handler, rate and budget. */
  jobs: Record<string, SchedulerJob>;
  /**
   * The budget (seconds) the twin holds each function to (invocation.ts), as its emulators read
   * it from the declarations: by HTTP route key, WebSocket route key and workflow task key (the
   * jobs' and stream triggers' are in `jobs` and `streams`). The parity test compares it with CDK.
   */
  budgets: TwinBudgets;
  /** The stream triggers the twin runs (streams.ts), by name. */
  streams: Record<string, StreamMapping>;
  /** Resolves once the stream triggers have handled every record written before the call. */
  streamsSettled(): Promise<void>;
  /** Runs a scheduled job now, timers or not: its handler's result, or its error. */
  runJob(name: string): Promise<unknown>;
  stop(): Promise<void>;
}

export const TWIN_NAMES = {
  table: 'market',
  imagesBucket: 'market-images',
  filesBucket: 'market-files',
  /** The stream triggers' on-failure destination (streams.ts, functions/core/failed-batches.ts). */
  failedBatchesBucket: 'market-failed',
} as const;

/** The fixed ports of `npm start` (README). */
/** The twin's support account (ADMIN_EMAILS unless set): the admin of /admin/offerings. */
export const LOCAL_SUPPORT_EMAIL = 'support@example.com';

export const DEV_PORTS = {
  http: 3000,
  ws: 3001,
  dynamodb: 8100,
  s3: 4569,
  outbox: 4580,
  sfn: 8083,
  cognito: 4590,
  // stripe-mock's default port.
  stripe: 12111,
} as const;

/** The workflow definitions both runtimes run. */
const WORKFLOWS_DIR = path.join(REPO_ROOT, 'infra', 'workflows');

/** Vite's dev server, allowed by the buckets' CORS rule next to the web origin in dev mode. */
const VITE_DEV_ORIGIN = 'http://localhost:5173';

export async function startTwin(options: TwinOptions): Promise<Twin> {
  const started = Date.now();
  const log = options.log ?? silentLog;
  const dev = options.mode === 'dev';
  const ports = options.ports ?? {};
  const dataDir = options.dataDir ?? DEFAULT_DATA_DIR;
  const scratch = dev ? undefined : mkdtempSync(path.join(os.tmpdir(), 'twin-'));

  const stops: (() => Promise<void>)[] = [];
  if (scratch !== undefined) {
    // Runs last: the temporary directory of test mode (s3rver's buckets).
    stops.push(async () => rmSync(scratch, { recursive: true, force: true }));
  }
  const stopAll = async (): Promise<void> => {
    for (const stop of stops.splice(0).reverse()) {
      await stop().catch((error: unknown) => log(`[twin] stop failed: ${String(error)}`));
    }
  };

  try {
    // Independent parts start together; DynamoDB Local (a JVM) is the slow one.
    const httpPort = ports.http;
    // allSettled: when one part fails, the other has still registered its stop() for cleanup.
    const [dynamoResult, outboxResult] = await Promise.allSettled([
      startDynamoLocal({
        ...(ports.dynamodb === undefined ? {} : { port: ports.dynamodb }),
        ...(dev ? { dbPath: path.join(dataDir, 'dynamodb') } : {}),
        // Tests: the JVM's quick (C1-only) compiler starts DynamoDB Local ~30 % sooner on 2 cores;
        // npm start keeps the full JIT for its long runs.
        ...(dev ? {} : { javaOptions: ['-XX:TieredStopAtLevel=1'] }),
        log,
      }).then((part: DynamoLocal) => {
        stops.push(() => part.stop());
        return part;
      }),
      startOutbox({
        ...(ports.outbox === undefined ? {} : { port: ports.outbox }),
        ...(dev ? { persistFile: path.join(dataDir, 'outbox.json'), print: log } : {}),
        log,
      }).then((part: Outbox) => {
        stops.push(() => part.stop());
        return part;
      }),
    ]);
    if (dynamoResult.status === 'rejected') throw dynamoResult.reason;
    if (outboxResult.status === 'rejected') throw outboxResult.reason;
    const dynamo = dynamoResult.value;
    const outbox = outboxResult.value;

    const s3: S3Twin = await startS3({
      ...(ports.s3 === undefined ? {} : { port: ports.s3 }),
      directory: dev ? path.join(dataDir, 's3') : path.join(scratch as string, 's3'),
      removeOnStop: !dev,
      buckets: [TWIN_NAMES.imagesBucket, TWIN_NAMES.filesBucket, TWIN_NAMES.failedBatchesBucket],
      region: TWIN_REGION,
      credentials: TWIN_CREDENTIALS,
      corsOrigins: dev ? [VITE_DEV_ORIGIN] : [],
      log,
    });
    stops.push(() => s3.stop());

    await ensureTable(dynamo.url, TWIN_NAMES.table);

    // The user pool: Amplify (web) and our functions call it; the gateway verifies its tokens.
    const triggers = options.cognitoTriggers ?? DEFAULT_TRIGGER_MODULES;
    const cognito: CognitoEndpoint = await startCognito({
      ...(ports.cognito === undefined ? {} : { port: ports.cognito }),
      region: TWIN_REGION,
      ...(dev ? { dataFile: path.join(dataDir, 'cognito.json') } : {}),
      triggers,
      log,
    });
    stops.push(() => cognito.stop());
    const missingTriggers = missingTriggerFiles(triggers);
    if (missingTriggers.length > 0) {
      // Loud on purpose: the twin still serves public routes, but nobody can sign in.
      (options.log ?? ((line: string) => console.warn(line)))(
        `[cognito] AUTH UNAVAILABLE: the custom-auth trigger modules do not exist yet ` +
          `(${missingTriggers.map((file) => path.relative(REPO_ROOT, file)).join(', ')}); ` +
          'sign-in answers an error until they do.',
      );
    }
    const authorizer =
      options.authorizer ??
      cognitoAuthorizer({
        userPoolId: cognito.userPoolId,
        clientId: cognito.clientId,
        jwks: cognito.jwks(),
      });

    // One loader for the HTTP and WebSocket gateways: handler modules are imported once.
    const loadHandler = handlerLoader(path.join(REPO_ROOT, 'functions'));

    // The Stripe twin starts after the gateway (its webhook endpoint is the gateway's URL), the
    // scheduler last (its jobs start workflows).
    const stripeRef: { current?: StripeTwin } = {};
    const schedulerRef: { current?: Scheduler } = {};
    const streamsRef: { current?: Streams } = {};
    const gateway: HttpGateway = await startHttpGateway({
      ...(httpPort === undefined ? {} : { port: httpPort }),
      stripe: () => stripeRef.current,
      devCalls: {
        '/dev/notifications': devNotify,
        '/dev/jobs': devRunJob(() => schedulerRef.current),
        // Resolves once the stream triggers have handled every record written before the call.
        '/dev/streams/settled': async () => {
          await streamsRef.current?.settled();
          return { settled: true };
        },
      },
      loadHandler,
      images: { s3Url: s3.internalUrl, bucket: TWIN_NAMES.imagesBucket },
      outbox,
      ...(options.webDir === undefined ? {} : { webDir: options.webDir }),
      authorizer,
      ...(options.accessLog === undefined ? {} : { accessLog: options.accessLog }),
      log,
    });
    stops.push(() => gateway.stop());

    if (ports.ws !== undefined) await assertPortFree(ports.ws, 'WebSocket gateway');
    const ws: WsGateway = await startWsGateway({
      ...(ports.ws === undefined ? {} : { port: ports.ws }),
      region: TWIN_REGION,
      resolveHandler: async (handler) => (await loadHandler(handler)) as unknown as WsHandler,
      log: (line) => log(`[ws] ${line}`),
    });
    stops.push(() => ws.stop());

    if (ports.stripe !== undefined) await assertPortFree(ports.stripe, 'Stripe twin');
    const webhookRoute = httpRoutes.find((route) => route.path === STRIPE_WEBHOOK_PATH);
    const stripe = await startStripeTwin({
      ...(ports.stripe === undefined ? {} : { port: ports.stripe }),
      ...(dev ? { persistFile: path.join(dataDir, 'stripe.json') } : {}),
      // Events reach the product once its webhook call exists (issue 9 §3), as Stripe's would.
      ...(webhookRoute === undefined
        ? {}
        : {
            webhook: {
              url: `${gateway.url}${STRIPE_WEBHOOK_PATH}`,
              secret: TWIN_WEBHOOK_SECRET,
            },
          }),
      log: (line) => log(line),
    });
    stops.push(() => stripe.stop());
    stripeRef.current = stripe;

    const env: Record<string, string> = {
      [ENV.stage]: 'local',
      [ENV.region]: TWIN_REGION,
      AWS_DEFAULT_REGION: TWIN_REGION,
      AWS_ACCESS_KEY_ID: TWIN_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: TWIN_CREDENTIALS.secretAccessKey,
      [ENV.tableName]: TWIN_NAMES.table,
      [ENV.imagesBucket]: TWIN_NAMES.imagesBucket,
      [ENV.filesBucket]: TWIN_NAMES.filesBucket,
      [ENV.failedBatchesBucket]: TWIN_NAMES.failedBatchesBucket,
      [ENV.imagesBaseUrl]: '/media',
      [ENV.webOrigin]: gateway.url,
      [ENV.dynamodbEndpoint]: dynamo.url,
      [ENV.s3Endpoint]: s3.url,
      [ENV.wsConnectionsEndpoint]: ws.connectionsEndpoint,
      [ENV.realtimeUrl]: ws.url,
      // Support (admin) accounts: sign-up puts these e-mails in the pool's admin group, so on the
      // twin signing up as support@example.com gives the /admin/offerings queue (README).
      [ENV.adminEmails]: process.env.ADMIN_EMAILS ?? LOCAL_SUPPORT_EMAIL,
      // E-mail and SMS go to the outbox: the SDK's standard per-service endpoint variables, so
      // even a client built without an explicit endpoint cannot reach AWS from the twin; and
      // named variables for an explicit override in functions/core/clients.ts.
      AWS_ENDPOINT_URL_SESV2: outbox.url,
      AWS_ENDPOINT_URL_SNS: outbox.url,
      SES_ENDPOINT: outbox.url,
      SNS_ENDPOINT: outbox.url,
      // Identity: the local user pool, for our functions (Admin* calls) and the web (public config).
      [ENV.userPoolId]: cognito.userPoolId,
      [ENV.userPoolClientId]: cognito.clientId,
      [ENV.cognitoEndpoint]: cognito.url,
      AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER: cognito.url,
      // The page call's server render: the web build's render folder (in AWS, shipped beside the
      // handler's bundle).
      [RENDER_DIR_ENV]: renderDirOf(options.webDir ?? path.join(REPO_ROOT, 'dist', 'web')),
      // The official stripe SDK, pointed at the Stripe twin by configuration (in AWS the key and
      // the webhook secret come from Secrets Manager and the SDK uses Stripe's own host).
      [STRIPE_ENV.secretKey]: stripe.secretKey,
      [STRIPE_ENV.webhookSecret]: TWIN_WEBHOOK_SECRET,
      [STRIPE_ENV.host]: stripe.sdkConfig.host,
      [STRIPE_ENV.port]: String(stripe.sdkConfig.port),
      [STRIPE_ENV.protocol]: stripe.sdkConfig.protocol,
    };
    // Before the runner starts (its tasks read the env); it resumes persisted executions once the
    // env also has its own endpoint and ARN prefix (below).
    applyEnv(env);

    if (ports.sfn !== undefined)
      await assertPortFree(ports.sfn, 'workflow runner (Step Functions)');
    const runner: WorkflowRunner = await startWorkflowRunner({
      workflowsDir: WORKFLOWS_DIR,
      ...(dev ? { dataDir: path.join(dataDir, 'workflows') } : {}),
      ...(ports.sfn === undefined ? {} : { port: ports.sfn }),
      region: TWIN_REGION,
      log: (line) => log(`[sfn] ${line}`),
      // Resumed below, once the tasks' environment has the runner's own endpoint and ARNs.
      autoResume: false,
    });
    stops.push(() => runner.stop());
    env[ENV.sfnEndpoint] = runner.endpoint;
    // Every function may start any workflow on the twin (in AWS: those its `workflows` option names).
    env[ENV.workflowArnPrefix] = runner.stateMachineArnPrefix;
    applyEnv(env);
    runner.resume();

    // The table stream's event source mappings (streamTriggers): each trigger's handler in-process
    // on the records it filters, checkpointed in .data/ for npm start (a restart resumes there).
    // A batch given up is written to the failed-batches bucket, as the mappings' S3 on-failure
    // destination does in AWS (its client, like the Streams one, is AWS's work: no SDK logger).
    const failedBatchesS3 = withoutSdkLogging(
      new S3Client({
        endpoint: s3.url,
        region: TWIN_REGION,
        credentials: TWIN_CREDENTIALS,
        forcePathStyle: true,
      }),
    );
    // Destroyed after the poller stops (stops run in reverse).
    stops.push(async () => failedBatchesS3.destroy());
    const streams = await startStreams({
      endpoint: dynamo.url,
      tableName: TWIN_NAMES.table,
      ...(dev ? { checkpointFile: path.join(dataDir, 'streams.json') } : {}),
      failureDestination: { s3: failedBatchesS3, bucket: TWIN_NAMES.failedBatchesBucket },
      log: (line) => log(line),
    });
    stops.push(() => streams.stop());
    streamsRef.current = streams;

    // The EventBridge schedules: each job's handler in-process every rateMinutes. Its failures
    // always reach the console (as the gateways' handler failures do).
    const jobTimers = options.jobTimers ?? dev;
    const scheduler = startScheduler({ region: TWIN_REGION, timers: jobTimers });
    stops.push(() => scheduler.stop());
    schedulerRef.current = scheduler;

    // In test mode the gateway's port is known only now: let its origin through the CORS rule.
    s3.allowOrigin(gateway.url);

    // Webhook deliveries a stop interrupted go out again now that their receiver is up.
    const resumed = stripe.resumeWebhooks();
    if (resumed > 0) {
      const what = resumed === 1 ? 'delivery' : 'deliveries';
      log(`[stripe] resumed ${resumed} webhook ${what} a restart interrupted`);
    }

    const startMs = Date.now() - started;
    const jobs = Object.entries(scheduler.jobs).map(
      ([name, job]) => `${name} every ${job.rateMinutes} min`,
    );
    log(
      `[twin] ready in ${startMs} ms (DynamoDB Local ${dynamo.startMs} ms): ${gateway.url} ` +
        `· ws ${ws.url} · dynamodb ${dynamo.url} · s3 ${s3.url} · outbox ${outbox.url} ` +
        `· sfn ${runner.endpoint} · cognito ${cognito.url} (${cognito.userPoolId}) · stripe ${stripe.url} ` +
        `· jobs ${jobs.join(', ') || 'none'}${jobTimers ? '' : ' (timers off)'}`,
    );
    return {
      urls: {
        http: gateway.url,
        dynamodb: dynamo.url,
        s3: s3.url,
        outbox: outbox.url,
        ws: ws.url,
        wsConnections: ws.connectionsEndpoint,
        sfn: runner.endpoint,
        cognito: cognito.url,
        stripe: stripe.url,
      },
      env,
      timings: { startMs, dynamodbMs: dynamo.startMs },
      outbox,
      stateMachineArns: runner.stateMachineArns,
      userPoolId: cognito.userPoolId,
      userPoolClientId: cognito.clientId,
      cognito,
      stripe,
      jobs: scheduler.jobs,
      budgets: {
        httpRoutes: gateway.budgets,
        webSocketRoutes: ws.budgets,
        tasks: runner.taskTimeouts,
      },
      runJob: (name) => scheduler.runJob(name),
      streams: streams.mappings,
      streamsSettled: () => streams.settled(),
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/**
 * Puts the handler environment into this process. Real credentials a developer may have in the
 * shell are removed so nothing the twin does can reach AWS.
 */
function applyEnv(env: Record<string, string>): void {
  for (const name of ['AWS_SESSION_TOKEN', 'AWS_PROFILE', 'AWS_ENDPOINT_URL']) {
    Reflect.deleteProperty(process.env, name);
  }
  Object.assign(process.env, env);
}
