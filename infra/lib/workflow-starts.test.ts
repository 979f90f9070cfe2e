/**
 * Functions that start workflows (`workflows: [name]` on a route or a workflow task) and tasks that
 * notify (`notify: true`): the grants and environment CDK gives them. No route of the table starts
 * a workflow yet (the listing will start the followers' fan-out), so this app has its own routes,
 * tasks and workflows.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpRoute, WorkflowTask } from '../../functions/routes';
import { buildApp, handlersOf, stubBundles, type MarketApp } from './app';
import { formatViolations, nagViolations } from './nag';
import { HEALTH_ROUTE } from './testing';

const routes: HttpRoute[] = [
  HEALTH_ROUTE,
  {
    method: 'POST',
    path: '/api/offerings',
    handler: 'offerings/handlers/publish',
    auth: 'public',
    group: 'market',
    workflows: ['fan-out'],
  },
  {
    method: 'POST',
    path: '/api/offerings/decide',
    handler: 'offerings/handlers/decide',
    auth: 'public',
    group: 'market',
    callbacks: ['closing'],
  },
];
const TASKS: Record<string, WorkflowTask> = {
  notifyPage: {
    handler: 'notices/handlers/notify-page',
    notify: true,
    workflows: ['fan-out'],
  },
  closeSomething: { handler: 'things/handlers/close' },
};
const loop = (task: string) =>
  JSON.stringify({ StartAt: 'A', States: { A: { Type: 'Task', Resource: task, End: true } } });

const workDir = mkdtempSync(path.join(os.tmpdir(), 'market-workflow-starts-'));
const workflowsDir = path.join(workDir, 'workflows');
const assetDir = stubBundles(
  handlersOf({ routes, workflowTasks: TASKS, scheduledJobs: {}, streamTriggers: {} }),
  path.join(workDir, 'bundles'),
);
let market: MarketApp;

function functionOf(t: Template, handler: string) {
  const found = Object.values(
    t.findResources('AWS::Lambda::Function', { Properties: { Description: handler } }),
  );
  expect(found).toHaveLength(1);
  return found[0] as { Properties: { Environment?: { Variables?: Record<string, unknown> } } };
}

function statements(t: Template): { Action: unknown; Resource: unknown }[] {
  return Object.values(t.findResources('AWS::IAM::Policy')).flatMap(
    (policy) => policy.Properties.PolicyDocument.Statement,
  );
}

const startExecutionOn = (t: Template) =>
  statements(t).filter((statement) => statement.Action === 'states:StartExecution');

beforeAll(() => {
  mkdirSync(workflowsDir);
  writeFileSync(path.join(workflowsDir, 'fan-out.asl.json'), loop('${Task_notifyPage}'));
  writeFileSync(path.join(workflowsDir, 'closing.asl.json'), loop('${Task_closeSomething}'));
  market = buildApp({
    assetDir,
    routes,
    workflowTasks: TASKS,
    // The real jobs and triggers start the real workflows, which this app does not have
    // (schedules.test.ts).
    scheduledJobs: {},
    streamTriggers: {},
    workflowsDir,
    outdir: path.join(workDir, 'cdk.out'),
    nag: false,
    context: { stage: 'test', emailSender: 'no-reply@example.com' },
  });
  market.app.synth();
});

afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

const MACHINE_ARN = {
  'Fn::Join': [
    '',
    [
      'arn:',
      { Ref: 'AWS::Partition' },
      ':states:',
      { Ref: 'AWS::Region' },
      ':',
      { Ref: 'AWS::AccountId' },
      ':stateMachine:market-test-fan-out',
    ],
  ],
};

describe('starting workflows', () => {
  it('names each state machine <app>-<stage>-<workflow>, so starters know its ARN', () => {
    const t = Template.fromStack(market.workflows as Stack);
    for (const name of ['market-test-fan-out', 'market-test-closing']) {
      t.hasResourceProperties('AWS::StepFunctions::StateMachine', { StateMachineName: name });
    }
  });

  it('lets a route start exactly the workflows it names, with WORKFLOW_ARN_PREFIX', () => {
    const t = Template.fromStack(market.routeStacks.market as Stack);
    expect(startExecutionOn(t)).toEqual([
      { Action: 'states:StartExecution', Effect: 'Allow', Resource: MACHINE_ARN },
    ]);
    expect(
      functionOf(t, 'offerings/handlers/publish').Properties.Environment?.Variables,
    ).toMatchObject({
      WORKFLOW_ARN_PREFIX: {
        'Fn::Join': [
          '',
          [
            'arn:',
            { Ref: 'AWS::Partition' },
            ':states:',
            { Ref: 'AWS::Region' },
            ':',
            { Ref: 'AWS::AccountId' },
            ':stateMachine:market-test-',
          ],
        ],
      },
    });
    // Other functions may start nothing.
    const core = Template.fromStack(market.routeStacks.core as Stack);
    expect(startExecutionOn(core)).toEqual([]);
    expect(
      functionOf(core, 'system/handlers/get-health').Properties.Environment?.Variables,
    ).not.toHaveProperty('WORKFLOW_ARN_PREFIX');
  });

  it('lets a route settle the callback tasks of exactly the workflows it names', () => {
    const t = Template.fromStack(market.routeStacks.market as Stack);
    const settles = statements(t).filter((statement) =>
      JSON.stringify(statement.Action).includes('SendTask'),
    );
    expect(settles).toEqual([
      {
        Action: ['states:SendTaskSuccess', 'states:SendTaskFailure', 'states:SendTaskHeartbeat'],
        Effect: 'Allow',
        Resource: JSON.parse(JSON.stringify(MACHINE_ARN).replace('fan-out', 'closing')) as unknown,
      },
    ]);
    // It starts nothing.
    expect(startExecutionOn(t)).toHaveLength(1);
    expect(
      functionOf(t, 'offerings/handlers/decide').Properties.Environment?.Variables,
    ).toHaveProperty('WORKFLOW_ARN_PREFIX');
  });

  it('gives a notifying task the live channel and e-mail, and its own continuation start', () => {
    const t = Template.fromStack(market.workflows as Stack);
    const variables = functionOf(t, 'notices/handlers/notify-page').Properties.Environment
      ?.Variables;
    expect(variables).toMatchObject({
      TABLE_NAME: 'market-test',
      EMAIL_SENDER: 'no-reply@example.com',
      WS_CONNECTIONS_ENDPOINT: expect.anything(),
      WORKFLOW_ARN_PREFIX: expect.anything(),
    });
    expect(startExecutionOn(t)).toEqual([
      { Action: 'states:StartExecution', Effect: 'Allow', Resource: MACHINE_ARN },
    ]);
    const actions = JSON.stringify(statements(t).map((statement) => statement.Action));
    expect(actions).toContain('execute-api:ManageConnections');
    expect(actions).toContain('ses:SendEmail');
    expect(actions).toContain('dynamodb:UpdateItem');
    // A task without options gets the table only.
    const plain = functionOf(t, 'things/handlers/close').Properties.Environment?.Variables;
    expect(plain).not.toHaveProperty('WS_CONNECTIONS_ENDPOINT');
    expect(plain).not.toHaveProperty('WORKFLOW_ARN_PREFIX');
  });

  it('passes cdk-nag', () => {
    const nagged = buildApp({
      assetDir,
      routes,
      workflowTasks: TASKS,
      scheduledJobs: {},
      streamTriggers: {},
      workflowsDir,
      outdir: path.join(workDir, 'cdk.out.nag'),
      context: { stage: 'test', emailSender: 'no-reply@example.com' },
    });
    nagged.app.synth();
    expect(formatViolations(nagViolations(nagged.app))).toBe('');
  });

  it('refuses a start of a workflow that does not exist', () => {
    expect(() =>
      buildApp({
        assetDir,
        routes: [{ ...(routes[1] as HttpRoute), workflows: ['no-such-flow'] }],
        workflowTasks: TASKS,
        scheduledJobs: {},
        streamTriggers: {},
        workflowsDir,
        outdir: path.join(workDir, 'cdk.out.bad'),
        nag: false,
      }),
    ).toThrow(/POST \/api\/offerings may start workflow no-such-flow/);
  });
});
