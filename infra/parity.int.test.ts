import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { httpRoutes, webSocketRoutes, type HttpRoute } from '../functions/routes';
import { synthesizeTemplates, templateInventory, type TemplateInventory } from './lib/app';
import { handlerLoader, startHttpGateway, type HttpGateway } from './local/http-gateway';
import { twin, useTwinEnv } from './local/test/twin-context';
import { REPO_ROOT } from './lib/bundle';

/**
 * Parity of the two runtimes: every route of the route table, every WebSocket route and every
 * workflow exists in the synthesized AWS templates AND is served by the twin by the same handler;
 * nothing exists in one and not in the other.
 */
const WORKFLOWS_DIR = path.join(REPO_ROOT, 'infra', 'workflows');
const routeKey = (route: Pick<HttpRoute, 'method' | 'path'>) => `${route.method} ${route.path}`;

/** A concrete request path for a route: `{id}` → a sample value, `{proxy+}` → several segments. */
function samplePath(route: HttpRoute): string {
  return route.path.replace(/\{[^}]+\+\}/g, 'parity/check').replace(/\{[^}]+\}/g, 'sample');
}

let inventory: TemplateInventory;

beforeAll(() => {
  inventory = templateInventory(synthesizeTemplates());
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

describe('local gateway ↔ route table', () => {
  let gateway: HttpGateway;
  const invoked: string[] = [];

  beforeAll(async () => {
    useTwinEnv();
    const load = handlerLoader(path.join(REPO_ROOT, 'functions'));
    gateway = await startHttpGateway({
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
    const socket = new WebSocket(`${twin().urls.ws}?userid=parity`);
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
