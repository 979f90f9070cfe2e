/**
 * Builds the whole CDK application from the route table, the workflow files and the context:
 *
 *   <prefix>-monitoring  the alarm topic (its KMS key, the `alarmEmail` subscription) and the
 *                        table's alarms; every other stack's alarms notify it (infra/lib/alarms.ts)
 *   <prefix>-data        table and buckets (stateful, retained)
 *   <prefix>-identity    Cognito user pool (retained), admin group, web client, auth triggers
 *                        (absent when -c userPoolId imports an existing pool)
 *   <prefix>-api         HTTP API (stage, JWT authorizer) and the WebSocket API with its handlers
 *   <prefix>-web         CloudFront, security headers, the web build
 *   <prefix>-<group>     one per route-table group: the route functions and HTTP routes
 *   <prefix>-workflows   workflow task functions, state machines and the scheduled jobs with their
 *                        EventBridge rules (only when there are any)
 *
 * infra/bin/app.ts runs it for the CDK CLI; tests and the parity test call `buildApp` or
 * `synthesizeTemplates` directly.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { App, Aws, Tags, type Environment, type Stack } from 'aws-cdk-lib';
import {
  httpRoutes,
  scheduledJobs as defaultScheduledJobs,
  streamTriggers as defaultStreamTriggers,
  webSocketRoutes as defaultWebSocketRoutes,
  workflowTasks as defaultWorkflowTasks,
  type HttpRoute,
  type ScheduledJob,
  type StackGroup,
  type StreamTrigger,
  type WebSocketRoute,
  type WorkflowTask,
} from '../../functions/routes';
import { addAlarms, STRIPE_WEBHOOK_HANDLER } from './alarms';
import { BUNDLE_FILE } from './bundle';
import { timeoutOf } from '../../functions/core/budgets';
import { ENV } from '../../functions/core/env';
import { readConfig, type AuthConfig, type MarketConfig } from './config';
import { presentCognitoTriggers, type CognitoTriggerName } from './identity';
import { enableNag } from './nag';
import { pascalId, resourceNames } from './names';
import { ApiStack } from './stacks/api-stack';
import { DataStack } from './stacks/data-stack';
import { IdentityStack } from './stacks/identity-stack';
import { MonitoringStack } from './stacks/monitoring-stack';
import { routeKey, RoutesStack } from './stacks/routes-stack';
import { WebStack } from './stacks/web-stack';
import { WorkflowsStack } from './stacks/workflows-stack';
import {
  DEFAULT_WORKFLOWS_DIR,
  discoverWorkflows,
  TASK_PREFIX,
  type WorkflowFile,
} from './workflows';

/** Stack order of the route groups (the union type's members). */
export const STACK_GROUPS: readonly StackGroup[] = [
  'core',
  'accounts',
  'market',
  'orders',
  'social',
];

/** Context defaults (cdk.json or -c take precedence). */
export const DEFAULT_CONTEXT: Readonly<Record<string, unknown>> = {
  // Cross-stack references stay CloudFormation exports (the producer is protected), explicitly.
  '@aws-cdk/core:defaultCrossStackReferences': 'strong',
};

export interface BuildAppOptions {
  /** The App to build into (the CLI's). Default: a new App with `context` and `outdir`. */
  app?: App;
  /** CDK context for a new App (stage, domainName, ...; see config.ts). */
  context?: Record<string, unknown>;
  outdir?: string;
  /** Root of the handler bundles (`dist/functions`), one `<handler>/index.mjs` each. */
  assetDir: string;
  /** The web build to deploy (`dist/web`); skipped when undefined or missing. */
  webDir?: string;
  /** Directory of the `*.asl.json` workflows. Default: infra/workflows. */
  workflowsDir?: string;
  /** Overrides of functions/routes.ts, for tests. */
  routes?: readonly HttpRoute[];
  webSocketRoutes?: readonly WebSocketRoute[];
  workflowTasks?: Readonly<Record<string, WorkflowTask>>;
  scheduledJobs?: Readonly<Record<string, ScheduledJob>>;
  streamTriggers?: Readonly<Record<string, StreamTrigger>>;
  /** Cognito trigger handlers by trigger name. Default: those of functions/routes.ts that exist. */
  cognitoTriggers?: Partial<Record<CognitoTriggerName, string>>;
  /** Register cdk-nag AwsSolutions as a validation plugin (synth fails on findings). Default true. */
  nag?: boolean;
  /** Account and region; default: the CLI's (CDK_DEFAULT_*), else environment-agnostic. */
  env?: Environment;
}

export interface MarketApp {
  app: App;
  config: MarketConfig;
  /** The alarm topic and the table's alarms (the other alarms live with what they watch). */
  monitoring: MonitoringStack;
  data: DataStack;
  /** The app's own user pool; undefined when an existing pool is imported (-c userPoolId). */
  identity: IdentityStack | undefined;
  api: ApiStack;
  web: WebStack;
  /** One stack per group that has routes. */
  routeStacks: Partial<Record<StackGroup, RoutesStack>>;
  /** Present when there are workflow tasks, ASL files or scheduled jobs. */
  workflows: WorkflowsStack | undefined;
  /** All stacks, in deployment order. */
  stacks: Stack[];
}

/** Checks the route table before anything is built, so mistakes read as such. */
export function checkRoutes(routes: readonly HttpRoute[]): void {
  const seen = new Set<string>();
  for (const route of routes) {
    const key = routeKey(route);
    if (seen.has(key)) throw new Error(`Route ${key} appears twice in the route table`);
    seen.add(key);
    if (!route.path.startsWith('/api/')) throw new Error(`Route ${key} must start with /api/`);
  }
  // Routes with auth 'user'/'admin' get the JWT authorizer of the app's user pool (identity
  // stack) or of the imported one (-c userPoolId): there is always one.
}

/**
 * Every workflow a route, a task or a scheduled job may start or settle (`workflows`, `callbacks`)
 * must exist as an ASL file.
 */
export function checkWorkflowStarts(
  routes: readonly HttpRoute[],
  tasks: Readonly<Record<string, WorkflowTask>>,
  workflows: readonly WorkflowFile[],
  jobs: Readonly<Record<string, WorkflowTask>> = {},
): void {
  const known = new Set(workflows.map((workflow) => workflow.name));
  const starters = [
    ...routes.map(
      (route) =>
        [routeKey(route), [...(route.workflows ?? []), ...(route.callbacks ?? [])]] as const,
    ),
    ...Object.entries(tasks).map(
      ([key, task]) =>
        [`task ${key}`, [...(task.workflows ?? []), ...(task.callbacks ?? [])]] as const,
    ),
    ...Object.entries(jobs).map(
      ([key, job]) =>
        [
          `scheduled job or stream trigger ${key}`,
          [...(job.workflows ?? []), ...(job.callbacks ?? [])],
        ] as const,
    ),
  ];
  for (const [who, names] of starters) {
    for (const name of names) {
      if (!known.has(name)) {
        throw new Error(
          `${who} may start workflow ${name}, but infra/workflows has no ${name}.asl.json`,
        );
      }
    }
  }
}

/**
 * A job runs every whole number of minutes (EventBridge's `rate()` has no finer unit; CDK would
 * refuse a fraction with a less telling message).
 */
export function checkScheduledJobs(
  jobs: Readonly<Record<string, ScheduledJob>>,
  streams: Readonly<Record<string, StreamTrigger>> = {},
): void {
  for (const [key, job] of Object.entries(jobs)) {
    if (!Number.isInteger(job.rateMinutes) || job.rateMinutes < 1) {
      throw new Error(
        `Scheduled job ${key}: rateMinutes must be a whole number of minutes, at least 1 ` +
          `(got ${job.rateMinutes})`,
      );
    }
    if (job.runsOn === undefined) continue;
    // It runs in the trigger's function: the same code, with the trigger's grants only.
    const trigger = Object.hasOwn(streams, job.runsOn) ? streams[job.runsOn] : undefined;
    if (trigger === undefined) {
      throw new Error(`Scheduled job ${key} runs on ${job.runsOn}, which is no stream trigger`);
    }
    if (trigger.handler !== job.handler) {
      throw new Error(
        `Scheduled job ${key} runs on ${job.runsOn}, whose handler is ${trigger.handler}, not ${job.handler}`,
      );
    }
    // Its budget too: it runs in the trigger's function, with the trigger's timeout.
    const own = (['notify', 'stripe', 'workflows', 'callbacks', 'timeoutSeconds'] as const).filter(
      (option) => job[option] !== undefined,
    );
    if (own.length > 0) {
      throw new Error(
        `Scheduled job ${key} runs on ${job.runsOn} and takes its options; it cannot set ${own.join(', ')}`,
      );
    }
  }
}

export function buildApp(options: BuildAppOptions): MarketApp {
  const app = options.app ?? new App({ context: options.context, outdir: options.outdir });
  for (const [key, value] of Object.entries(DEFAULT_CONTEXT)) {
    if (app.node.tryGetContext(key) === undefined) app.node.setContext(key, value);
  }
  const config = readConfig(app.node);
  const routes = options.routes ?? httpRoutes;
  const wsRoutes = options.webSocketRoutes ?? defaultWebSocketRoutes;
  const tasks = options.workflowTasks ?? defaultWorkflowTasks;
  const jobs = options.scheduledJobs ?? defaultScheduledJobs;
  const streams = options.streamTriggers ?? defaultStreamTriggers;
  checkRoutes(routes);
  checkScheduledJobs(jobs, streams);
  // Every budget Lambda and API Gateway can honour, before anything is built (core/budgets.ts).
  for (const declaration of [
    ...routes,
    ...wsRoutes,
    ...Object.values(tasks),
    ...Object.values(jobs),
    ...Object.values(streams),
  ]) {
    timeoutOf(declaration);
  }
  const workflowFiles = discoverWorkflows(options.workflowsDir ?? DEFAULT_WORKFLOWS_DIR, tasks);
  checkWorkflowStarts(routes, tasks, workflowFiles, { ...jobs, ...streams });

  const names = resourceNames(config);
  // With credentials the CLI knows account and region; without (offline synth) the stacks stay
  // environment-agnostic rather than pinned to the CLI's fallback region.
  const account = process.env.CDK_DEFAULT_ACCOUNT;
  const region = process.env.CDK_DEFAULT_REGION;
  const env = options.env ?? (account && region ? { account, region } : undefined);
  const stackId = (part: string): string => `${names.prefix}-${part}`;
  const common = { env, config };
  Tags.of(app).add('market:app', config.appName);
  Tags.of(app).add('market:stage', config.stage);

  const monitoring = new MonitoringStack(app, stackId('monitoring'), {
    ...common,
    description: `Marketplace ${config.stage}: alarm topic and the table's alarms`,
  });
  const data = new DataStack(app, stackId('data'), {
    ...common,
    description: `Marketplace ${config.stage}: table and buckets (stateful, retained)`,
  });
  let identity: IdentityStack | undefined;
  let auth: AuthConfig;
  let userPoolId: string;
  let userPoolArn: string;
  let poolRegion: string;
  if (config.auth === undefined) {
    identity = new IdentityStack(app, stackId('identity'), {
      ...common,
      description: `Marketplace ${config.stage}: Cognito user pool, admin group, web client, auth triggers`,
      assetDir: options.assetDir,
      triggers: options.cognitoTriggers ?? presentCognitoTriggers(),
      ...(config.webOrigin === undefined ? {} : { webOrigin: config.webOrigin }),
    });
    identity.addStackDependency(data, 'auth triggers use the table by name');
    auth = { issuer: identity.issuer, audience: [identity.webClient.userPoolClientId] };
    userPoolId = identity.userPool.userPoolId;
    userPoolArn = identity.userPool.userPoolArn;
    poolRegion = Aws.REGION;
  } else {
    auth = config.auth;
    userPoolId = config.auth.issuer.split('/').pop() ?? '';
    poolRegion = userPoolId.split('_')[0] ?? '';
    userPoolArn = `arn:${Aws.PARTITION}:cognito-idp:${poolRegion}:${Aws.ACCOUNT_ID}:userpool/${userPoolId}`;
  }
  // Every function knows the pool, the web's client, the sender and the admins (functions/core/env).
  const functionConfig: MarketConfig = {
    ...config,
    featureEnv: {
      ...config.featureEnv,
      [ENV.userPoolId]: userPoolId,
      [ENV.userPoolClientId]: auth.audience[0] ?? '',
      [ENV.emailSender]: config.emailSender ?? '',
      [ENV.adminEmails]: config.adminEmails.join(','),
    },
  };
  const functionCommon = { env, config: functionConfig };

  const api = new ApiStack(app, stackId('api'), {
    ...functionCommon,
    auth,
    description: `Marketplace ${config.stage}: HTTP API and WebSocket API`,
    assetDir: options.assetDir,
    webSocketRoutes: wsRoutes,
  });
  api.addStackDependency(data, 'handlers use the table by name');
  if (identity !== undefined) api.addStackDependency(identity, 'JWT authorizer of the user pool');
  const web = new WebStack(app, stackId('web'), {
    ...common,
    description: `Marketplace ${config.stage}: CloudFront, security headers and the web build`,
    httpApiDomain: api.httpApiDomain,
    webSocketOrigin: api.webSocketOrigin,
    // Amplify Auth in the browser calls the user pool's regional endpoint.
    cognitoOrigin: `https://cognito-idp.${poolRegion}.amazonaws.com`,
    webDir: options.webDir,
  });
  web.addStackDependency(data, 'origins are the web and images buckets');

  const routeStacks: Partial<Record<StackGroup, RoutesStack>> = {};
  for (const group of STACK_GROUPS) {
    const groupRoutes = routes.filter((route) => route.group === group);
    if (groupRoutes.length === 0) continue;
    const stack = new RoutesStack(app, stackId(group), {
      ...functionCommon,
      userPoolArn,
      description: `Marketplace ${config.stage}: ${group} calls`,
      group,
      routes: groupRoutes,
      assetDir: options.assetDir,
      httpApi: api.httpApi,
      authorizer: api.authorizer,
      webOrigin: web.webOrigin,
      realtimeUrl: api.webSocketUrl,
      connectionsFor: (consumer) => api.connectionsFor(consumer),
    });
    stack.addStackDependency(data, 'handlers use the table and buckets by name');
    routeStacks[group] = stack;
  }
  const unknownGroups = routes.filter((route) => !STACK_GROUPS.includes(route.group));
  if (unknownGroups.length > 0) {
    throw new Error(`Routes with an unknown group: ${unknownGroups.map(routeKey).join(', ')}`);
  }

  let workflows: WorkflowsStack | undefined;
  if (
    Object.keys(tasks).length > 0 ||
    workflowFiles.length > 0 ||
    Object.keys(jobs).length > 0 ||
    Object.keys(streams).length > 0
  ) {
    workflows = new WorkflowsStack(app, stackId('workflows'), {
      ...functionCommon,
      description: `Marketplace ${config.stage}: workflow tasks, state machines, scheduled jobs and stream triggers`,
      assetDir: options.assetDir,
      tasks,
      jobs,
      streams,
      workflows: workflowFiles,
      webOrigin: web.webOrigin,
      connectionsFor: (consumer) => api.connectionsFor(consumer),
    });
    workflows.addStackDependency(data, 'tasks use the table by name');
  }

  const webhook = routes.find((route) => route.handler === STRIPE_WEBHOOK_HANDLER);
  addAlarms({
    config,
    monitoring,
    api,
    identity,
    workflows,
    jobs,
    stripeWebhookRoute: webhook === undefined ? undefined : routeKey(webhook),
  });

  if (options.nag !== false) enableNag(app);
  return {
    app,
    config,
    monitoring,
    data,
    identity,
    api,
    web,
    routeStacks,
    workflows,
    stacks: [
      monitoring,
      data,
      ...(identity ? [identity] : []),
      api,
      web,
      ...Object.values(routeStacks),
      ...(workflows ? [workflows] : []),
    ],
  };
}

/** Handlers an app built from these tables needs bundles for. */
export function handlersOf(
  options: Pick<
    BuildAppOptions,
    | 'routes'
    | 'webSocketRoutes'
    | 'workflowTasks'
    | 'scheduledJobs'
    | 'streamTriggers'
    | 'cognitoTriggers'
  >,
): string[] {
  return [
    ...new Set([
      ...Object.values(options.cognitoTriggers ?? presentCognitoTriggers()),
      ...(options.routes ?? httpRoutes).map((route) => route.handler),
      ...(options.webSocketRoutes ?? defaultWebSocketRoutes).map((route) => route.handler),
      ...Object.values(options.workflowTasks ?? defaultWorkflowTasks).map((task) => task.handler),
      ...Object.values(options.scheduledJobs ?? defaultScheduledJobs).map((job) => job.handler),
      ...Object.values(options.streamTriggers ?? defaultStreamTriggers).map(
        (trigger) => trigger.handler,
      ),
    ]),
  ].sort();
}

/**
 * Writes a stub bundle per handler (`export const handler = ...`) under a new temporary directory
 * (or `dir`) and returns it: synth without building, for tests and the parity test.
 */
export function stubBundles(handlers: readonly string[], dir?: string): string {
  const root = dir ?? mkdtempSync(path.join(os.tmpdir(), 'market-bundles-'));
  for (const handler of handlers) {
    mkdirSync(path.join(root, handler), { recursive: true });
    writeFileSync(
      path.join(root, handler, BUNDLE_FILE),
      `export const handler = async () => ({ statusCode: 501, body: ${JSON.stringify(handler)} });\n`,
    );
  }
  return root;
}

/** A CloudFormation template as synthesized (the parts the helpers read). */
export interface CfnTemplate {
  Resources?: Record<
    string,
    { Type: string; Properties?: Record<string, unknown>; [key: string]: unknown }
  >;
  [key: string]: unknown;
}

export interface SynthesizeOptions extends Omit<BuildAppOptions, 'app' | 'assetDir'> {
  /** Default: stub bundles in a temporary directory. */
  assetDir?: string;
}

/**
 * Synthesizes the app and returns every stack's template by stack id. Without `assetDir` it uses
 * stub bundles, so it needs neither a build nor AWS credentials.
 */
export function synthesizeTemplates(options: SynthesizeOptions = {}): Record<string, CfnTemplate> {
  const temporary: string[] = [];
  const assetDir = options.assetDir ?? stubBundles(handlersOf(options));
  if (options.assetDir === undefined) temporary.push(assetDir);
  const outdir = options.outdir ?? mkdtempSync(path.join(os.tmpdir(), 'market-cdk-out-'));
  if (options.outdir === undefined) temporary.push(outdir);
  try {
    const market = buildApp({ nag: false, ...options, assetDir, outdir });
    const assembly = market.app.synth();
    const templates: Record<string, CfnTemplate> = {};
    for (const stack of market.stacks) {
      templates[stack.artifactId] = assembly.getStackArtifact(stack.artifactId)
        .template as CfnTemplate;
    }
    return templates;
  } finally {
    for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
  }
}

export interface TemplateInventory {
  /** `GET /api/health`, ... (routes of HTTP APIs). */
  httpRouteKeys: string[];
  /** `$connect`, `ping`, ... (routes of WebSocket APIs). */
  webSocketRouteKeys: string[];
  /** Workflow names (ASL file names without `.asl.json`) of the state machines. */
  workflows: string[];
  /** Handler paths of the application's Lambda functions. */
  handlers: string[];
  /** The EventBridge schedules: the handler each rule runs and its rate, sorted by handler. */
  schedules: ScheduleEntry[];
  /** The table stream's event source mappings: the handler each runs and its settings. */
  streamMappings: StreamMappingEntry[];
  /** The Lambda timeout (seconds) of what each runs, to compare with the declared budgets. */
  timeouts: TimeoutInventory;
}

export interface TimeoutInventory {
  /** By HTTP route key (`GET /api/health`): the function its integration invokes. */
  httpRoutes: Record<string, number>;
  /** By WebSocket route key (`$connect`). */
  webSocketRoutes: Record<string, number>;
  /** By `workflowTasks` key: the function a state machine substitutes for `${Task_<key>}`. */
  tasks: Record<string, number>;
  /** By `scheduledJobs` key: the function its rule targets (a `runsOn` job's: the trigger's). */
  jobs: Record<string, number>;
  /** By handler: the function each event source mapping of the table stream runs. */
  streams: Record<string, number>;
}

export interface StreamMappingEntry {
  handler: string;
  filters: unknown[];
  batchSize: number;
  maxRetryAttempts: number;
  maxRecordAgeSeconds: number;
}

export interface ScheduleEntry {
  handler: string;
  rateMinutes: number;
}

const RATE = /^rate\((\d+) (minute|minutes|hour|hours|day|days)\)$/;
const UNIT_MINUTES: Record<string, number> = { minute: 1, hour: 60, day: 1440 };

/**
 * `rate(5 minutes)` → 5. CDK writes a rate in its largest whole unit (`Duration.minutes(60)` is
 * `rate(1 hour)`), so every unit is read back; anything else (a cron expression) is refused.
 */
export function rateMinutesOf(expression: string): number {
  const match = RATE.exec(expression);
  if (match === null) throw new Error(`Not a rate() schedule: ${expression}`);
  return Number(match[1]) * (UNIT_MINUTES[(match[2] ?? '').replace(/s$/, '')] ?? Number.NaN);
}

function tagValue(
  properties: Record<string, unknown> | undefined,
  key: string,
): string | undefined {
  const tags = properties?.Tags;
  if (Array.isArray(tags)) {
    const tag = tags.find((entry: { Key?: string }) => entry.Key === key) as
      { Value?: unknown } | undefined;
    return typeof tag?.Value === 'string' ? tag.Value : undefined;
  }
  if (tags !== null && typeof tags === 'object') {
    const value = (tags as Record<string, unknown>)[key];
    return typeof value === 'string' ? value : undefined;
  }
  return undefined;
}

/** The logical ids a value refers to with `Ref` or `Fn::GetAtt`, anywhere inside it. */
function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (value === null || typeof value !== 'object') return [];
  const record = value as Record<string, unknown>;
  if (typeof record.Ref === 'string') return [record.Ref];
  const getAtt = record['Fn::GetAtt'];
  if (Array.isArray(getAtt) && typeof getAtt[0] === 'string') return [getAtt[0]];
  return Object.values(record).flatMap(refsIn);
}

/** The first Lambda function of the template that `value` refers to. */
function functionIdIn(value: unknown, template: CfnTemplate): string | undefined {
  return refsIn(value).find((id) => template.Resources?.[id]?.Type === 'AWS::Lambda::Function');
}

/** Lists what the synthesized templates contain, sorted (for parity checks). */
export function templateInventory(templates: Record<string, CfnTemplate>): TemplateInventory {
  const inventory: TemplateInventory = {
    httpRouteKeys: [],
    webSocketRouteKeys: [],
    workflows: [],
    handlers: [],
    schedules: [],
    streamMappings: [],
    timeouts: { httpRoutes: {}, webSocketRoutes: {}, tasks: {}, jobs: {}, streams: {} },
  };
  for (const template of Object.values(templates)) {
    const resources = Object.entries(template.Resources ?? {});
    /** The Timeout of the first function of this template `value` refers to (Ref or GetAtt). */
    const timeoutOfTarget = (value: unknown): number | undefined => {
      const id = functionIdIn(value, template);
      const timeout = id === undefined ? undefined : template.Resources?.[id]?.Properties?.Timeout;
      return typeof timeout === 'number' ? timeout : undefined;
    };
    const webSocketApis = new Set(
      resources
        .filter(
          ([, r]) =>
            r.Type === 'AWS::ApiGatewayV2::Api' && r.Properties?.ProtocolType === 'WEBSOCKET',
        )
        .map(([logicalId]) => logicalId),
    );
    for (const [, resource] of resources) {
      const properties = resource.Properties;
      if (resource.Type === 'AWS::ApiGatewayV2::Route') {
        const apiRef = (properties?.ApiId as { Ref?: string } | undefined)?.Ref;
        const key = String(properties?.RouteKey);
        const webSocket = apiRef !== undefined && webSocketApis.has(apiRef);
        if (webSocket) inventory.webSocketRouteKeys.push(key);
        else inventory.httpRouteKeys.push(key);
        // Target `integrations/<Ref integration>`: the function that integration invokes.
        const integration = refsIn(properties?.Target)
          .map((id) => template.Resources?.[id])
          .find((r) => r?.Type === 'AWS::ApiGatewayV2::Integration');
        const timeout = timeoutOfTarget(integration?.Properties?.IntegrationUri);
        if (timeout !== undefined) {
          inventory.timeouts[webSocket ? 'webSocketRoutes' : 'httpRoutes'][key] = timeout;
        }
      } else if (resource.Type === 'AWS::StepFunctions::StateMachine') {
        const name = tagValue(properties, 'market:workflow');
        if (name !== undefined) inventory.workflows.push(name);
        const substitutions = (properties?.DefinitionSubstitutions ?? {}) as Record<
          string,
          unknown
        >;
        for (const [placeholder, value] of Object.entries(substitutions)) {
          const timeout = timeoutOfTarget(value);
          if (placeholder.startsWith(TASK_PREFIX) && timeout !== undefined) {
            inventory.timeouts.tasks[placeholder.slice(TASK_PREFIX.length)] = timeout;
          }
        }
      } else if (resource.Type === 'AWS::Lambda::Function') {
        const handler = tagValue(properties, 'market:handler');
        if (handler !== undefined) inventory.handlers.push(handler);
      } else if (resource.Type === 'AWS::Events::Rule' && properties?.ScheduleExpression) {
        // A schedule's targets are functions of the same stack: Fn::GetAtt [logicalId, Arn].
        const rateMinutes = rateMinutesOf(String(properties.ScheduleExpression));
        for (const target of (properties.Targets ?? []) as { Arn?: unknown }[]) {
          const getAtt = (target.Arn as { 'Fn::GetAtt'?: [string, string] } | undefined)?.[
            'Fn::GetAtt'
          ];
          const fn = getAtt === undefined ? undefined : template.Resources?.[getAtt[0]];
          const handler =
            fn?.Type === 'AWS::Lambda::Function'
              ? tagValue(fn.Properties, 'market:handler')
              : undefined;
          if (handler === undefined) {
            throw new Error(`A schedule targets something other than a market function`);
          }
          inventory.schedules.push({ handler, rateMinutes });
          // The rule's description names its job (workflows-stack.ts).
          const job = /^scheduledJobs\.([^:]+):/.exec(String(properties.Description ?? ''))?.[1];
          const timeout = fn?.Properties?.Timeout;
          if (job !== undefined && typeof timeout === 'number')
            inventory.timeouts.jobs[job] = timeout;
        }
      } else if (resource.Type === 'AWS::Lambda::EventSourceMapping') {
        // A mapping's function is of the same stack: Ref logicalId.
        const ref = (properties?.FunctionName as { Ref?: string } | undefined)?.Ref;
        const fn = ref === undefined ? undefined : template.Resources?.[ref];
        const handler =
          fn?.Type === 'AWS::Lambda::Function'
            ? tagValue(fn.Properties, 'market:handler')
            : undefined;
        if (handler === undefined) {
          throw new Error('An event source mapping runs something other than a market function');
        }
        const filters = (
          (properties?.FilterCriteria as { Filters?: { Pattern?: string }[] } | undefined)
            ?.Filters ?? []
        ).map((filter) => JSON.parse(filter.Pattern ?? '{}') as unknown);
        const timeout = fn?.Properties?.Timeout;
        if (typeof timeout === 'number') inventory.timeouts.streams[handler] = timeout;
        inventory.streamMappings.push({
          handler,
          filters,
          batchSize: Number(properties?.BatchSize),
          maxRetryAttempts: Number(properties?.MaximumRetryAttempts),
          maxRecordAgeSeconds: Number(properties?.MaximumRecordAgeInSeconds),
        });
      }
    }
  }
  const { schedules, streamMappings, timeouts: _timeouts, ...lists } = inventory;
  for (const list of Object.values(lists)) list.sort();
  streamMappings.sort((a, b) => a.handler.localeCompare(b.handler));
  schedules.sort((a, b) => a.handler.localeCompare(b.handler) || a.rateMinutes - b.rateMinutes);
  return inventory;
}

export { pascalId, routeKey };
