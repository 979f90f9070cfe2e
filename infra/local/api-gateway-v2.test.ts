import { describe, expect, it } from 'vitest';
import type { HttpRoute } from '../../functions/routes';
import {
  InvalidLambdaResult,
  buildEvent,
  compileRoutes,
  isTextual,
  requestTime,
  selectRoute,
  toHttpAnswer,
} from './api-gateway-v2';

const route = (method: HttpRoute['method'], path: string): HttpRoute => ({
  method,
  path,
  handler: `${method} ${path}`,
  auth: 'public',
  group: 'core',
});

const table = compileRoutes([
  route('ANY', '/api/{proxy+}'),
  route('GET', '/api/users/{nick}'),
  route('GET', '/api/users/sellers'),
  route('ANY', '/api/users/me'),
  route('DELETE', '/api/users/{nick}'),
  route('GET', '/api/users/{nick}/items/{itemId}'),
  route('ANY', '/api/files/{proxy+}'),
]);

describe('selectRoute', () => {
  it.each([
    ['GET', '/api/users/sellers', 'GET /api/users/sellers', undefined],
    ['GET', '/api/users/ana', 'GET /api/users/{nick}', { nick: 'ana' }],
    ['DELETE', '/api/users/ana', 'DELETE /api/users/{nick}', { nick: 'ana' }],
    ['POST', '/api/users/ana', 'ANY /api/{proxy+}', { proxy: 'users/ana' }],
    ['GET', '/api/users/me', 'ANY /api/users/me', undefined],
    [
      'GET',
      '/api/users/ana/items/7',
      'GET /api/users/{nick}/items/{itemId}',
      { nick: 'ana', itemId: '7' },
    ],
    ['PUT', '/api/files/a/b/c.png', 'ANY /api/files/{proxy+}', { proxy: 'a/b/c.png' }],
    ['GET', '/api/users', 'ANY /api/{proxy+}', { proxy: 'users' }],
    ['GET', '/api/users/', 'ANY /api/{proxy+}', { proxy: 'users/' }],
    ['HEAD', '/api/users/sellers', 'ANY /api/{proxy+}', { proxy: 'users/sellers' }],
  ])('%s %s → %s', (method, path, routeKey, pathParameters) => {
    const match = selectRoute(table, method, path);
    expect(match?.routeKey).toBe(routeKey);
    expect(match?.pathParameters).toEqual(pathParameters);
  });

  it('finds nothing for /api/ alone without a catch-all match', () => {
    expect(selectRoute(table, 'GET', '/api/')).toBeUndefined();
  });

  it('refuses a greedy variable that does not end the path', () => {
    expect(() => compileRoutes([route('GET', '/api/{proxy+}/x')])).toThrow(/greedy/);
  });
});

describe('buildEvent', () => {
  const now = new Date(Date.UTC(2026, 2, 5, 9, 4, 3));
  const event = buildEvent(
    {
      method: 'POST',
      url: '/api/users/Ana%20B?a=1&a=2&b=x+y&c',
      headers: {
        host: 'localhost:3000',
        'content-type': 'application/x-www-form-urlencoded',
        cookie: 'a=1; b=2',
        'user-agent': 'test',
      },
      body: Buffer.from('a=1'),
      sourceIp: '127.0.0.1',
      protocol: 'HTTP/1.1',
    },
    { routeKey: 'POST /api/users/{nick}', pathParameters: { nick: 'Ana B' } },
    { requestId: 'rid', now },
  );

  it('decodes the path, keeps the raw query, joins repeated parameters', () => {
    expect(event.rawPath).toBe('/api/users/Ana B');
    expect(event.rawQueryString).toBe('a=1&a=2&b=x+y&c');
    expect(event.queryStringParameters).toEqual({ a: '1,2', b: 'x y', c: '' });
    expect(event.pathParameters).toEqual({ nick: 'Ana B' });
  });

  it('moves cookies out of the headers and adds the forwarding headers', () => {
    expect(event.cookies).toEqual(['a=1', 'b=2']);
    expect(event.headers.cookie).toBeUndefined();
    expect(event.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(event.headers['x-forwarded-port']).toBe('3000');
  });

  it('base64-encodes non-textual bodies (forms included)', () => {
    expect(event.isBase64Encoded).toBe(true);
    expect(Buffer.from(event.body as string, 'base64').toString()).toBe('a=1');
  });

  it('fills the request context', () => {
    expect(event.requestContext).toMatchObject({
      domainName: 'localhost',
      http: { method: 'POST', path: '/api/users/Ana B', userAgent: 'test' },
      requestId: 'rid',
      routeKey: 'POST /api/users/{nick}',
      stage: '$default',
      time: '05/Mar/2026:09:04:03 +0000',
      timeEpoch: now.getTime(),
    });
  });

  it('formats requestContext.time as API Gateway does', () => {
    expect(requestTime(new Date(Date.UTC(2020, 2, 12, 19, 3, 58)))).toBe(
      '12/Mar/2020:19:03:58 +0000',
    );
  });

  it('treats JSON and text as textual', () => {
    expect(isTextual('application/json; charset=utf-8')).toBe(true);
    expect(isTextual('application/problem+json')).toBe(true);
    expect(isTextual('text/plain')).toBe(true);
    expect(isTextual('multipart/form-data; boundary=x')).toBe(false);
    expect(isTextual(undefined)).toBe(false);
  });
});

describe('toHttpAnswer', () => {
  it('answers values without statusCode as 200 JSON', () => {
    expect(toHttpAnswer({ a: 1 })).toMatchObject({ status: 200, body: Buffer.from('{"a":1}') });
    expect(toHttpAnswer('hi').body.toString()).toBe('"hi"');
    expect(toHttpAnswer(undefined).body.toString()).toBe('null');
  });

  it('maps structured results', () => {
    const answer = toHttpAnswer({
      statusCode: 201,
      headers: { 'Content-Type': 'text/plain' },
      cookies: ['a=1', 'b=2'],
      body: 'aGk=',
      isBase64Encoded: true,
    });
    expect(answer.status).toBe(201);
    expect(answer.headers).toEqual([
      ['content-type', 'text/plain'],
      ['set-cookie', 'a=1'],
      ['set-cookie', 'b=2'],
    ]);
    expect(answer.body.toString()).toBe('hi');
  });

  it('rejects an invalid status code', () => {
    expect(() => toHttpAnswer({ statusCode: 'x' })).toThrow(InvalidLambdaResult);
  });
});
