/**
 * The production alarms (infra/lib/alarms.ts) on the synthesized app, built once for this file:
 * the real route table, WebSocket routes, workflows, jobs and stream triggers, stub bundles and a
 * temporary web build (so CDK's deploy-time BucketDeployment handler is there too), with an
 * `alarmEmail`. The coverage test reads the templates as CloudFormation will: every Lambda function
 * must be watched by some alarm, directly or through the API or state machine that runs it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { App, type Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  httpRoutes,
  scheduledJobs,
  streamTriggers,
  workflowTasks,
  type HttpRoute,
} from '../../functions/routes';
import { jobErrorWindow, kebabCase, STRIPE_WEBHOOK_HANDLER, TABLE_OPERATIONS } from './alarms';
import {
  buildApp,
  handlersOf,
  routeKey,
  stubBundles,
  type CfnTemplate,
  type MarketApp,
} from './app';
import { HEALTH_ROUTE } from './testing';
import { readConfig } from './config';
import { MAX_ALARM_METRICS } from './constructs/market-alarms';
import { MonitoringStack } from './stacks/monitoring-stack';
import { discoverWorkflows } from './workflows';

const workDir = mkdtempSync(path.join(os.tmpdir(), 'market-alarms-'));
let market: MarketApp;
let templates: Record<string, CfnTemplate>;

/** Synthesizes an app and returns its templates by stack id. */
function synthesized(app: MarketApp): Record<string, CfnTemplate> {
  const assembly = app.app.synth();
  return Object.fromEntries(
    app.stacks.map((stack) => [
      stack.artifactId,
      assembly.getStackArtifact(stack.artifactId).template as CfnTemplate,
    ]),
  );
}

beforeAll(() => {
  const webDir = path.join(workDir, 'web');
  mkdirSync(webDir);
  writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>market</title>');
  market = buildApp({
    context: { stage: 'test', alarmEmail: 'ops@example.com' },
    outdir: path.join(workDir, 'cdk.out'),
    assetDir: stubBundles(handlersOf({}), path.join(workDir, 'bundles')),
    webDir,
    nag: false,
  });
  templates = synthesized(market);
});

afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

// --- Reading alarms out of templates -------------------------------------------------------------

type Resource = NonNullable<CfnTemplate['Resources']>[string];

interface WatchedMetric {
  namespace: string;
  metricName: string;
  /** Dimension values, references resolved to `<stack id>/<logical id>` (see `resolve`). */
  dimensions: Record<string, string>;
}

interface FoundAlarm {
  stack: string;
  id: string;
  properties: Record<string, unknown>;
  metrics: WatchedMetric[];
}

/**
 * A value as something comparable across stacks: `Ref`/`Fn::GetAtt` → `<stack>/<logical id>`, an
 * import → what the exporting stack's output refers to, a plain string as it is, anything else
 * (a `Fn::Join`) as its JSON.
 */
function resolve(all: Record<string, CfnTemplate>, stack: string, value: unknown): string {
  if (typeof value === 'string') return value;
  const reference = value as {
    Ref?: string;
    'Fn::GetAtt'?: [string, string];
    'Fn::ImportValue'?: string;
  };
  if (reference.Ref !== undefined) return `${stack}/${reference.Ref}`;
  if (reference['Fn::GetAtt'] !== undefined) return `${stack}/${reference['Fn::GetAtt'][0]}`;
  if (reference['Fn::ImportValue'] !== undefined) {
    for (const [exporter, template] of Object.entries(all)) {
      const outputs = (template.Outputs ?? {}) as Record<
        string,
        { Value: unknown; Export?: { Name?: unknown } }
      >;
      for (const output of Object.values(outputs)) {
        if (output.Export?.Name === reference['Fn::ImportValue']) {
          return resolve(all, exporter, output.Value);
        }
      }
    }
    throw new Error(`No stack exports ${reference['Fn::ImportValue']}`);
  }
  return JSON.stringify(value);
}

interface CfnMetric {
  Namespace: string;
  MetricName: string;
  Dimensions?: { Name: string; Value: unknown }[];
}

function alarmsOf(all: Record<string, CfnTemplate>): FoundAlarm[] {
  const found: FoundAlarm[] = [];
  for (const [stack, template] of Object.entries(all)) {
    for (const [id, resource] of Object.entries(template.Resources ?? {})) {
      if (resource.Type !== 'AWS::CloudWatch::Alarm') continue;
      const properties = resource.Properties ?? {};
      const queries = (properties.Metrics ?? []) as { MetricStat?: { Metric: CfnMetric } }[];
      const cfnMetrics: CfnMetric[] =
        queries.length > 0
          ? queries.flatMap((query) => (query.MetricStat ? [query.MetricStat.Metric] : []))
          : [properties as unknown as CfnMetric];
      found.push({
        stack,
        id,
        properties,
        metrics: cfnMetrics.map((metric) => ({
          namespace: metric.Namespace,
          metricName: metric.MetricName,
          dimensions: Object.fromEntries(
            (metric.Dimensions ?? []).map((dimension) => [
              dimension.Name,
              resolve(all, stack, dimension.Value),
            ]),
          ),
        })),
      });
    }
  }
  return found;
}

function resourcesOf(template: CfnTemplate, type: string): [string, Resource][] {
  return Object.entries(template.Resources ?? {}).filter(([, resource]) => resource.Type === type);
}

/**
 * The Lambda functions no alarm watches, as `<stack>/<logical id> (<description>)`. A function is
 * watched by an alarm on its own metrics (FunctionName), by the 5xx alarm of the HTTP API whose
 * route integrates it, or by the failed-executions alarm of a state machine that runs it as a task.
 */
function unwatchedFunctions(all: Record<string, CfnTemplate>): string[] {
  const watched = alarmsOf(all).flatMap((alarm) => alarm.metrics);
  const keys = (namespace: string, metricName: string | undefined, dimension: string) =>
    new Set(
      watched
        .filter(
          (metric) =>
            metric.namespace === namespace &&
            (metricName === undefined || metric.metricName === metricName),
        )
        .map((metric) => metric.dimensions[dimension]),
    );
  const functionsWatched = keys('AWS/Lambda', undefined, 'FunctionName');
  const apisWatched = keys('AWS/ApiGateway', '5xx', 'ApiId');
  const machinesWatched = keys('AWS/States', 'ExecutionsFailed', 'StateMachineArn');

  const unwatched: string[] = [];
  for (const [stack, template] of Object.entries(all)) {
    for (const [id, fn] of resourcesOf(template, 'AWS::Lambda::Function')) {
      const key = `${stack}/${id}`;
      const viaApi = resourcesOf(template, 'AWS::ApiGatewayV2::Integration').some(
        ([, integration]) =>
          resolve(all, stack, integration.Properties?.IntegrationUri) === key &&
          apisWatched.has(resolve(all, stack, integration.Properties?.ApiId)),
      );
      const viaMachine = resourcesOf(template, 'AWS::StepFunctions::StateMachine').some(
        ([machineId, machine]) =>
          Object.values(
            (machine.Properties?.DefinitionSubstitutions ?? {}) as Record<string, unknown>,
          ).some((value) => resolve(all, stack, value) === key) &&
          machinesWatched.has(`${stack}/${machineId}`),
      );
      if (!functionsWatched.has(key) && !viaApi && !viaMachine) {
        unwatched.push(`${key} (${String(fn.Properties?.Description ?? '')})`);
      }
    }
  }
  return unwatched.sort();
}

function alarmNamed(name: string): FoundAlarm {
  const alarm = alarmsOf(templates).find(
    (candidate) => candidate.properties.AlarmName === `market-test-${name}`,
  );
  if (alarm === undefined) throw new Error(`No alarm market-test-${name}`);
  return alarm;
}

function template(stack: Stack): Template {
  return Template.fromStack(stack);
}

// --- The tests -----------------------------------------------------------------------------------

describe('alarm topic', () => {
  it('is one SSL-only topic named for the stage, encrypted with a rotated key CloudWatch may use', () => {
    const t = template(market.monitoring);
    t.resourceCountIs('AWS::SNS::Topic', 1);
    const [keyId] = Object.keys(t.findResources('AWS::KMS::Key'));
    t.hasResourceProperties('AWS::SNS::Topic', {
      TopicName: 'market-test-alarms',
      KmsMasterKeyId: { 'Fn::GetAtt': [keyId, 'Arn'] },
    });
    t.hasResourceProperties('AWS::KMS::Key', {
      EnableKeyRotation: true,
      KeyPolicy: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Principal: { Service: 'cloudwatch.amazonaws.com' },
            Action: ['kms:Decrypt', 'kms:GenerateDataKey*'],
            Condition: Match.objectLike({ StringEquals: Match.anyValue() }),
          }),
        ]),
      },
    });
    t.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Deny',
            Action: 'sns:Publish',
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
          Match.objectLike({
            Effect: 'Allow',
            Action: 'sns:Publish',
            Principal: { Service: 'cloudwatch.amazonaws.com' },
          }),
        ]),
      },
    });
    // Only this stage's alarms may publish: the source ARN names its prefix.
    expect(JSON.stringify(t.findResources('AWS::SNS::TopicPolicy'))).toContain(
      ':alarm:market-test-*',
    );
  });

  it('subscribes the alarmEmail setting, and nobody without it', () => {
    template(market.monitoring).hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.com',
    });
    const bare = new MonitoringStack(new App(), 'bare', { config: readConfig({ stage: 'test' }) });
    Template.fromStack(bare).resourceCountIs('AWS::SNS::Subscription', 0);
  });

  it('is deployed before every stack that has alarms', () => {
    for (const [stack, template] of Object.entries(templates)) {
      if (stack === market.monitoring.artifactId) continue;
      if (resourcesOf(template, 'AWS::CloudWatch::Alarm').length === 0) continue;
      const dependent = market.stacks.find((candidate) => candidate.artifactId === stack);
      expect(dependent?.dependencies, stack).toContain(market.monitoring);
    }
  });
});

describe('every alarm', () => {
  it('notifies the topic on ALARM and OK, treats missing data as fine and says what to do', () => {
    const alarms = alarmsOf(templates);
    expect(alarms.length).toBeGreaterThan(15);
    const names = new Set<unknown>();
    for (const { stack, properties } of alarms) {
      const name = String(properties.AlarmName);
      expect(name).toMatch(/^market-test-[a-z0-9-]+$/);
      names.add(name);
      expect(properties.TreatMissingData, name).toBe('notBreaching');
      for (const actions of [properties.AlarmActions, properties.OKActions]) {
        expect(actions, name).toHaveLength(1);
        const [action] = actions as unknown[];
        // The topic itself in its own stack; elsewhere its ARN, built from its name.
        if (stack === market.monitoring.artifactId) {
          expect(resolve(templates, stack, action)).toMatch(/\/AlarmTopic[0-9A-F]{8}$/);
        } else {
          expect(JSON.stringify(action), name).toContain(':market-test-alarms');
        }
      }
      expect(String(properties.AlarmDescription).length, name).toBeGreaterThan(60);
      expect(properties.AlarmDescription, name).toContain('docs/operations.md');
    }
    expect(names.size).toBe(alarms.length);
  });

  it(`reads at most ${MAX_ALARM_METRICS} metrics, as CloudWatch allows`, () => {
    for (const alarm of alarmsOf(templates)) {
      expect(alarm.metrics.length, String(alarm.properties.AlarmName)).toBeGreaterThan(0);
      expect(alarm.metrics.length, String(alarm.properties.AlarmName)).toBeLessThanOrEqual(
        MAX_ALARM_METRICS,
      );
    }
  });
});

describe('what is watched', () => {
  it('every state machine: failed and timed-out executions', () => {
    const workflows = discoverWorkflows(undefined, workflowTasks).map((workflow) => workflow.name);
    expect(workflows.length).toBeGreaterThan(0);
    const machines = resourcesOf(
      templates[market.workflows?.artifactId ?? ''] ?? {},
      'AWS::StepFunctions::StateMachine',
    );
    expect(machines).toHaveLength(workflows.length);
    for (const workflow of workflows) {
      for (const [outcome, metricName] of [
        ['failed', 'ExecutionsFailed'],
        ['timed-out', 'ExecutionsTimedOut'],
      ] as const) {
        const alarm = alarmNamed(`workflow-${workflow}-${outcome}`);
        expect(alarm.metrics).toHaveLength(1);
        expect(alarm.metrics[0]?.metricName).toBe(metricName);
        const machine = alarm.metrics[0]?.dimensions.StateMachineArn ?? '';
        const [, machineId] = machine.split('/');
        const tagged = machines.find(([id]) => id === machineId)?.[1];
        expect(JSON.stringify(tagged?.Properties?.Tags)).toContain(`"Value":"${workflow}"`);
      }
    }
  });

  it('the table: throttled requests and system errors of every operation the app performs', () => {
    for (const [name, metricName] of [
      ['table-throttled', 'ThrottledRequests'],
      ['table-system-errors', 'SystemErrors'],
    ] as const) {
      const alarm = alarmNamed(name);
      expect(alarm.stack).toBe(market.monitoring.artifactId);
      expect(alarm.metrics.map((metric) => metric.dimensions.Operation).sort()).toEqual(
        [...TABLE_OPERATIONS].sort(),
      );
      for (const metric of alarm.metrics) {
        expect(metric).toMatchObject({
          namespace: 'AWS/DynamoDB',
          metricName,
          dimensions: { TableName: 'market-test' },
        });
      }
      // Summed over the operations that report anything (they are sparse).
      const queries = alarm.properties.Metrics as { Expression?: string }[];
      expect(queries.find((query) => query.Expression)?.Expression).toMatch(/^SUM\(\[m0, /);
    }
  });

  it('the HTTP API: 5xx answers of every route', () => {
    const alarm = alarmNamed('http-api-5xx');
    expect(alarm.metrics).toEqual([
      {
        namespace: 'AWS/ApiGateway',
        metricName: '5xx',
        dimensions: { ApiId: `${market.api.artifactId}/${apiId('HttpApi')}` },
      },
    ]);
  });

  it("the Stripe webhook: its own 5xx count, from the HTTP API's access log", () => {
    const webhook = httpRoutes.find((route) => route.handler === STRIPE_WEBHOOK_HANDLER);
    expect(webhook).toBeDefined();
    const t = template(market.api);
    const [logGroupId] = Object.keys(t.findResources('AWS::Logs::LogGroup', {})).filter((id) =>
      id.startsWith('HttpApiAccessLogs'),
    );
    const filters = t.findResources('AWS::Logs::MetricFilter');
    expect(Object.values(filters)).toHaveLength(1);
    const [filter] = Object.values(filters);
    expect(filter?.Properties.LogGroupName).toEqual({ Ref: logGroupId });
    const pattern = String(filter?.Properties.FilterPattern);
    expect(pattern).toContain(`$.routeKey = "${routeKey(webhook as HttpRoute)}"`);
    for (const status of ['500', '502', '503', '504']) {
      expect(pattern).toContain(`$.status = "${status}"`);
    }
    const transformation = filter?.Properties.MetricTransformations[0];
    const alarm = alarmNamed('stripe-webhook-5xx');
    expect(alarm.metrics).toEqual([
      {
        namespace: transformation.MetricNamespace,
        metricName: transformation.MetricName,
        dimensions: {},
      },
    ]);
    expect(alarm.properties.Statistic).toBe('Sum');
  });

  it('the live channel: execution errors of its stage and the errors of its handlers', () => {
    const execution = alarmNamed('live-execution-errors');
    expect(execution.metrics).toEqual([
      {
        namespace: 'AWS/ApiGateway',
        metricName: 'ExecutionError',
        dimensions: {
          ApiId: `${market.api.artifactId}/${apiId('WebSocketApi')}`,
          Stage: 'live',
        },
      },
    ]);
    const handlers = alarmNamed('live-function-errors');
    expect(handlers.metrics.map((metric) => metric.dimensions.FunctionName).sort()).toEqual(
      Object.values(market.api.webSocketFunctions)
        .map((fn) => `${market.api.artifactId}/${logicalId(market.api, fn.function)}`)
        .sort(),
    );
  });

  it('each stream trigger: iterator age over 60 s, batches lost, errors', () => {
    const workflows = market.workflows as Stack;
    const mappings = resourcesOf(
      templates[workflows.artifactId] ?? {},
      'AWS::Lambda::EventSourceMapping',
    );
    expect(mappings).toHaveLength(Object.keys(streamTriggers).length);
    for (const key of Object.keys(streamTriggers)) {
      const fn = market.workflows?.streamFunctions[key]?.function as lambda.Function;
      const functionKey = `${workflows.artifactId}/${logicalId(workflows, fn)}`;
      // The mapping runs this very function.
      expect(
        mappings.some(
          ([, mapping]) =>
            resolve(templates, workflows.artifactId, mapping.Properties?.FunctionName) ===
            functionKey,
        ),
      ).toBe(true);
      const age = alarmNamed(`stream-${kebabCase(key)}-iterator-age`);
      expect(age.metrics).toEqual([
        {
          namespace: 'AWS/Lambda',
          metricName: 'IteratorAge',
          dimensions: { FunctionName: functionKey },
        },
      ]);
      expect(age.properties).toMatchObject({
        Statistic: 'Maximum',
        Threshold: 60_000,
        ComparisonOperator: 'GreaterThanThreshold',
      });
      const lost = alarmNamed(`stream-${kebabCase(key)}-delivery-failures`);
      expect(lost.metrics[0]).toMatchObject({
        metricName: 'DestinationDeliveryFailures',
        dimensions: { FunctionName: functionKey },
      });
      expect(lost.properties).toMatchObject({ Statistic: 'Sum', Threshold: 1 });
      expect(alarmNamed(`stream-${kebabCase(key)}-errors`).metrics[0]).toMatchObject({
        metricName: 'Errors',
        dimensions: { FunctionName: functionKey },
      });
    }
  });

  it('each scheduled job with a function of its own: its errors, per tick', () => {
    const own = Object.entries(scheduledJobs).filter(([, job]) => job.runsOn === undefined);
    expect(own.length).toBeGreaterThan(0);
    for (const [key, job] of own) {
      const alarm = alarmNamed(`job-${kebabCase(key)}-errors`);
      const window = jobErrorWindow(job.rateMinutes);
      expect(alarm.metrics[0]?.metricName).toBe('Errors');
      expect(alarm.properties).toMatchObject({
        Period: window.period.toSeconds(),
        EvaluationPeriods: window.evaluationPeriods,
        DatapointsToAlarm: window.datapointsToAlarm,
      });
    }
    // A job that runs on a stream trigger's function is watched with the trigger.
    for (const [key] of Object.entries(scheduledJobs).filter(([, job]) => job.runsOn)) {
      expect(
        alarmsOf(templates).some(
          (alarm) => alarm.properties.AlarmName === `market-test-job-${kebabCase(key)}-errors`,
        ),
      ).toBe(false);
    }
  });
});

describe('function coverage', () => {
  it('watches every Lambda function of the app', () => {
    const unwatched = unwatchedFunctions(templates);
    // CDK's BucketDeployment handler runs only while a deployment uploads the web build; when it
    // fails, the deployment fails in CloudFormation, in front of whoever deploys.
    const deployTime = unwatched.filter((entry) => /\/CustomCDKBucketDeployment/.test(entry));
    expect(deployTime).toHaveLength(1);
    expect(unwatched.filter((entry) => !deployTime.includes(entry))).toEqual([]);
  });

  it('finds a function that nothing watches', () => {
    const dir = path.join(workDir, 'small');
    const routes: HttpRoute[] = [HEALTH_ROUTE];
    const tables = { routes, workflowTasks: {}, scheduledJobs: {}, streamTriggers: {} };
    const small = buildApp({
      ...tables,
      context: { stage: 'test' },
      outdir: path.join(dir, 'cdk.out'),
      assetDir: stubBundles(handlersOf(tables), path.join(dir, 'bundles')),
      workflowsDir: path.join(dir, 'no-workflows'),
      nag: false,
    });
    new lambda.Function(small.api, 'Unwatched', {
      runtime: lambda.Runtime.NODEJS_24_X,
      handler: 'index.handler',
      code: lambda.Code.fromInline('exports.handler = async () => ({});'),
      description: 'added without an alarm',
    });
    const smallTemplates = synthesized(small);
    expect(unwatchedFunctions(smallTemplates)).toEqual([
      expect.stringMatching(/^market-test-api\/Unwatched[0-9A-F]{8} \(added without an alarm\)$/),
    ]);
    // Without the webhook in its route table there is no webhook alarm.
    expect(alarmsOf(smallTemplates).map((alarm) => alarm.properties.AlarmName)).not.toContain(
      'market-test-stripe-webhook-5xx',
    );
  });
});

describe('helpers', () => {
  it('names alarms after the keys of the route table', () => {
    expect(kebabCase('auctionSweep')).toBe('auction-sweep');
    expect(kebabCase('bidEvents')).toBe('bid-events');
    expect(kebabCase('ping')).toBe('ping');
  });

  it('judges a job per tick: 2 of the last 3, within a day', () => {
    const view = (rate: number) => {
      const window = jobErrorWindow(rate);
      return [window.period.toMinutes(), window.evaluationPeriods, window.datapointsToAlarm];
    };
    expect(view(1)).toEqual([1, 3, 2]);
    expect(view(60)).toEqual([60, 3, 2]);
    expect(view(720)).toEqual([720, 2, 2]);
    expect(view(1440)).toEqual([1440, 1, 1]);
    expect(view(2880)).toEqual([1440, 1, 1]);
  });
});

/** Logical id of an API of the api stack (`HttpApi`, `WebSocketApi`). */
function apiId(prefix: string): string {
  const [id] = resourcesOf(templates[market.api.artifactId] ?? {}, 'AWS::ApiGatewayV2::Api')
    .map(([logical]) => logical)
    .filter((logical) => logical.startsWith(prefix));
  if (id === undefined) throw new Error(`No ${prefix} in the api stack`);
  return id;
}

function logicalId(stack: Stack, fn: lambda.Function): string {
  return stack.resolve((fn.node.defaultChild as lambda.CfnFunction).logicalId) as string;
}
