/**
 * Time budgets in CDK (functions/core/budgets.ts): every function gets the timeout its declaration
 * states (a route, a WebSocket route, a workflow task, a scheduled job, a stream trigger), the
 * synth refuses a budget Lambda or API Gateway would not honour, and every Task state of
 * infra/workflows waits longer than the function it runs may take. The real app's budgets are
 * compared with its templates in synthesize.test.ts, and with the twin's in the parity test.
 */
import { readFileSync } from 'node:fs';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_API_TIMEOUT_SECONDS,
  DEFAULT_TASK_TIMEOUT_SECONDS,
  MAX_API_TIMEOUT_SECONDS,
  TASK_STATE_MARGIN_SECONDS,
  timeoutOf,
} from '../../functions/core/budgets';
import {
  httpRoutes,
  webSocketRoutes,
  workflowTasks,
  type HttpRoute,
  type ScheduledJob,
  type StreamTrigger,
  type WebSocketRoute,
  type WorkflowTask,
} from '../../functions/routes';
import {
  buildApp,
  handlersOf,
  routeKey,
  stubBundles,
  templateInventory,
  type BuildAppOptions,
  type CfnTemplate,
} from './app';
import { HEALTH_ROUTE } from './testing';
import { discoverWorkflows, TASK_PREFIX } from './workflows';

const SLOW_ROUTE: HttpRoute = {
  method: 'POST',
  path: '/api/slow',
  handler: 'slow/handlers/slow',
  auth: 'public',
  group: 'core',
  timeoutSeconds: 25,
};
const WS_ROUTES: WebSocketRoute[] = [
  { routeKey: '$connect', handler: 'live/handlers/connect' },
  { routeKey: 'ping', handler: 'live/handlers/ping', timeoutSeconds: 3 },
];
const TASKS: Record<string, WorkflowTask> = {
  step: { handler: 'lots/handlers/step' },
  longStep: { handler: 'lots/handlers/long-step', timeoutSeconds: 120 },
};
const STREAMS: Record<string, StreamTrigger> = {
  lotEvents: {
    handler: 'lots/handlers/lot-events',
    filters: [{ eventName: ['INSERT'] }],
    batchSize: 10,
    maxRetryAttempts: 2,
    maxRecordAgeSeconds: 600,
    timeoutSeconds: 90,
  },
};
const JOBS: Record<string, ScheduledJob> = {
  sweep: { handler: 'lots/handlers/sweep', rateMinutes: 1 },
  bigSweep: { handler: 'lots/handlers/big-sweep', rateMinutes: 5, timeoutSeconds: 300 },
  // Runs in the trigger's function: the trigger's budget.
  lotEventsReplay: { handler: 'lots/handlers/lot-events', rateMinutes: 5, runsOn: 'lotEvents' },
};
const TABLES = {
  routes: [HEALTH_ROUTE, SLOW_ROUTE],
  webSocketRoutes: WS_ROUTES,
  workflowTasks: TASKS,
  scheduledJobs: JOBS,
  streamTriggers: STREAMS,
  cognitoTriggers: {},
} satisfies Partial<BuildAppOptions>;

const flow = (steps: Record<string, number>) =>
  JSON.stringify({
    StartAt: Object.keys(steps)[0],
    States: Object.fromEntries(
      Object.entries(steps).map(([key, timeoutSeconds], index, all) => [
        key,
        {
          Type: 'Task',
          Resource: `\${${TASK_PREFIX}${key}}`,
          TimeoutSeconds: timeoutSeconds,
          ...(index === all.length - 1 ? { End: true } : { Next: all[index + 1]?.[0] }),
        },
      ]),
    ),
  });

const workDir = mkdtempSync(path.join(os.tmpdir(), 'market-budgets-'));
const workflowsDir = path.join(workDir, 'workflows');
const assetDir = stubBundles(handlersOf(TABLES), path.join(workDir, 'bundles'));
let templates: Record<string, CfnTemplate>;

function build(overrides: Partial<BuildAppOptions> = {}) {
  return buildApp({
    assetDir,
    ...TABLES,
    workflowsDir,
    context: { stage: 'test' },
    outdir: mkdtempSync(path.join(workDir, 'cdk.out-')),
    nag: false,
    ...overrides,
  });
}

/** Every Lambda of the templates: handler (its description) → its Timeout values. */
function timeoutsByHandler(): Record<string, number[]> {
  const found: Record<string, number[]> = {};
  for (const template of Object.values(templates)) {
    for (const resource of Object.values(template.Resources ?? {})) {
      if (resource.Type !== 'AWS::Lambda::Function') continue;
      const handler = String(resource.Properties?.Description);
      (found[handler] ??= []).push(Number(resource.Properties?.Timeout));
    }
  }
  return found;
}

beforeAll(() => {
  mkdirSync(workflowsDir);
  writeFileSync(path.join(workflowsDir, 'lots.asl.json'), flow({ step: 70, longStep: 130 }));
  const market = build();
  const assembly = market.app.synth();
  templates = Object.fromEntries(
    market.stacks.map((stack) => [
      stack.artifactId,
      assembly.getStackArtifact(stack.artifactId).template as CfnTemplate,
    ]),
  );
});

afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

describe('CDK sets the declared budgets', () => {
  it('gives a route its declared timeout, and the others the API default', () => {
    expect(timeoutsByHandler()).toMatchObject({
      [HEALTH_ROUTE.handler]: [DEFAULT_API_TIMEOUT_SECONDS],
      [SLOW_ROUTE.handler]: [25],
      'live/handlers/connect': [DEFAULT_API_TIMEOUT_SECONDS],
      'live/handlers/ping': [3],
    });
    const { timeouts } = templateInventory(templates);
    expect(timeouts.httpRoutes).toEqual({
      [routeKey(HEALTH_ROUTE)]: DEFAULT_API_TIMEOUT_SECONDS,
      [routeKey(SLOW_ROUTE)]: 25,
    });
    expect(timeouts.webSocketRoutes).toEqual({ $connect: DEFAULT_API_TIMEOUT_SECONDS, ping: 3 });
  });

  it("gives tasks, jobs and stream triggers theirs; a runsOn job runs with its trigger's", () => {
    expect(timeoutsByHandler()).toMatchObject({
      'lots/handlers/step': [DEFAULT_TASK_TIMEOUT_SECONDS],
      'lots/handlers/long-step': [120],
      'lots/handlers/sweep': [DEFAULT_TASK_TIMEOUT_SECONDS],
      'lots/handlers/big-sweep': [300],
      // One function: the trigger's, which the replay job's rule invokes too.
      'lots/handlers/lot-events': [90],
    });
    const { timeouts } = templateInventory(templates);
    expect(timeouts.tasks).toEqual({ step: DEFAULT_TASK_TIMEOUT_SECONDS, longStep: 120 });
    expect(timeouts.jobs).toEqual({
      sweep: DEFAULT_TASK_TIMEOUT_SECONDS,
      bigSweep: 300,
      lotEventsReplay: 90,
    });
    expect(timeouts.streams).toEqual({ 'lots/handlers/lot-events': 90 });
  });

  it.each([
    [
      'a route over 29 s',
      { routes: [HEALTH_ROUTE, { ...SLOW_ROUTE, timeoutSeconds: 30 }] },
      /POST \/api\/slow: timeoutSeconds 30 is over 29: API Gateway gives up on an integration after 30 s/,
    ],
    [
      'a WebSocket route over 29 s',
      {
        webSocketRoutes: [
          { routeKey: '$default', handler: 'live/handlers/connect', timeoutSeconds: 45 },
        ],
      },
      /WebSocket route \$default: timeoutSeconds 45 is over 29/,
    ],
    [
      "a task over Lambda's 15 minutes",
      {
        workflowTasks: {
          ...TASKS,
          longStep: { handler: 'lots/handlers/long-step', timeoutSeconds: 901 },
        },
      },
      /lots\/handlers\/long-step: timeoutSeconds 901 is over Lambda's 900/,
    ],
    [
      'a fraction of a second',
      { routes: [HEALTH_ROUTE, { ...SLOW_ROUTE, timeoutSeconds: 2.5 }] },
      /whole number of seconds/,
    ],
    [
      'a budget of its own on a job that runs on a trigger',
      {
        scheduledJobs: {
          ...JOBS,
          lotEventsReplay: { ...JOBS.lotEventsReplay, timeoutSeconds: 30 },
        },
      },
      /runs on lotEvents and takes its options; it cannot set timeoutSeconds/,
    ],
  ] as [string, Partial<BuildAppOptions>, RegExp][])('refuses %s', (_what, overrides, message) => {
    expect(() => build(overrides)).toThrow(message);
  });
});

/** Every Task state of a definition, nested ones (Map, Parallel) included. */
function taskStates(
  states: Record<string, Record<string, unknown>>,
): [string, Record<string, unknown>][] {
  return Object.entries(states).flatMap(([name, state]) => {
    const nested = [
      (state.ItemProcessor ?? state.Iterator) as
        { States?: Record<string, Record<string, unknown>> } | undefined,
      ...((state.Branches ?? []) as { States?: Record<string, Record<string, unknown>> }[]),
    ].flatMap((inner) => (inner?.States === undefined ? [] : taskStates(inner.States)));
    return [
      ...(state.Type === 'Task' ? [[name, state] as [string, Record<string, unknown>]] : []),
      ...nested,
    ];
  });
}

describe('the workflows of infra/workflows wait for their tasks', () => {
  const workflows = discoverWorkflows(undefined, workflowTasks);

  it.each(workflows.map((workflow) => [workflow.name, workflow.file] as const))(
    "%s: every Task state's TimeoutSeconds is its Lambda's budget plus the Init margin, or more",
    (_name, file) => {
      const definition = JSON.parse(readFileSync(file, 'utf8')) as {
        States: Record<string, Record<string, unknown>>;
      };
      const tasks = taskStates(definition.States);
      expect(tasks.length).toBeGreaterThan(0);
      for (const [state, task] of tasks) {
        const target = JSON.stringify([
          task.Resource,
          (task.Parameters as { FunctionName?: unknown } | undefined)?.FunctionName,
        ]);
        const key = new RegExp(`\\$\\{${TASK_PREFIX}([A-Za-z0-9]+)\\}`).exec(target)?.[1];
        expect(key, `${state} runs a task of workflowTasks`).toBeDefined();
        const declared = workflowTasks[key as string] as WorkflowTask;
        // Declared explicitly: Step Functions sets no limit by default, the local runner 60 s.
        expect(typeof task.TimeoutSeconds, `${state} declares TimeoutSeconds`).toBe('number');
        expect(task.TimeoutSeconds, `${state} (${key})`).toBeGreaterThanOrEqual(
          timeoutOf(declared) + TASK_STATE_MARGIN_SECONDS,
        );
      }
    },
  );
});

describe('the route table', () => {
  it('declares budgets API Gateway honours: at most 29 s for every call', () => {
    for (const route of [...httpRoutes, ...webSocketRoutes]) {
      expect(timeoutOf(route)).toBeLessThanOrEqual(MAX_API_TIMEOUT_SECONDS);
    }
  });
});
