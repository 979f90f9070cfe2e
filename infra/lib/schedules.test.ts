/**
 * Scheduled jobs (`scheduledJobs` of functions/routes.ts): a Lambda per job, built and granted as
 * a workflow task with the same options, and an EventBridge rule running it every `rateMinutes`.
 * This app has its own jobs, tasks and workflows, so each option is seen once with and once
 * without.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpRoute, ScheduledJob, StreamTrigger, WorkflowTask } from '../../functions/routes';
import {
  buildApp,
  handlersOf,
  rateMinutesOf,
  stubBundles,
  templateInventory,
  type CfnTemplate,
  type MarketApp,
} from './app';
import { formatViolations, nagViolations } from './nag';
import { HEALTH_ROUTE } from './testing';

const ROUTES: HttpRoute[] = [HEALTH_ROUTE];
const TASKS: Record<string, WorkflowTask> = {
  closeLot: { handler: 'lots/handlers/close-lot', notify: true, stripe: true },
  remind: { handler: 'lots/handlers/remind' },
};
const JOBS: Record<string, ScheduledJob> = {
  lotSweep: {
    handler: 'lots/handlers/lot-sweep',
    rateMinutes: 1,
    notify: true,
    stripe: true,
    workflows: ['lot-close'],
  },
  hourlyTidy: { handler: 'lots/handlers/tidy', rateMinutes: 60 },
};
const SWEEP = 'lots/handlers/lot-sweep';
const TIDY = 'lots/handlers/tidy';
const one = (task: string) =>
  JSON.stringify({ StartAt: 'A', States: { A: { Type: 'Task', Resource: task, End: true } } });

const workDir = mkdtempSync(path.join(os.tmpdir(), 'market-schedules-'));
const workflowsDir = path.join(workDir, 'workflows');
const assetDir = stubBundles(
  handlersOf({ routes: ROUTES, workflowTasks: TASKS, scheduledJobs: JOBS, streamTriggers: {} }),
  path.join(workDir, 'bundles'),
);
const context = { stage: 'test', emailSender: 'no-reply@example.com' };
let market: MarketApp;
let t: Template;

function build(options: Partial<Parameters<typeof buildApp>[0]> & { outdir: string }): MarketApp {
  return buildApp({
    assetDir,
    routes: ROUTES,
    workflowTasks: TASKS,
    scheduledJobs: JOBS,
    // The real stream triggers start the real workflows, which this app does not have.
    streamTriggers: {},
    workflowsDir,
    context,
    nag: false,
    ...options,
  });
}

/** The Lambda of a handler: its logical id, properties and the statements of its role. */
function functionOf(handler: string) {
  const found = Object.entries(
    t.findResources('AWS::Lambda::Function', { Properties: { Description: handler } }),
  );
  expect(found).toHaveLength(1);
  const [logicalId, resource] = found[0] as [
    string,
    { Properties: { Role: { 'Fn::GetAtt': [string, string] }; [key: string]: unknown } },
  ];
  const role = resource.Properties.Role['Fn::GetAtt'][0];
  const statements = Object.values(
    t.findResources('AWS::IAM::Policy', {
      Properties: { Roles: Match.arrayWith([{ Ref: role }]) },
    }),
  ).flatMap(
    (policy) =>
      policy.Properties.PolicyDocument.Statement as {
        Action: unknown;
        Resource: unknown;
        Effect: string;
      }[],
  );
  return { logicalId, properties: resource.Properties, statements };
}

const machineArn = (name: string) => ({
  'Fn::Join': [
    '',
    [
      'arn:',
      { Ref: 'AWS::Partition' },
      ':states:',
      { Ref: 'AWS::Region' },
      ':',
      { Ref: 'AWS::AccountId' },
      `:stateMachine:market-test-${name}`,
    ],
  ],
});

beforeAll(() => {
  mkdirSync(workflowsDir);
  writeFileSync(path.join(workflowsDir, 'lot-close.asl.json'), one('${Task_closeLot}'));
  writeFileSync(path.join(workflowsDir, 'lot-reminder.asl.json'), one('${Task_remind}'));
  market = build({ outdir: path.join(workDir, 'cdk.out') });
  market.app.synth();
  t = Template.fromStack(market.workflows as Stack);
});

afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

describe('scheduled jobs', () => {
  it('runs each job on an EventBridge rule at its rate, targeting its own function', () => {
    t.resourceCountIs('AWS::Events::Rule', 2);
    for (const [handler, expression, ageSeconds] of [
      [SWEEP, 'rate(1 minute)', 60],
      [TIDY, 'rate(1 hour)', 3600],
    ] as const) {
      const fn = functionOf(handler);
      const rules = Object.entries(
        t.findResources('AWS::Events::Rule', { Properties: { ScheduleExpression: expression } }),
      );
      expect(rules).toHaveLength(1);
      const [ruleId, rule] = rules[0] as [string, { Properties: Record<string, unknown> }];
      expect(rule.Properties).toMatchObject({
        State: 'ENABLED',
        Targets: [
          {
            Arn: { 'Fn::GetAtt': [fn.logicalId, 'Arn'] },
            Id: expect.any(String),
            // A tick nobody could deliver is dropped by the next one.
            RetryPolicy: { MaximumEventAgeInSeconds: ageSeconds },
          },
        ],
      });
      // EventBridge may invoke exactly that function, from exactly its rule.
      t.hasResourceProperties('AWS::Lambda::Permission', {
        Action: 'lambda:InvokeFunction',
        Principal: 'events.amazonaws.com',
        FunctionName: { 'Fn::GetAtt': [fn.logicalId, 'Arn'] },
        SourceArn: { 'Fn::GetAtt': [ruleId, 'Arn'] },
      });
      // A failed tick is not retried by Lambda either: the next tick sweeps again.
      t.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
        FunctionName: { Ref: fn.logicalId },
        MaximumRetryAttempts: 0,
        MaximumEventAgeInSeconds: ageSeconds,
      });
    }
    expect(templateInventory({ workflows: t.toJSON() as CfnTemplate }).schedules).toEqual([
      { handler: SWEEP, rateMinutes: 1 },
      { handler: TIDY, rateMinutes: 60 },
    ]);
  });

  it('lets a job start exactly the workflows it names, with WORKFLOW_ARN_PREFIX', () => {
    const sweep = functionOf(SWEEP);
    expect(sweep.statements.filter((s) => s.Action === 'states:StartExecution')).toEqual([
      { Action: 'states:StartExecution', Effect: 'Allow', Resource: machineArn('lot-close') },
    ]);
    expect(sweep.properties.Environment).toMatchObject({
      Variables: { WORKFLOW_ARN_PREFIX: expect.anything() },
    });
    // A job naming no workflow may start none.
    const tidy = functionOf(TIDY);
    expect(JSON.stringify(tidy.statements)).not.toContain('states:');
    expect(tidy.properties.Environment).not.toMatchObject({
      Variables: { WORKFLOW_ARN_PREFIX: expect.anything() },
    });
  });

  it('builds a job as a task with the same options: timeout, table, live channel, SES, Stripe', () => {
    const sweep = functionOf(SWEEP);
    const task = functionOf('lots/handlers/close-lot');
    for (const key of ['Runtime', 'Architectures', 'Timeout', 'MemorySize', 'TracingConfig']) {
      expect(sweep.properties[key], key).toEqual(task.properties[key]);
    }
    expect(sweep.properties.Timeout).toBe(60);
    const actions = (fn: ReturnType<typeof functionOf>) =>
      fn.statements.flatMap((s) => [s.Action].flat()).filter((a) => a !== 'states:StartExecution');
    expect(actions(sweep).sort()).toEqual(actions(task).sort());
    expect(actions(sweep)).toEqual(
      expect.arrayContaining([
        'dynamodb:UpdateItem',
        'execute-api:ManageConnections',
        'ses:SendEmail',
        'secretsmanager:GetSecretValue',
      ]),
    );
    expect(sweep.properties.Environment).toMatchObject({
      Variables: {
        TABLE_NAME: 'market-test',
        EMAIL_SENDER: 'no-reply@example.com',
        WS_CONNECTIONS_ENDPOINT: expect.anything(),
        STRIPE_SECRET_NAME: expect.any(String),
      },
    });
    // Without options: the table and nothing else.
    const tidy = functionOf(TIDY);
    expect(JSON.stringify(tidy.statements)).not.toMatch(/execute-api|ses:|secretsmanager/);
    expect(tidy.properties.Environment).toMatchObject({ Variables: { TABLE_NAME: 'market-test' } });
  });

  it('deploys the job handlers (templateInventory lists them)', () => {
    const handlers = templateInventory({ workflows: t.toJSON() as CfnTemplate }).handlers;
    expect(handlers).toEqual(expect.arrayContaining([SWEEP, TIDY]));
  });

  it('passes cdk-nag', () => {
    const nagged = build({ outdir: path.join(workDir, 'cdk.out.nag'), nag: true });
    nagged.app.synth();
    expect(formatViolations(nagViolations(nagged.app))).toBe('');
  });

  it('builds the workflows stack for jobs alone', () => {
    const alone = build({
      outdir: path.join(workDir, 'cdk.out.alone'),
      workflowTasks: {},
      scheduledJobs: { hourlyTidy: JOBS.hourlyTidy as ScheduledJob },
      workflowsDir: path.join(workDir, 'no-workflows'),
    });
    const stack = Template.fromStack(alone.workflows as Stack);
    stack.resourceCountIs('AWS::Events::Rule', 1);
    stack.resourceCountIs('AWS::StepFunctions::StateMachine', 0);
  });

  it('refuses a rate that is not a whole number of minutes, and a start of an unknown workflow', () => {
    for (const rateMinutes of [0, 1.5, -5]) {
      expect(() =>
        build({
          outdir: path.join(workDir, 'cdk.out.bad-rate'),
          scheduledJobs: { bad: { handler: TIDY, rateMinutes } },
        }),
      ).toThrow(/Scheduled job bad: rateMinutes must be a whole number of minutes/);
    }
    expect(() =>
      build({
        outdir: path.join(workDir, 'cdk.out.bad-start'),
        scheduledJobs: { bad: { handler: TIDY, rateMinutes: 5, workflows: ['no-such-flow'] } },
      }),
    ).toThrow(/scheduled job or stream trigger bad may start workflow no-such-flow/);
  });
});

describe('a job that runs on a stream trigger (runsOn)', () => {
  const EVENTS = 'lots/handlers/lot-events';
  const trigger: StreamTrigger = {
    handler: EVENTS,
    notify: true,
    filters: [{ eventName: ['MODIFY'] }],
    batchSize: 10,
    maxRetryAttempts: 3,
    maxRecordAgeSeconds: 600,
  };
  const buildWith = (outdir: string, jobs: Record<string, ScheduledJob>) =>
    buildApp({
      assetDir: stubBundles(
        [...handlersOf({ routes: ROUTES, workflowTasks: TASKS }), EVENTS],
        path.join(workDir, `${outdir}-bundles`),
      ),
      routes: ROUTES,
      workflowTasks: TASKS,
      scheduledJobs: jobs,
      streamTriggers: { lotEvents: trigger },
      workflowsDir,
      context,
      nag: false,
      outdir: path.join(workDir, outdir),
    });

  it("invokes the trigger's own function on its schedule, with no function of its own", () => {
    const app = buildWith('cdk.out.runs-on', {
      lotEventsReplay: { handler: EVENTS, rateMinutes: 5, runsOn: 'lotEvents' },
    });
    const stack = Template.fromStack(app.workflows as Stack);
    const functions = Object.entries(
      stack.findResources('AWS::Lambda::Function', { Properties: { Description: EVENTS } }),
    );
    expect(functions).toHaveLength(1);
    const [logicalId] = functions[0] as [string, unknown];
    stack.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(5 minutes)',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [logicalId, 'Arn'] } })],
    });
    stack.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: logicalId },
    });
    // A failed or stale tick is not retried (as any job's).
    stack.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: logicalId },
      MaximumRetryAttempts: 0,
    });
  });

  it('refuses an unknown trigger, another handler, and options of its own', () => {
    expect(() =>
      buildWith('cdk.out.runs-on-unknown', {
        replay: { handler: EVENTS, rateMinutes: 5, runsOn: 'noSuchTrigger' },
      }),
    ).toThrow(/Scheduled job replay runs on noSuchTrigger, which is no stream trigger/);
    expect(() =>
      buildWith('cdk.out.runs-on-other', {
        replay: { handler: TIDY, rateMinutes: 5, runsOn: 'lotEvents' },
      }),
    ).toThrow(/whose handler is lots\/handlers\/lot-events, not lots\/handlers\/tidy/);
    expect(() =>
      buildWith('cdk.out.runs-on-options', {
        replay: { handler: EVENTS, rateMinutes: 5, runsOn: 'lotEvents', stripe: true },
      }),
    ).toThrow(/takes its options; it cannot set stripe/);
  });
});

describe('rateMinutesOf', () => {
  it('reads back every unit CDK writes a rate in', () => {
    expect(rateMinutesOf('rate(1 minute)')).toBe(1);
    expect(rateMinutesOf('rate(15 minutes)')).toBe(15);
    expect(rateMinutesOf('rate(1 hour)')).toBe(60);
    expect(rateMinutesOf('rate(3 hours)')).toBe(180);
    expect(rateMinutesOf('rate(2 days)')).toBe(2880);
    expect(() => rateMinutesOf('cron(0 12 * * ? *)')).toThrow(/Not a rate\(\) schedule/);
  });
});
