import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpRoute } from '../../functions/routes';
import { startHttpGateway, type Handler, type HttpGateway } from './http-gateway';
import { twin } from './test/twin-context';

const BIG_SCRIPT = Array.from({ length: 400 }, (_, i) => `console.log('line ${i}');`).join('\n');

const context = twin();

describe('the twin gateway with the real route table', () => {
  it('answers an unknown /api route 404 not_found with the request id', async () => {
    const response = await fetch(`${context.urls.http}/api/no/such/call?x=1`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/json');
    const body = (await response.json()) as { error: { code: string; requestId: string } };
    expect(body.error.code).toBe('not_found');
    expect(body.error.requestId).toBe(response.headers.get('apigw-requestid'));
  });

  it('sends a method no route names to the ANY catch-all', async () => {
    const response = await fetch(`${context.urls.http}/api/health`, { method: 'DELETE' });
    expect(response.status).toBe(404);
  });

  it('serves GET /api/health', async () => {
    const response = await fetch(`${context.urls.http}/api/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ data: { status: 'ok', stage: 'local' } });
  });

  it('refuses a body above the 10 MB API Gateway limit with 413', async () => {
    const response = await fetch(`${context.urls.http}/api/health`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(10 * 1024 * 1024 + 1),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { code: 'payload_too_large' } });
  });

  it("refuses a body over Lambda's 6 MB payload limit with 413, before any handler runs", async () => {
    const unique = `big${Date.now().toString(36)}`;
    const user = {
      user_option: 'individual',
      nick: unique,
      email: `${unique}@example.com`,
      phone: `+3462${String(Date.now() % 10_000_000).padStart(7, '0')}`,
      name: 'Big',
      surname: 'Body',
      terms: true,
      padding: 'x'.repeat(7 * 1024 * 1024),
    };
    const response = await fetch(`${context.urls.http}/api/users/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { code: 'payload_too_large' } });
    // Nothing was created: the e-mail is still free.
    const check = await fetch(
      `${context.urls.http}/api/users/check-email/${encodeURIComponent(user.email)}`,
    );
    expect(check.status).toBe(200);
    expect(await check.json()).toMatchObject({ data: { available: true } });
  });

  it('passes a body just under the 6 MB limit to the handler', async () => {
    const response = await fetch(`${context.urls.http}/api/users/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: { padding: 'x'.repeat(5 * 1024 * 1024) } }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'invalid_request' } });
  });

  it('refuses a malformed body on a call that takes none with 400 invalid_json', async () => {
    const url = `${context.urls.http}/api/users/01JTESTUSER000000000000000/token/getproductbyid/01JTESTITEM000000000000000`;
    for (const body of ['[]', 'null', 'text', '"text"', '{"a":']) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(response.status, body).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: 'invalid_json' } });
    }
    // No body, or the `{}` the web sends, reaches the call (an unknown item here).
    for (const body of [undefined, '{}']) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body }),
      });
      expect(response.status, String(body)).not.toBe(400);
    }
    // The catch-all still answers 404 whatever the body.
    const unknown = await fetch(`${context.urls.http}/api/no/such/call`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '[]',
    });
    expect(unknown.status).toBe(404);
  });

  it('streams /media/* from the images bucket', async () => {
    const s3 = new S3Client({
      endpoint: context.urls.s3,
      forcePathStyle: true,
      region: context.env.AWS_REGION as string,
      credentials: {
        accessKeyId: context.env.AWS_ACCESS_KEY_ID as string,
        secretAccessKey: context.env.AWS_SECRET_ACCESS_KEY as string,
      },
    });
    const key = `avatars/test-${Date.now()}/a b.webp`;
    const bytes = new Uint8Array([82, 73, 70, 70, 1, 2, 3, 4]);
    await s3.send(
      new PutObjectCommand({
        Bucket: context.env.IMAGES_BUCKET as string,
        Key: key,
        Body: bytes,
        ContentType: 'image/webp',
      }),
    );
    s3.destroy();
    const url = `${context.urls.http}/media/${key.split('/').map(encodeURIComponent).join('/')}`;
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);

    const missing = await fetch(`${context.urls.http}/media/avatars/nobody.webp`);
    expect(missing.status).toBe(404);
  });
});

/** A gateway of its own, on fixture handlers and a fixture web build, for the semantics. */
describe('API Gateway semantics of the local gateway', () => {
  let dir: string;
  let gateway: HttpGateway;
  let claims: Record<string, unknown> | null = null;
  const errors: string[] = [];

  const routes: HttpRoute[] = [
    { method: 'GET', path: '/api/items/special', handler: 'echo', auth: 'public', group: 'core' },
    { method: 'GET', path: '/api/items/{id}', handler: 'echo', auth: 'public', group: 'core' },
    { method: 'POST', path: '/api/items/{id}', handler: 'echo', auth: 'public', group: 'core' },
    { method: 'ANY', path: '/api/items/{proxy+}', handler: 'echo', auth: 'public', group: 'core' },
    { method: 'GET', path: '/api/throws', handler: 'throws', auth: 'public', group: 'core' },
    { method: 'GET', path: '/api/plain', handler: 'plain', auth: 'public', group: 'core' },
    { method: 'GET', path: '/api/binary', handler: 'binary', auth: 'public', group: 'core' },
    { method: 'GET', path: '/api/me', handler: 'echo', auth: 'user', group: 'core' },
    {
      method: 'GET',
      path: '/api/pages/profile/{nick}',
      handler: 'page',
      auth: 'public',
      group: 'core',
      html: true,
    },
    { method: 'ANY', path: '/api/{proxy+}', handler: 'echo', auth: 'public', group: 'core' },
  ];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-fixture-'));
    const functionsDir = path.join(dir, 'functions');
    mkdirSync(functionsDir);
    writeFileSync(
      path.join(functionsDir, 'echo.ts'),
      `export const handler = async (event: unknown, context: { awsRequestId: string; getRemainingTimeInMillis(): number }) => ({
        statusCode: 200,
        headers: { 'content-type': 'application/json', 'x-one': 'a' },
        cookies: ['a=1; Path=/', 'b=2; Path=/'],
        body: JSON.stringify({ event, awsRequestId: context.awsRequestId, remaining: context.getRemainingTimeInMillis() }),
      });\n`,
    );
    writeFileSync(
      path.join(functionsDir, 'throws.ts'),
      `export const handler = async () => { throw new Error('boom: secret internals'); };\n`,
    );
    writeFileSync(
      path.join(functionsDir, 'plain.ts'),
      `export const handler = async () => ({ hello: 'world' });\n`,
    );
    writeFileSync(
      path.join(functionsDir, 'binary.ts'),
      `export const handler = async () => ({ statusCode: 200, headers: { 'content-type': 'image/png' }, isBase64Encoded: true, body: Buffer.from([1, 2, 3]).toString('base64') });\n`,
    );
    writeFileSync(
      path.join(functionsDir, 'page.ts'),
      `export const handler = async (event: { pathParameters: { nick: string }; headers: Record<string, string> }) => ({
        statusCode: event.pathParameters.nick === 'nobody' ? 404 : 200,
        headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'public, max-age=0, s-maxage=60' },
        body: '<!doctype html><h1>' + event.pathParameters.nick + '</h1><p>' + 'profile '.repeat(200) + '</p><p>auth:' + (event.headers.authorization ?? 'none') + '</p>',
      });\n`,
    );
    const webDir = path.join(dir, 'web');
    mkdirSync(path.join(webDir, 'assets'), { recursive: true });
    writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>spa</title>');
    writeFileSync(path.join(webDir, 'assets', 'app-1234.js'), 'console.log(1)');
    writeFileSync(path.join(webDir, 'assets', 'big-5678.js'), BIG_SCRIPT);
    writeFileSync(path.join(webDir, 'robots.txt'), 'User-agent: *');

    gateway = await startHttpGateway({
      routes,
      functionsDir,
      webDir,
      authorizer: async () => (claims === null ? null : { jwt: { claims, scopes: [] } }),
      errorLog: (line) => errors.push(line),
    });
  });

  afterAll(async () => {
    await gateway?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function echo(
    method: string,
    target: string,
    init: RequestInit = {},
  ): Promise<{ status: number; event: APIGatewayProxyEventV2; headers: Headers }> {
    const response = await fetch(`${gateway.url}${target}`, { method, ...init });
    const body = (await response.json()) as { event: APIGatewayProxyEventV2 };
    return { status: response.status, event: body.event, headers: response.headers };
  }

  it('prefers exact paths, then {param}, then {proxy+}; a named method beats ANY', async () => {
    expect((await echo('GET', '/api/items/special')).event.routeKey).toBe('GET /api/items/special');
    const param = await echo('GET', '/api/items/42');
    expect(param.event.routeKey).toBe('GET /api/items/{id}');
    expect(param.event.pathParameters).toEqual({ id: '42' });
    expect((await echo('POST', '/api/items/42')).event.routeKey).toBe('POST /api/items/{id}');
    const deleted = await echo('DELETE', '/api/items/42');
    expect(deleted.event.routeKey).toBe('ANY /api/items/{proxy+}');
    expect(deleted.event.pathParameters).toEqual({ proxy: '42' });
    const deep = await echo('GET', '/api/items/a/b%20c');
    expect(deep.event.routeKey).toBe('ANY /api/items/{proxy+}');
    expect(deep.event.pathParameters).toEqual({ proxy: 'a/b c' });
    expect((await echo('GET', '/api/other')).event.routeKey).toBe('ANY /api/{proxy+}');
  });

  it('builds a payload-format-2.0 event', async () => {
    const { event, headers } = await echo('GET', '/api/items/7?tag=a&tag=b&q=x%20y&empty', {
      headers: { Cookie: 'sid=abc; theme=dark', 'X-Custom': 'Value', 'User-Agent': 'vitest' },
    });
    expect(event.version).toBe('2.0');
    expect(event.rawPath).toBe('/api/items/7');
    expect(event.rawQueryString).toBe('tag=a&tag=b&q=x%20y&empty');
    expect(event.queryStringParameters).toEqual({ tag: 'a,b', q: 'x y', empty: '' });
    expect(event.cookies).toEqual(['sid=abc', 'theme=dark']);
    expect(event.headers['x-custom']).toBe('Value');
    expect(event.headers.cookie).toBeUndefined();
    expect(event.isBase64Encoded).toBe(false);
    expect(event.body).toBeUndefined();
    expect(event.requestContext).toMatchObject({
      http: { method: 'GET', path: '/api/items/7', userAgent: 'vitest', sourceIp: '127.0.0.1' },
      routeKey: 'GET /api/items/{id}',
      stage: '$default',
    });
    expect(event.requestContext.requestId).toBe(headers.get('apigw-requestid'));
    expect(event.requestContext.time).toMatch(
      /^\d{2}\/[A-Z][a-z]{2}\/\d{4}:\d{2}:\d{2}:\d{2} \+0000$/,
    );
    expect(Math.abs(event.requestContext.timeEpoch - Date.now())).toBeLessThan(10_000);
  });

  it('passes text bodies as text and binary bodies as base64', async () => {
    const json = await echo('POST', '/api/items/1', {
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(json.event.body).toBe('{"a":1}');
    expect(json.event.isBase64Encoded).toBe(false);

    const binary = await echo('POST', '/api/items/1', {
      headers: { 'content-type': 'application/octet-stream' },
      body: new Uint8Array([0, 255, 1]),
    });
    expect(binary.event.isBase64Encoded).toBe(true);
    expect(Buffer.from(binary.event.body as string, 'base64')).toEqual(Buffer.from([0, 255, 1]));
  });

  it('maps the structured result: headers, cookies, base64 bodies', async () => {
    const response = await fetch(`${gateway.url}/api/items/1`);
    expect(response.headers.get('x-one')).toBe('a');
    expect(response.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    const binary = await fetch(`${gateway.url}/api/binary`);
    expect(binary.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await binary.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
  });

  it("answers a profile's path with its page call, compressed, as CloudFront's function routes it", async () => {
    const response = await fetch(`${gateway.url}/tidewater/`, {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(response.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=60');
    const html = await response.text();
    expect(html).toContain('<h1>tidewater</h1>');
    expect((await fetch(`${gateway.url}/nobody`)).status).toBe(404);
    // Other paths are files of the web build, or its shell.
    expect(await (await fetch(`${gateway.url}/tidewater/items`)).text()).toContain('<title>spa');
    expect(await (await fetch(`${gateway.url}/account`)).text()).toContain('<title>spa');
  });

  it('answers a result without statusCode 200 as JSON', async () => {
    const response = await fetch(`${gateway.url}/api/plain`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ hello: 'world' });
  });

  it('answers a throwing handler 500 unexpected without leaking internals', async () => {
    const response = await fetch(`${gateway.url}/api/throws`);
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain('secret internals');
    expect(errors.some((line) => line.includes('secret internals'))).toBe(true);
    expect(JSON.parse(text)).toEqual({
      error: {
        code: 'unexpected',
        message: 'Internal Server Error',
        requestId: response.headers.get('apigw-requestid'),
      },
    });
  });

  it('gives handlers a Lambda-like context, counting down their budget (10 s by default)', async () => {
    const response = await fetch(`${gateway.url}/api/items/1`);
    const body = (await response.json()) as { awsRequestId: string; remaining: number };
    expect(body.awsRequestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.remaining).toBeGreaterThan(8_000);
    expect(body.remaining).toBeLessThanOrEqual(10_000);
  });

  it('runs the authorizer for user routes: 401 without claims, claims in the event with', async () => {
    claims = null;
    const refused = await fetch(`${gateway.url}/api/me`);
    expect(refused.status).toBe(401);
    claims = { sub: 'user-1', email: 'a@example.com' };
    const { event } = await echo('GET', '/api/me');
    expect(
      (event.requestContext as unknown as { authorizer: { jwt: { claims: unknown } } }).authorizer
        .jwt.claims,
    ).toEqual(claims);
  });

  it('serves the web build with SPA fallback for non-file paths', async () => {
    const page = await fetch(`${gateway.url}/sellers/some-nick`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('<title>spa</title>');

    const asset = await fetch(`${gateway.url}/assets/app-1234.js`);
    expect(asset.headers.get('content-type')).toContain('javascript');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect((await fetch(`${gateway.url}/robots.txt`)).status).toBe(200);
    expect((await fetch(`${gateway.url}/missing.js`)).status).toBe(404);
    expect((await fetch(`${gateway.url}/../../etc/passwd`)).status).not.toBe(500);
  });

  it('compresses the web build as CloudFront does: Brotli or gzip to a browser that accepts it, and plain bytes otherwise', async () => {
    const url = `${gateway.url}/assets/big-5678.js`;
    const plain = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(BIG_SCRIPT);
    for (const [accepted, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      // fetch decodes the body itself; the headers show what travelled.
      const response = await fetch(url, { headers: { 'accept-encoding': accepted } });
      expect(response.headers.get('content-encoding')).toBe(encoding);
      expect(response.headers.get('vary')).toBe('Accept-Encoding');
      expect(Number(response.headers.get('content-length'))).toBeLessThan(BIG_SCRIPT.length / 4);
      expect(await response.text()).toBe(BIG_SCRIPT);
    }
    // Under 1,000 bytes CloudFront does not compress.
    const small = await fetch(`${gateway.url}/assets/app-1234.js`, {
      headers: { 'accept-encoding': 'br' },
    });
    expect(small.headers.get('content-encoding')).toBeNull();
  });
});

describe('a gateway without a web build', () => {
  it('explains how to build it', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-empty-'));
    const gateway = await startHttpGateway({ routes: [], webDir: path.join(dir, 'none') });
    try {
      const response = await fetch(`${gateway.url}/`);
      expect(response.status).toBe(503);
      expect(await response.text()).toContain('npm run build:web');
    } finally {
      await gateway.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a non-public route loudly while no JWT authorizer is wired', async () => {
    const errors: string[] = [];
    const gateway = await startHttpGateway({
      routes: [{ method: 'GET', path: '/api/me', handler: 'x', auth: 'user', group: 'core' }],
      errorLog: (line) => errors.push(line),
    });
    try {
      const response = await fetch(`${gateway.url}/api/me`);
      expect(response.status).toBe(500);
      expect(((await response.json()) as { error: { message: string } }).error.message).toContain(
        'no JWT authorizer',
      );
      expect(errors).toHaveLength(1);
    } finally {
      await gateway.stop();
    }
  });
});

/**
 * Time budgets (functions/core/budgets.ts): each handler is stopped at its route's
 * `timeoutSeconds` as Lambda stops a function, and what it would do afterwards never happens.
 */
describe("a handler past its route's budget", () => {
  const dynamo = new DynamoDBClient({
    endpoint: context.urls.dynamodb,
    region: context.env.AWS_REGION as string,
    credentials: {
      accessKeyId: context.env.AWS_ACCESS_KEY_ID as string,
      secretAccessKey: context.env.AWS_SECRET_ACCESS_KEY as string,
    },
    maxAttempts: 1,
  });
  const table = context.env.TABLE_NAME as string;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const errors: string[] = [];
  /** What the slow handlers did once they woke up, by the key they tried to write. */
  const outcomes = new Map<string, Promise<string>>();
  let gateway: HttpGateway;
  let slowServer: Server;

  const route = (path: string, handler: string, timeoutSeconds: number): HttpRoute => ({
    method: 'POST',
    path,
    handler,
    auth: 'public',
    group: 'core',
    timeoutSeconds,
  });

  /** Sleeps past its 1 s budget, then writes an item (keyed by the body) to the table. */
  const lateWriter: Handler = async (event) => {
    const key = String(event.body);
    let done: (outcome: string) => void = () => undefined;
    outcomes.set(key, new Promise((resolve) => (done = resolve)));
    await sleep(1_500);
    try {
      await dynamo.send(
        new PutItemCommand({
          TableName: table,
          Item: { pk: { S: key }, sk: { S: 'late' }, type: { S: 'budget-test' } },
        }),
      );
      done('written');
    } catch (error) {
      done(error instanceof Error ? error.message : String(error));
    }
    return { statusCode: 200, body: 'too late' };
  };

  /** Calls a server that answers after 3 s: the request is under way when its budget ends. */
  const slowCaller: Handler = async (event) => {
    const key = String(event.body);
    const started = Date.now();
    const { port } = slowServer.address() as AddressInfo;
    const outcome = new Promise<string>((resolve) => {
      const request = httpRequest({ host: '127.0.0.1', port, path: '/' }, (response) => {
        response.resume();
        response.on('end', () => resolve('answered'));
      });
      request.on('error', (error) => resolve(`${error.message} after ${Date.now() - started} ms`));
      request.end();
    });
    outcomes.set(key, outcome);
    return { statusCode: 200, body: await outcome };
  };

  const handlers: Record<string, Handler> = {
    'budget/late-writer': lateWriter,
    'budget/slow-caller': slowCaller,
    'budget/remaining': async (_event, lambda) => ({
      remaining: lambda.getRemainingTimeInMillis(),
    }),
    'budget/slow-answer': async () => {
      await sleep(1_500);
      return { statusCode: 200, body: 'late' };
    },
  };
  const routes = [
    route('/api/late-writer', 'budget/late-writer', 1),
    route('/api/slow-caller', 'budget/slow-caller', 1),
    route('/api/remaining', 'budget/remaining', 7),
  ];

  beforeAll(async () => {
    slowServer = createServer((_request, response) => {
      setTimeout(() => response.end('slow'), 3_000).unref();
    });
    await new Promise<void>((resolve) => slowServer.listen(0, '127.0.0.1', resolve));
    gateway = await startHttpGateway({
      routes,
      loadHandler: async (handler) => handlers[handler] as Handler,
      errorLog: (line) => errors.push(line),
    });
  });

  afterAll(async () => {
    await gateway?.stop();
    slowServer?.closeAllConnections();
    await new Promise((resolve) => slowServer?.close(resolve));
    dynamo.destroy();
  });

  const post = async (path: string, body: string, at = gateway) => {
    const started = Date.now();
    const response = await fetch(`${at.url}${path}`, { method: 'POST', body });
    return { response, ms: Date.now() - started, json: (await response.json()) as unknown };
  };

  it("answers API Gateway's 500 at the budget, and the handler's later write never lands", async () => {
    const key = `budget-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
    const { response, ms, json } = await post('/api/late-writer', key);
    expect(response.status).toBe(500);
    expect(json).toEqual({ message: 'Internal Server Error' });
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('apigw-requestid')).toBeTruthy();
    // At the 1 s budget, not at the handler's 1.5 s nor at API Gateway's 30 s.
    expect(ms).toBeGreaterThanOrEqual(950);
    expect(ms).toBeLessThan(1_450);
    expect(
      errors.some((line) => /late-writer.*Task timed out after 1\.00 seconds/.test(line)),
    ).toBe(true);

    // The handler woke up and tried to write: refused at once, as a stopped Lambda writes nothing.
    expect(await outcomes.get(key)).toMatch(/^Lambda timed out: budget\/late-writer after 1 s/);
    const read = await dynamo.send(
      new GetItemCommand({ TableName: table, Key: { pk: { S: key }, sk: { S: 'late' } } }),
    );
    expect(read.Item).toBeUndefined();
  });

  it('cuts off a request the handler has under way when its budget ends', async () => {
    const key = `slow-${Date.now().toString(36)}`;
    const { response, ms } = await post('/api/slow-caller', key);
    expect(response.status).toBe(500);
    expect(ms).toBeLessThan(1_450);
    const outcome = await outcomes.get(key);
    expect(outcome).toMatch(/^Lambda timed out: budget\/slow-caller after 1 s/);
    // Destroyed at the deadline, not answered at 3 s.
    expect(Number(/after (\d+) ms$/.exec(outcome ?? '')?.[1])).toBeLessThan(1_450);
  });

  it("counts the context's remaining time down from the route's budget", async () => {
    const { json } = await post('/api/remaining', '');
    const { remaining } = json as { remaining: number };
    expect(remaining).toBeGreaterThan(6_000);
    expect(remaining).toBeLessThanOrEqual(7_000);
  });

  it("answers API Gateway's 503 when the integration gives up first", async () => {
    // Only reachable with an integration timeout under the budget (in AWS: 30 s against at most 29).
    const short = await startHttpGateway({
      routes: [route('/api/slow-answer', 'budget/slow-answer', 5)],
      loadHandler: async (handler) => handlers[handler] as Handler,
      timeoutMs: 500,
      errorLog: (line) => errors.push(line),
    });
    try {
      const { response, ms, json } = await post('/api/slow-answer', '', short);
      expect(response.status).toBe(503);
      expect(json).toEqual({ message: 'Service Unavailable' });
      expect(ms).toBeLessThan(1_400);
    } finally {
      await short.stop();
    }
  });

  it('refuses to start with a route over 29 s, as the synth refuses it', async () => {
    await expect(
      startHttpGateway({ routes: [route('/api/too-long', 'budget/remaining', 30)] }),
    ).rejects.toThrow(/POST \/api\/too-long: timeoutSeconds 30 is over 29/);
  });
});
