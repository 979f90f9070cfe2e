/**
 * Template assertions on the whole application, built ONCE for this file: the real route table
 * and WebSocket routes, stub bundles (no build needed), a temporary web build (so the web upload
 * is covered) and a fixture workflow with one task (infra/workflows ships none yet).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Validations, type Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV } from '../../functions/core/env';
import { FAILED_BATCHES_PREFIX } from '../../functions/core/failed-batches';
import { TABLE } from '../../functions/core/table';
import { httpRoutes, scheduledJobs, streamTriggers, webSocketRoutes } from '../../functions/routes';
import {
  buildApp,
  handlersOf,
  routeKey,
  stubBundles,
  templateInventory,
  type CfnTemplate,
  type MarketApp,
} from './app';
import { formatViolations, nagViolations } from './nag';

const FIXTURE_TASKS = { fixtureStep: { handler: 'fixtures/handlers/step' } };
const FIXTURE_ASL = {
  Comment: 'Fixture: wait until an absolute time, then run one task',
  StartAt: 'WaitUntil',
  States: {
    WaitUntil: { Type: 'Wait', TimestampPath: '$.runAt', Next: 'Step' },
    Step: { Type: 'Task', Resource: '${Task_fixtureStep}', End: true },
  },
};

/** The workflows the route table and the scheduled jobs start or settle (`workflows`, `callbacks`). */
function routeWorkflows(): string[] {
  return [
    ...new Set(
      [...httpRoutes, ...Object.values(scheduledJobs)].flatMap((starter) => [
        ...(starter.workflows ?? []),
        ...(starter.callbacks ?? []),
      ]),
    ),
  ].sort();
}

let market: MarketApp;
let assembly: CloudAssembly;
let templates: Record<string, CfnTemplate>;
let workDir: string;

function template(stack: Stack): Template {
  return Template.fromStack(stack);
}

/** Logical id of the Lambda tagged with this handler in a template. */
function functionLogicalId(t: Template, handler: string): string {
  const found = Object.keys(
    t.findResources('AWS::Lambda::Function', {
      Properties: { Tags: Match.arrayWith([{ Key: 'market:handler', Value: handler }]) },
    }),
  );
  expect(found).toHaveLength(1);
  return found[0] as string;
}

beforeAll(() => {
  workDir = mkdtempSync(path.join(os.tmpdir(), 'market-infra-test-'));
  const webDir = path.join(workDir, 'web');
  mkdirSync(webDir);
  writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>market</title>');
  const workflowsDir = path.join(workDir, 'workflows');
  mkdirSync(workflowsDir);
  writeFileSync(path.join(workflowsDir, 'fixture-flow.asl.json'), JSON.stringify(FIXTURE_ASL));
  // The workflows the real routes and jobs start or settle must exist (checkWorkflowStarts):
  // stand-ins.
  for (const name of routeWorkflows()) {
    writeFileSync(path.join(workflowsDir, `${name}.asl.json`), JSON.stringify(FIXTURE_ASL));
  }

  const assetDir = stubBundles(
    handlersOf({ workflowTasks: FIXTURE_TASKS }),
    path.join(workDir, 'bundles'),
  );
  market = buildApp({
    context: { stage: 'test' },
    outdir: path.join(workDir, 'cdk.out'),
    assetDir,
    webDir,
    workflowsDir,
    workflowTasks: FIXTURE_TASKS,
    nag: false,
  });
  // A route function that posts to live connections from its own stack (the cross-stack path of
  // ApiStack.connectionsFor; no route of the table does so yet).
  const core = market.routeStacks.core as Stack;
  market.routeStacks.core?.functions['GET /api/health']?.bindConnections(
    market.api.connectionsFor(core),
  );
  assembly = market.app.synth();
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

describe('data stack', () => {
  it('expires image uploads never confirmed after a day, and nothing else', () => {
    const t = template(market.data);
    const withRule = t.findResources('AWS::S3::Bucket', {
      Properties: {
        LifecycleConfiguration: {
          Rules: Match.arrayWith([
            Match.objectLike({ Prefix: 'uploads/', ExpirationInDays: 1, Status: 'Enabled' }),
          ]),
        },
      },
    });
    expect(Object.keys(withRule)).toHaveLength(1);
    expect(Object.keys(withRule)[0]).toMatch(/^ImagesBucket/);
  });

  it('builds the single table from TABLE: keys, GSIs, TTL, PITR, on demand, retained', () => {
    const t = template(market.data);
    t.resourceCountIs('AWS::DynamoDB::Table', 1);
    t.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: {
        TableName: 'market-test',
        KeySchema: [
          { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
          { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
        ],
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true },
        DeletionProtectionEnabled: true,
        GlobalSecondaryIndexes: TABLE.globalIndexes.map((index) => ({
          IndexName: index.indexName,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' },
            { AttributeName: index.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        })),
      },
    });
  });

  it('keeps five private, encrypted, SSL-only, retained buckets with access logs', () => {
    const t = template(market.data);
    const buckets = t.findResources('AWS::S3::Bucket');
    expect(Object.keys(buckets)).toHaveLength(5);
    for (const bucket of Object.values(buckets)) {
      expect(bucket.DeletionPolicy).toBe('Retain');
      expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      expect(bucket.Properties.BucketEncryption).toBeDefined();
    }
    // images, files, web and the failed batches log to the logs bucket
    t.resourcePropertiesCountIs(
      'AWS::S3::Bucket',
      { LoggingConfiguration: { DestinationBucketName: Match.anyValue() } },
      4,
    );
    // The stream batches Lambda gave up on: replayed and deleted, else gone after 90 days.
    t.hasResourceProperties('AWS::S3::Bucket', {
      BucketName: Match.objectLike({ 'Fn::Join': ['', Match.arrayWith(['market-test-failed-'])] }),
      LifecycleConfiguration: { Rules: [Match.objectLike({ ExpirationInDays: 90 })] },
    });
    t.resourcePropertiesCountIs(
      'AWS::S3::BucketPolicy',
      {
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({
              Effect: 'Deny',
              Condition: { Bool: { 'aws:SecureTransport': 'false' } },
            }),
          ]),
        },
      },
      5,
    );
  });
});

describe('HTTP API', () => {
  it('has exactly one nodejs24.x Lambda per route, in the stack of its group: ARM, or x86_64 with native modules', () => {
    for (const [group, stack] of Object.entries(market.routeStacks)) {
      const groupRoutes = httpRoutes.filter((route) => route.group === group);
      const t = template(stack);
      t.resourceCountIs('AWS::Lambda::Function', groupRoutes.length);
      t.resourceCountIs('AWS::ApiGatewayV2::Route', groupRoutes.length);
      t.allResourcesProperties('AWS::Lambda::Function', {
        Runtime: 'nodejs24.x',
        Handler: 'index.handler',
        TracingConfig: { Mode: 'Active' },
        LoggingConfig: { LogFormat: 'JSON', LogGroup: Match.anyValue() },
      });
      const functions = t.findResources('AWS::Lambda::Function');
      for (const route of groupRoutes) {
        t.hasResourceProperties('AWS::ApiGatewayV2::Route', {
          RouteKey: routeKey(route),
          // Public routes have no authorizer; 'user' and 'admin' ones the Cognito JWT authorizer.
          AuthorizationType: route.auth === 'public' ? 'NONE' : 'JWT',
        });
        const id = functionLogicalId(t, route.handler);
        // sharp & co. ship their linux-x64 build beside the bundle (infra/lib/bundle.ts).
        const native = (route.native ?? []).length > 0;
        expect(functions[id]?.Properties.Architectures, route.handler).toEqual([
          native ? 'x86_64' : 'arm64',
        ]);
      }
    }
    expect(httpRoutes.some((route) => route.native?.includes('sharp'))).toBe(true);
    const groups = new Set(httpRoutes.map((route) => route.group));
    expect(Object.keys(market.routeStacks).sort()).toEqual([...groups].sort());
  });

  it('puts every route key of the route table in the templates (incl. the catch-all)', () => {
    const inventory = templateInventory(templates);
    expect(inventory.httpRouteKeys).toEqual(httpRoutes.map(routeKey).sort());
    expect(inventory.httpRouteKeys).toContain('ANY /api/{proxy+}');
  });

  it('grants GET routes table reads only, and the catch-all nothing', () => {
    const core = template(market.routeStacks.core as Stack);
    const policies = Object.values(core.findResources('AWS::IAM::Policy'));
    const actions = policies.flatMap((policy) =>
      (policy.Properties.PolicyDocument.Statement as { Action: string | string[] }[]).flatMap(
        (statement) => statement.Action,
      ),
    );
    expect(actions).not.toContain('dynamodb:Scan');
    expect(actions).not.toContain('dynamodb:PutItem');
    const accounts = template(market.routeStacks.accounts as Stack);
    accounts.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Action: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'],
          }),
        ]),
      },
    });
    accounts.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ TABLE_NAME: 'market-test', STAGE: 'test' }) },
    });
  });

  it('lets exactly the payment functions (stripe: true) read the one Stripe secret', () => {
    const payments = httpRoutes.filter((route) => route.stripe === true);
    expect(payments.map(routeKey)).toContain('POST /api/payment-gateway/webhook');
    for (const route of httpRoutes) {
      const t = template(market.routeStacks[route.group] as Stack);
      const fn = Object.entries(t.findResources('AWS::Lambda::Function')).find(
        ([, resource]) => resource.Properties.Description === route.handler,
      );
      const variables = (fn?.[1].Properties.Environment?.Variables ?? {}) as Record<
        string,
        unknown
      >;
      const expected = route.stripe === true;
      expect(variables.STRIPE_SECRET_NAME, routeKey(route)).toBe(
        expected ? 'market/test/stripe' : undefined,
      );
      const role = (fn?.[1].Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
      const statements = Object.values(t.findResources('AWS::IAM::Policy'))
        .filter(
          (policy) => JSON.stringify(policy.Properties.Roles) === JSON.stringify([{ Ref: role }]),
        )
        .flatMap((policy) => policy.Properties.PolicyDocument.Statement as { Action: unknown }[]);
      const secretGrants = statements.filter(
        (statement) => statement.Action === 'secretsmanager:GetSecretValue',
      );
      expect(secretGrants.length, routeKey(route)).toBe(expected ? 1 : 0);
      if (expected)
        expect(JSON.stringify(secretGrants)).toContain('secret:market/test/stripe-??????');
    }
  });

  it('logs the default stage and throttles it', () => {
    template(market.api).hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.anyValue() },
      DefaultRouteSettings: { ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 },
    });
  });
});

describe('WebSocket API', () => {
  it('routes $connect, $disconnect, $default and ping to their own functions', () => {
    const t = template(market.api);
    expect(templateInventory(templates).webSocketRouteKeys).toEqual(
      webSocketRoutes.map((route) => route.routeKey).sort(),
    );
    for (const route of webSocketRoutes) {
      t.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: route.routeKey });
      functionLogicalId(t, route.handler);
    }
    t.hasResourceProperties('AWS::ApiGatewayV2::Api', { ProtocolType: 'WEBSOCKET' });
  });

  it('deploys a logged stage after its routes exist', () => {
    const t = template(market.api);
    const stages = t.findResources('AWS::ApiGatewayV2::Stage', {
      Properties: { StageName: 'live', AutoDeploy: true },
    });
    const [stage] = Object.values(stages);
    expect(stage?.Properties.AccessLogSettings.DestinationArn).toBeDefined();
    const routeIds = Object.keys(
      t.findResources('AWS::ApiGatewayV2::Route', { Properties: { RouteKey: '$connect' } }),
    );
    expect(stage?.DependsOn).toEqual(expect.arrayContaining(routeIds));
  });

  it('lets the live handlers manage connections of its stage only', () => {
    const t = template(market.api);
    const policies = t.findResources('AWS::IAM::Policy', {
      Properties: {
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({ Action: 'execute-api:ManageConnections' }),
          ]),
        },
      },
    });
    expect(Object.keys(policies)).toHaveLength(webSocketRoutes.length);
    const statements = Object.values(policies).flatMap(
      (policy) => policy.Properties.PolicyDocument.Statement as { Action: unknown }[],
    );
    const resource = JSON.stringify(
      statements.filter((statement) => statement.Action === 'execute-api:ManageConnections'),
    );
    expect(resource).toContain('/live/*/@connections/*');
    t.allResourcesProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: Match.objectLike({ WS_CONNECTIONS_ENDPOINT: Match.anyValue() }),
      },
    });
  });
  it('gives exactly the routes marked live (or notify) the connections endpoint and its grant', () => {
    const live = httpRoutes.filter((route) => route.live === true);
    expect(live.map(routeKey)).toContain('POST /api/users/{id}/token/create');
    for (const route of httpRoutes) {
      const stack = market.routeStacks[route.group] as Stack;
      const fn = Object.values(template(stack).findResources('AWS::Lambda::Function')).find(
        (resource) => resource.Properties.Description === route.handler,
      );
      const variables = (fn?.Properties.Environment?.Variables ?? {}) as Record<string, unknown>;
      // GET /api/health is bound by this test's setup (above) to exercise the cross-stack path.
      // `notify: true` publishes the bell live too (MarketFunction.bindEmailSender's caller).
      const expected =
        route.live === true ||
        route.notify === true ||
        route.handler === 'system/handlers/get-health';
      expect('WS_CONNECTIONS_ENDPOINT' in variables, routeKey(route)).toBe(expected);
    }
  });

  it('lets a function of another stack post to connections through a named export', () => {
    template(market.api).hasOutput('*', { Export: { Name: 'market-test-ws-api-id' } });
    template(market.routeStacks.core as Stack).hasResourceProperties('AWS::Lambda::Function', {
      Description: 'system/handlers/get-health',
      Environment: {
        Variables: Match.objectLike({
          WS_CONNECTIONS_ENDPOINT: {
            'Fn::Join': ['', Match.arrayWith([{ 'Fn::ImportValue': 'market-test-ws-api-id' }])],
          },
        }),
      },
    });
  });
});

describe('web stack', () => {
  it('sends the security headers with every response', () => {
    const t = template(market.web);
    const policies = t.findResources('AWS::CloudFront::ResponseHeadersPolicy');
    const [policy] = Object.values(policies);
    const security = policy?.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
    expect(security.StrictTransportSecurity).toEqual({
      AccessControlMaxAgeSec: 63072000,
      IncludeSubdomains: true,
      Preload: true,
      Override: true,
    });
    expect(security.ContentTypeOptions).toEqual({ Override: true });
    expect(security.FrameOptions).toEqual({ FrameOption: 'DENY', Override: true });
    expect(security.ReferrerPolicy).toEqual({
      ReferrerPolicy: 'strict-origin-when-cross-origin',
      Override: true,
    });
    const csp = JSON.stringify(security.ContentSecurityPolicy.ContentSecurityPolicy);
    for (const directive of [
      "default-src 'self'",
      "connect-src 'self' wss://",
      // Amplify Auth calls the user pool from the browser.
      'https://cognito-idp.',
      "img-src 'self' data: blob:",
      "frame-ancestors 'none'",
      "object-src 'none'",
      "base-uri 'self'",
    ]) {
      expect(csp).toContain(directive);
    }
    // The wss origin is the WebSocket API's.
    expect(csp).toMatch(/WebSocketApi/);

    const distribution = Object.values(t.findResources('AWS::CloudFront::Distribution'))[0];
    const config = distribution?.Properties.DistributionConfig;
    const policyId = { Ref: Object.keys(policies)[0] };
    expect(config.DefaultCacheBehavior.ResponseHeadersPolicyId).toEqual(policyId);
    for (const behavior of config.CacheBehaviors) {
      expect(behavior.ResponseHeadersPolicyId).toEqual(policyId);
    }
  });

  it('serves the SPA from the web bucket, /api/* uncached from the HTTP API, /media/* from images', () => {
    const t = template(market.web);
    const distribution = Object.values(t.findResources('AWS::CloudFront::Distribution'))[0];
    const config = distribution?.Properties.DistributionConfig;
    expect(config.DefaultRootObject).toBe('index.html');
    expect(config.DefaultCacheBehavior.FunctionAssociations).toHaveLength(1);
    expect(config.CustomErrorResponses).toBeUndefined(); // API 404s stay JSON
    const byPath = Object.fromEntries(
      (config.CacheBehaviors as { PathPattern: string }[]).map((b) => [b.PathPattern, b]),
    );
    expect(byPath['/api/*']).toMatchObject({
      CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad', // CachingDisabled
      OriginRequestPolicyId: 'b689b0a8-53d0-40ab-baf2-68738e2966ac', // AllViewerExceptHostHeader
      ViewerProtocolPolicy: 'https-only',
    });
    expect(byPath['/media/*']).toBeDefined();
    const origins = config.Origins as { OriginAccessControlId?: unknown; DomainName: unknown }[];
    expect(origins.filter((origin) => origin.OriginAccessControlId)).toHaveLength(2);
    expect(JSON.stringify(origins)).toContain('.execute-api.');
    t.resourceCountIs('AWS::CloudFront::OriginAccessControl', 2);
    t.resourceCountIs('AWS::CloudFront::Function', 2);
  });

  it('uploads the web build when it exists', () => {
    template(market.web).resourceCountIs('Custom::CDKBucketDeployment', 1);
  });
});

describe('workflow mechanism', () => {
  it('turns each ASL file into a logged, traced Standard state machine', () => {
    const t = template(market.workflows as Stack);
    t.resourceCountIs('AWS::StepFunctions::StateMachine', 1 + routeWorkflows().length);
    t.hasResourceProperties('AWS::StepFunctions::StateMachine', {
      StateMachineType: 'STANDARD',
      TracingConfiguration: { Enabled: true },
      LoggingConfiguration: {
        Level: 'ALL',
        IncludeExecutionData: true,
        Destinations: Match.anyValue(),
      },
      DefinitionS3Location: Match.anyValue(),
    });
    expect(templateInventory(templates).workflows).toEqual(
      ['fixture-flow', ...routeWorkflows()].sort(),
    );
  });

  it('substitutes ${Task_<key>} with the ARN of the Lambda of workflowTasks[<key>]', () => {
    const t = template(market.workflows as Stack);
    const taskFunction = functionLogicalId(t, FIXTURE_TASKS.fixtureStep.handler);
    const machine = Object.values(t.findResources('AWS::StepFunctions::StateMachine'))[0];
    expect(machine?.Properties.DefinitionSubstitutions).toEqual({
      Task_fixtureStep: { 'Fn::GetAtt': [taskFunction, 'Arn'] },
    });
    // The uploaded definition is the file as written, placeholder included.
    const key = machine?.Properties.DefinitionS3Location.Key as string;
    const uploaded = readFileSync(path.join(assembly.directory, `asset.${key}`), 'utf8');
    expect(JSON.parse(uploaded).States.Step.Resource).toBe('${Task_fixtureStep}');
    // The state machine may invoke exactly that function.
    t.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          {
            Action: 'lambda:InvokeFunction',
            Effect: 'Allow',
            Resource: { 'Fn::GetAtt': [taskFunction, 'Arn'] },
          },
        ]),
      },
    });
  });
});

describe('scheduled jobs', () => {
  it('runs every job of scheduledJobs on an EventBridge rule at its rate', () => {
    expect(templateInventory(templates).schedules).toEqual(
      Object.values(scheduledJobs)
        .map((job) => ({ handler: job.handler, rateMinutes: job.rateMinutes }))
        .sort((a, b) => a.handler.localeCompare(b.handler)),
    );
    const t = template(market.workflows as Stack);
    t.resourceCountIs('AWS::Events::Rule', Object.keys(scheduledJobs).length);
    // A job that runs on a stream trigger has no function of its own: its rule targets the
    // trigger's (below), the only function of its handler.
    for (const job of Object.values(scheduledJobs).filter((job) => job.runsOn !== undefined)) {
      expect(
        Object.keys(
          t.findResources('AWS::Lambda::Function', { Properties: { Description: job.handler } }),
        ),
      ).toHaveLength(1);
    }
    for (const job of Object.values(scheduledJobs)) {
      expect(
        Object.values(
          t.findResources('AWS::Events::Rule', {
            Properties: {
              Targets: [
                Match.objectLike({
                  Arn: { 'Fn::GetAtt': [functionLogicalId(t, job.handler), 'Arn'] },
                }),
              ],
            },
          }),
        ),
        job.handler,
      ).toHaveLength(1);
    }
  });
});

describe('stream triggers', () => {
  it("streams the table's new images and names the stream in an SSM parameter", () => {
    const t = template(market.data);
    t.hasResourceProperties('AWS::DynamoDB::Table', {
      StreamSpecification: { StreamViewType: TABLE.streamViewType },
    });
    const [tableId] = Object.keys(t.findResources('AWS::DynamoDB::Table'));
    t.hasResourceProperties('AWS::SSM::Parameter', {
      Name: '/market-test/table-stream-arn',
      Value: { 'Fn::GetAtt': [tableId, 'StreamArn'] },
    });
  });

  it('maps every trigger of streamTriggers to the stream with its filters, batch, retries and age', () => {
    const t = template(market.workflows as Stack);
    t.resourceCountIs('AWS::Lambda::EventSourceMapping', Object.keys(streamTriggers).length);
    for (const trigger of Object.values(streamTriggers)) {
      t.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        FunctionName: { Ref: functionLogicalId(t, trigger.handler) },
        // The stream ARN from the data stack's parameter, resolved at deployment.
        EventSourceArn: { Ref: Match.stringLikeRegexp('SsmParameterValue') },
        StartingPosition: 'TRIM_HORIZON',
        BatchSize: trigger.batchSize,
        MaximumRetryAttempts: trigger.maxRetryAttempts,
        MaximumRecordAgeInSeconds: trigger.maxRecordAgeSeconds,
        BisectBatchOnFunctionError: false,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        FilterCriteria: {
          Filters: trigger.filters.map((pattern) => ({ Pattern: JSON.stringify(pattern) })),
        },
        // The batches it gives up on are kept, records and all, in the failed-batches bucket.
        DestinationConfig: {
          OnFailure: { Destination: Match.objectLike({ 'Fn::Join': Match.anyValue() }) },
        },
      });
    }
    const destinations = Object.values(t.findResources('AWS::Lambda::EventSourceMapping')).map(
      (mapping) => JSON.stringify(mapping.Properties.DestinationConfig),
    );
    for (const destination of destinations) expect(destination).toContain('market-test-failed-');
  });

  it('lets a trigger keep, read back and delete its failed batches, under their prefix only', () => {
    const t = template(market.workflows as Stack);
    for (const trigger of Object.values(streamTriggers)) {
      const id = functionLogicalId(t, trigger.handler);
      const fn = t.findResources('AWS::Lambda::Function')[id];
      expect(fn?.Properties.Environment.Variables[ENV.failedBatchesBucket]).toBeDefined();
      const role = (fn?.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
      const policies = Object.values(t.findResources('AWS::IAM::Policy')).filter((policy) =>
        JSON.stringify(policy.Properties.Roles).includes(role),
      );
      const statements = policies.flatMap(
        (policy) => policy.Properties.PolicyDocument.Statement as Record<string, unknown>[],
      );
      const objects = statements.find(
        (statement) =>
          JSON.stringify(statement.Action) ===
          JSON.stringify(['s3:PutObject', 's3:GetObject', 's3:DeleteObject']),
      );
      expect(JSON.stringify(objects?.Resource)).toContain('market-test-failed-');
      expect(JSON.stringify(objects?.Resource)).toContain(`/${FAILED_BATCHES_PREFIX}*`);
      expect(statements.some((statement) => statement.Action === 's3:ListBucket')).toBe(true);
    }
  });

  it('lets a trigger read the stream and nothing starts the retired bid-events workflow', () => {
    const t = template(market.workflows as Stack);
    const policies = JSON.stringify(t.findResources('AWS::IAM::Policy'));
    expect(policies).toContain('dynamodb:GetRecords');
    expect(policies).toContain('dynamodb:GetShardIterator');
    expect(templateInventory(templates).workflows).not.toContain('bid-events');
  });
});

describe('whole app', () => {
  it('keeps every stack under 500 resources', () => {
    for (const [id, t] of Object.entries(templates)) {
      const count = Object.keys(t.Resources ?? {}).length;
      expect(count, id).toBeLessThan(500);
      expect(count, id).toBeGreaterThan(0);
    }
  });

  it('has no unacknowledged cdk-nag AwsSolutions errors or warnings', () => {
    const violations = nagViolations(market.app);
    expect(formatViolations(violations)).toBe('');
  });

  it('has no CDK warnings or errors left', () => {
    for (const stack of market.stacks) {
      const annotations = Annotations.fromStack(stack);
      expect(annotations.findError('*', Match.anyValue()), stack.artifactId).toEqual([]);
      expect(annotations.findWarning('*', Match.anyValue()), stack.artifactId).toEqual([]);
    }
  });

  it('gives a reason for every acknowledgement', () => {
    const reasons: [string, string, unknown][] = [];
    for (const construct of market.app.node.findAll()) {
      for (const entry of construct.node.metadata) {
        if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY) continue;
        for (const [rule, reason] of Object.entries(entry.data as Record<string, unknown>)) {
          reasons.push([construct.node.path, rule, reason]);
        }
      }
    }
    expect(reasons.length).toBeGreaterThan(10);
    for (const [where, rule, reason] of reasons) {
      expect(typeof reason === 'string' && reason.trim().length >= 20, `${where} ${rule}`).toBe(
        true,
      );
    }
  });
});
