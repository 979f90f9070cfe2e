import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RENDER_DIR_ENV, RENDER_FILES } from '../functions/pages/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  InitiateAuthCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import {
  cognitoTriggers,
  httpRoutes,
  scheduledJobs,
  streamTriggers,
  webSocketRoutes,
  type HttpRoute,
} from '../functions/routes';
import { synthesizeTemplates, templateInventory, type TemplateInventory } from './lib/app';
import { cognitoAuthorizer } from './local/cognito/authorizer';
import type { Jwk } from './local/cognito/jwt';
import {
  DEFAULT_TRIGGER_MODULES,
  missingTriggerFiles,
  startCognito,
  USER_POOL_GROUPS,
  type TriggerName,
} from './local/cognito/server';
import { handlerLoader, startHttpGateway, type HttpGateway } from './local/http-gateway';
import { TWIN_CREDENTIALS } from './local/support';
import { gatewayFetch, twin, useTwinEnv } from './local/test/twin-context';
import { REPO_ROOT } from './lib/bundle';

/**
 * Parity of the two runtimes: every route of the route table, every WebSocket route, every
 * workflow, every scheduled job and every stream trigger exists in the synthesized AWS templates AND is served (or run)
 * by the twin with the same handler; nothing exists in one and not in the other.
 */
const WORKFLOWS_DIR = path.join(REPO_ROOT, 'infra', 'workflows');
const routeKey = (route: Pick<HttpRoute, 'method' | 'path'>) => `${route.method} ${route.path}`;

/** A concrete request path for a route: `{id}` → a sample value, `{proxy+}` → several segments. */
function samplePath(route: HttpRoute): string {
  return route.path.replace(/\{[^}]+\+\}/g, 'parity/check').replace(/\{[^}]+\}/g, 'sample');
}

let inventory: TemplateInventory;
let templates: ReturnType<typeof synthesizeTemplates>;

beforeAll(() => {
  templates = synthesizeTemplates();
  inventory = templateInventory(templates);
}, 120_000);

describe('AWS templates ↔ route table', () => {
  it('has exactly the HTTP routes of the route table', () => {
    expect(inventory.httpRouteKeys).toEqual(httpRoutes.map(routeKey).sort());
  });

  it('has exactly the WebSocket routes', () => {
    expect(inventory.webSocketRouteKeys).toEqual(
      webSocketRoutes.map((route) => route.routeKey).sort(),
    );
  });

  it('has one state machine per ASL file of infra/workflows', () => {
    const files = readdirSync(WORKFLOWS_DIR)
      .filter((file) => file.endsWith('.asl.json'))
      .map((file) => file.replace(/\.asl\.json$/, ''))
      .sort();
    expect(inventory.workflows).toEqual(files);
    // …and the twin's runner loads the same ones (its global setup read the same directory).
    expect(Object.keys(twin().stateMachineArns).sort()).toEqual(files);
  });
});

describe('scheduled jobs: AWS templates ↔ the twin scheduler ↔ scheduledJobs', () => {
  const declared = Object.entries(scheduledJobs).map(([name, { handler, rateMinutes }]) => ({
    name,
    handler,
    rateMinutes,
  }));

  it('has one EventBridge rule per job, running its handler at its rate', () => {
    expect(inventory.schedules).toEqual(
      declared
        .map(({ handler, rateMinutes }) => ({ handler, rateMinutes }))
        .sort((a, b) => a.handler.localeCompare(b.handler)),
    );
  });

  it('schedules the same jobs on the twin, with the same handlers, rates and budgets', () => {
    expect(twin().jobs).toEqual(
      Object.fromEntries(
        declared.map(({ name, handler, rateMinutes }) => [
          name,
          // The budget of the function its rule invokes in AWS.
          { handler, rateMinutes, timeoutSeconds: inventory.timeouts.jobs[name] },
        ]),
      ),
    );
  });

  it('runs jobs by name through the twin (POST /dev/jobs), and only its own', async () => {
    // Each module loads as the scheduler loads it and exports a handler; running a real sweep here
    // would land in the middle of other test files' auctions.
    const load = handlerLoader(path.join(REPO_ROOT, 'functions'));
    for (const { handler } of declared)
      expect(typeof (await load(handler)), handler).toBe('function');
    const response = await gatewayFetch('/dev/jobs', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'noSuchJob' }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      `no scheduled job noSuchJob (scheduledJobs: ${declared.map(({ name }) => name).join(', ')})`,
    );
  });
});

describe('stream triggers: AWS templates ↔ the twin stream poller ↔ streamTriggers', () => {
  const declared = Object.entries(streamTriggers).map(
    ([name, { handler, filters, batchSize, maxRetryAttempts, maxRecordAgeSeconds }]) => ({
      name,
      mapping: { handler, filters, batchSize, maxRetryAttempts, maxRecordAgeSeconds },
    }),
  );

  it('has one event source mapping per trigger, with its handler, filters, batch and retries', () => {
    expect(inventory.streamMappings).toEqual(
      declared.map(({ mapping }) => mapping).sort((a, b) => a.handler.localeCompare(b.handler)),
    );
  });

  it('runs the same triggers on the twin, with the same handlers, settings and budgets', () => {
    expect(twin().streams).toEqual(
      Object.fromEntries(
        declared.map(({ name, mapping }) => [
          name,
          { ...mapping, timeoutSeconds: inventory.timeouts.streams[mapping.handler] },
        ]),
      ),
    );
  });
});

describe('time budgets: the Lambda timeouts of the AWS templates ↔ what the twin enforces', () => {
  it('holds every HTTP route to the timeout CDK gives its function', () => {
    expect(Object.keys(inventory.timeouts.httpRoutes).sort()).toEqual(
      httpRoutes.map(routeKey).sort(),
    );
    expect(twin().budgets.httpRoutes).toEqual(inventory.timeouts.httpRoutes);
  });

  it('holds every WebSocket route to its function timeout', () => {
    expect(Object.keys(inventory.timeouts.webSocketRoutes).sort()).toEqual(
      webSocketRoutes.map((route) => route.routeKey).sort(),
    );
    expect(twin().budgets.webSocketRoutes).toEqual(inventory.timeouts.webSocketRoutes);
  });

  it('holds every workflow task to the timeout of the function its state machines invoke', () => {
    expect(Object.keys(twin().budgets.tasks).length).toBeGreaterThan(0);
    expect(twin().budgets.tasks).toEqual(inventory.timeouts.tasks);
  });
});

describe('Cognito triggers: AWS templates ↔ local Cognito endpoint', () => {
  const triggersPresent = missingTriggerFiles(DEFAULT_TRIGGER_MODULES).length === 0;

  it.runIf(triggersPresent)('attaches every trigger of cognitoTriggers to the user pool', () => {
    for (const handler of Object.values(cognitoTriggers))
      expect(inventory.handlers).toContain(handler);
    const pools = Object.values(templates).flatMap((template) =>
      Object.values(template.Resources ?? {}).filter((r) => r.Type === 'AWS::Cognito::UserPool'),
    );
    expect(pools).toHaveLength(1);
    expect(
      Object.keys((pools[0]?.Properties?.LambdaConfig as object | undefined) ?? {}).sort(),
    ).toEqual([
      'CreateAuthChallenge',
      'DefineAuthChallenge',
      'PreAuthentication',
      'VerifyAuthChallengeResponse',
    ]);
  });

  it('has the same user-pool groups in both runtimes', () => {
    const groups = Object.values(templates)
      .flatMap((template) => Object.values(template.Resources ?? {}))
      .filter((r) => r.Type === 'AWS::Cognito::UserPoolGroup')
      .map((r) => String(r.Properties?.GroupName))
      .sort();
    expect(groups).toEqual([...USER_POOL_GROUPS].sort());
  });

  it.runIf(triggersPresent)('runs the same trigger modules in the local endpoint', async () => {
    expect(DEFAULT_TRIGGER_MODULES.paths).toEqual(cognitoTriggers);
    useTwinEnv();
    const invoked: [TriggerName, string][] = [];
    const local = await startCognito({
      onTrigger: (name, handler) => invoked.push([name, handler]),
    });
    const client = new CognitoIdentityProviderClient({
      region: local.region,
      endpoint: local.url,
      credentials: TWIN_CREDENTIALS,
    });
    try {
      await client
        .send(
          new InitiateAuthCommand({
            AuthFlow: 'CUSTOM_AUTH',
            ClientId: local.clientId,
            AuthParameters: { USERNAME: 'parity-nobody@example.com' },
          }),
        )
        .catch(() => undefined);
      expect(invoked[0]).toEqual(['defineAuthChallenge', cognitoTriggers.defineAuthChallenge]);
      // Every trigger module loads as the endpoint loads it and exports a handler.
      const load = handlerLoader(path.join(REPO_ROOT, 'functions'));
      for (const handler of Object.values(cognitoTriggers)) {
        expect(typeof (await load(handler))).toBe('function');
      }
    } finally {
      client.destroy();
      await local.stop();
    }
  });
});

describe('local gateway ↔ route table', () => {
  let gateway: HttpGateway;
  const invoked: string[] = [];

  beforeAll(async () => {
    const context = useTwinEnv();
    // The page call renders with the web build's server bundle, which a clean checkout has not
    // built at this point: a stand-in folder lets its handler answer (functions/pages/renderer.ts).
    const renderDir = mkdtempSync(path.join(os.tmpdir(), 'parity-web-render-'));
    writeFileSync(
      path.join(renderDir, RENDER_FILES.module),
      'export async function renderProfileDocument(template) { return template; }',
    );
    writeFileSync(
      path.join(renderDir, RENDER_FILES.template),
      '<html><div id="root"></div></html>',
    );
    writeFileSync(
      path.join(renderDir, RENDER_FILES.frame),
      '<html><div id="root" data-frame></div></html>',
    );
    process.env[RENDER_DIR_ENV] = renderDir;
    const load = handlerLoader(path.join(REPO_ROOT, 'functions'));
    const jwks = (await (
      await fetch(`${context.urls.cognito}/${context.userPoolId}/.well-known/jwks.json`)
    ).json()) as { keys: Jwk[] };
    gateway = await startHttpGateway({
      // The twin's JWT authorizer: protected routes answer 401 without a token.
      authorizer: cognitoAuthorizer({
        userPoolId: context.userPoolId,
        clientId: context.userPoolClientId,
        jwks,
      }),
      routes: httpRoutes,
      loadHandler: async (handler) => {
        const real = await load(handler);
        return async (event, context) => {
          invoked.push(handler);
          return real(event, context);
        };
      },
      errorLog: () => undefined,
    });
  });

  afterAll(async () => {
    await gateway?.stop();
    Reflect.deleteProperty(process.env, RENDER_DIR_ENV);
  });

  it.each(httpRoutes.map((route) => [routeKey(route), route] as const))(
    'answers %s with its own handler',
    async (_key, route) => {
      invoked.length = 0;
      const method = route.method === 'ANY' ? 'PATCH' : route.method;
      const response = await fetch(`${gateway.url}${samplePath(route)}`, {
        method,
        headers: { 'content-type': 'application/json' },
        ...(method === 'GET' || method === 'DELETE' ? {} : { body: '{}' }),
      });
      if (route.auth === 'public') {
        expect(invoked).toEqual([route.handler]);
        expect(response.status).toBeLessThan(500);
      } else {
        // Without a token the gateway refuses before any handler runs, as the JWT authorizer does.
        expect(response.status).toBe(401);
        expect(invoked).toEqual([]);
      }
    },
  );

  it('answers the WebSocket routes through the twin: connect, ping → pong, disconnect', async () => {
    const socket = new WebSocket(`${twin().urls.ws}?userid=<annon>`);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    const pong = new Promise<string>((resolve) =>
      socket.once('message', (data: WebSocket.RawData) => resolve(String(data))),
    );
    socket.send(JSON.stringify({ action: 'ping' }));
    expect(JSON.parse(await pong)).toMatchObject({ type: 'pong' });
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.close();
    await closed;
  });
});
