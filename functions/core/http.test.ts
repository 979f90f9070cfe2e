import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { DomainError } from './errors';
import { fieldErrors, HtmlReply, httpHandler, Reply, type SessionCheck } from './http';
import { fixedClock } from './clock';
import { httpEvent, lambdaContext } from './testing/events';
import { logger } from './logger';

const bodySchema = z.object({
  title: z
    .string()
    .min(1, { error: 'forms.validation.required' })
    .max(50, { error: 'forms.validation.too_big' }),
  copies: z.number().int().min(1).max(200),
  type: z.enum(['physical', 'digital']),
});

function parse(result: unknown) {
  const response = result as { statusCode: number; headers: Record<string, string>; body: string };
  return {
    status: response.statusCode,
    headers: response.headers,
    json: JSON.parse(response.body),
  };
}

describe('httpHandler middleware stack', () => {
  const handler = httpHandler(
    { auth: 'public', body: bodySchema, clock: fixedClock('2026-11-22T09:05:00Z') },
    async ({ body, now, requestId }) => ({ echo: body, now: now.toISOString(), requestId }),
  );

  it('answers { data } with the validated body, the injected clock and the request id', async () => {
    const result = parse(
      await handler(
        httpEvent('POST', '/api/x', {
          body: JSON.stringify({ title: 'Lamp', copies: 3, type: 'physical' }),
        }),
        lambdaContext(),
      ),
    );
    expect(result.status).toBe(200);
    expect(result.json).toEqual({
      data: {
        echo: { title: 'Lamp', copies: 3, type: 'physical' },
        now: '2026-11-22T09:05:00.000Z',
        requestId: 'req-test-1',
      },
    });
    expect(result.headers['x-request-id']).toBe('req-test-1');
  });

  it('answers 400 invalid_json for a malformed body', async () => {
    const result = parse(
      await handler(httpEvent('POST', '/api/x', { body: '{"title": ' }), lambdaContext()),
    );
    expect(result.status).toBe(400);
    expect(result.json.error).toMatchObject({ code: 'invalid_json', requestId: 'req-test-1' });
  });

  it('answers 400 invalid_json for a body that is not JSON at all', async () => {
    const result = parse(
      await handler(
        httpEvent('POST', '/api/x', {
          body: 'title=x',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
        lambdaContext(),
      ),
    );
    expect(result.status).toBe(400);
    expect(result.json.error.code).toBe('invalid_json');
  });

  it('answers 400 naming every failing field with its code', async () => {
    const result = parse(
      await handler(
        httpEvent('POST', '/api/x', {
          body: JSON.stringify({ title: 'x'.repeat(51), copies: 0, type: 'ticket' }),
        }),
        lambdaContext(),
      ),
    );
    expect(result.status).toBe(400);
    expect(result.json.error.code).toBe('invalid_request');
    expect(result.json.error.fields).toEqual({
      title: 'forms.validation.too_big',
      copies: 'forms.validation.too_small',
      type: 'forms.validation.enum',
    });
  });

  it("keeps a schema's registered code and replaces zod's own words", () => {
    const schema = z.object({
      symbol: z.string().regex(/^[a-z]+$/, { error: 'market.create_product.validation.symbol' }),
      name: z.string().regex(/^[a-z]+$/, { error: 'Not a registered code' }),
      size: z.number().max(3),
    });
    const result = schema.safeParse({ symbol: 'A', name: 'B', size: 9 });
    expect(result.success).toBe(false);
    expect(fieldErrors(result.error as z.ZodError, 'contract')).toEqual({
      'contract.symbol': 'market.create_product.validation.symbol',
      'contract.name': 'forms.validation.invalid',
      'contract.size': 'forms.validation.too_big',
    });
  });

  it('names a missing field as required', async () => {
    const result = parse(
      await handler(httpEvent('POST', '/api/x', { body: '{}' }), lambdaContext()),
    );
    expect(result.json.error.fields).toMatchObject({
      title: 'forms.validation.required',
      copies: 'forms.validation.required',
    });
  });

  it('maps a domain error to its registered status', async () => {
    const failing = httpHandler({ auth: 'public' }, async () => {
      throw new DomainError('users.errors.not_found', { message: 'not found' });
    });
    const result = parse(await failing(httpEvent('GET', '/api/y'), lambdaContext()));
    expect(result.status).toBe(404);
    expect(result.json).toEqual({
      error: { code: 'users.errors.not_found', message: 'not found', requestId: 'req-test-1' },
    });
  });

  it("answers a domain error's details, for the caller to act on without another read", async () => {
    const failing = httpHandler({ auth: 'public' }, async () => {
      throw new DomainError('market.bid.errors.beaten', {
        message: 'Another user bid the same or higher.',
        details: { minimBid: 1_050 },
        fields: { bidprice: 'market.bid.errors.beaten' },
      });
    });
    const result = parse(
      await failing(httpEvent('POST', '/api/y', { body: '{}' }), lambdaContext()),
    );
    expect(result.status).toBe(409);
    expect(result.json).toEqual({
      error: {
        code: 'market.bid.errors.beaten',
        message: 'Another user bid the same or higher.',
        fields: { bidprice: 'market.bid.errors.beaten' },
        details: { minimBid: 1_050 },
        requestId: 'req-test-1',
      },
    });
  });

  it('answers an unknown error as 500 unexpected with the request id, logs it, and leaks nothing', async () => {
    const spy = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    const failing = httpHandler({ auth: 'public' }, async () => {
      throw new Error('ECONNREFUSED 10.0.0.7:5432 password=hunter2');
    });
    const result = parse(await failing(httpEvent('GET', '/api/y'), lambdaContext()));
    expect(result.status).toBe(500);
    expect(result.json).toEqual({
      error: { code: 'unexpected', message: 'Unexpected Error', requestId: 'req-test-1' },
    });
    expect(JSON.stringify(result.json)).not.toContain('hunter2');
    expect(spy).toHaveBeenCalledOnce();
    spy.mockRestore();
  });

  it('answers another status through Reply', async () => {
    const creating = httpHandler({ auth: 'public' }, async () => new Reply(201, { id: 'a' }));
    const result = parse(await creating(httpEvent('POST', '/api/z'), lambdaContext()));
    expect(result.status).toBe(201);
    expect(result.json).toEqual({ data: { id: 'a' } });
  });

  it('answers an HTML page through HtmlReply, as it is, with its headers', async () => {
    const page = httpHandler(
      { auth: 'public' },
      async () =>
        new HtmlReply(404, '<!doctype html><p>a & b</p>', { 'cache-control': 'no-store' }),
    );
    const result = (await page(httpEvent('GET', '/api/pages/p'), lambdaContext())) as {
      statusCode: number;
      headers: Record<string, string>;
      body: string;
    };
    expect(result.statusCode).toBe(404);
    expect(result.body).toBe('<!doctype html><p>a & b</p>');
    expect(result.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(result.headers['cache-control']).toBe('no-store');
    expect(result.headers['x-request-id']).toBeTruthy();
  });

  it('validates the query, coercing numbers', async () => {
    const listing = httpHandler(
      { auth: 'public', query: z.object({ limit: z.coerce.number().int().max(50).default(50) }) },
      async ({ query }) => query,
    );
    expect(
      parse(await listing(httpEvent('GET', '/api/l', { query: { limit: '10' } }), lambdaContext()))
        .json,
    ).toEqual({
      data: { limit: 10 },
    });
    const bad = parse(
      await listing(httpEvent('GET', '/api/l', { query: { limit: '500' } }), lambdaContext()),
    );
    expect(bad.status).toBe(400);
    expect(bad.json.error.fields).toEqual({ limit: 'forms.validation.too_big' });
  });
});

describe('a call that takes no body', () => {
  const bodiless = httpHandler({ auth: 'public' }, async () => ({ ok: true }));
  const catchAll = httpHandler({ auth: 'public', ignoreBody: true }, async () => {
    throw new DomainError('not_found', { message: 'no such call' });
  });

  it.each<[string, string | undefined, Record<string, string>]>([
    ['no body', undefined, {}],
    ['an empty body', '', {}],
    ['an empty object (what the web sends on POSTs without payload)', '{}', {}],
    ['an object whose members it ignores', '{"x":1}', {}],
    ['an object with a JSON media type suffix', '{}', { 'content-type': 'application/ld+json' }],
  ])('accepts %s', async (_name, body, headers) => {
    const result = parse(
      await bodiless(
        httpEvent('POST', '/api/z', { ...(body === undefined ? {} : { body }), headers }),
        lambdaContext(),
      ),
    );
    expect(result.status).toBe(200);
    expect(result.json).toEqual({ data: { ok: true } });
  });

  it.each<[string, string, Record<string, string>]>([
    ['an array', '[]', {}],
    ['null', 'null', {}],
    ['a JSON string', '"text"', {}],
    ['a number', '1', {}],
    ['plain text', 'hello', {}],
    ['truncated JSON', '{"a":', {}],
    ['a form body', 'a=1', { 'content-type': 'application/x-www-form-urlencoded' }],
  ])('refuses %s with 400 invalid_json', async (_name, body, headers) => {
    const result = parse(
      await bodiless(httpEvent('POST', '/api/z', { body, headers }), lambdaContext()),
    );
    expect(result.status).toBe(400);
    expect(result.json.error).toMatchObject({ code: 'invalid_json', requestId: 'req-test-1' });
  });

  it('leaves the body to the catch-all, whose 404 stands whatever the body', async () => {
    for (const body of ['[]', 'null', 'hello', '{"a":']) {
      const result = parse(
        await catchAll(httpEvent('POST', '/api/nowhere', { body }), lambdaContext()),
      );
      expect(result.status).toBe(404);
      expect(result.json.error.code).toBe('not_found');
    }
  });
});

describe('auth levels', () => {
  const active: SessionCheck = async () => {};
  const userCall = httpHandler({ auth: 'user', session: active }, async ({ auth }) => ({
    userId: auth?.userId,
  }));
  const adminCall = httpHandler({ auth: 'admin', session: active }, async () => ({ ok: true }));

  it.each([
    ['user', undefined, 401, 'unauthenticated'],
    ['user', { username: '' }, 401, 'unauthenticated'],
    ['user', { sub: '7d1c-uuid-only' }, 401, 'unauthenticated'],
    ['admin', undefined, 401, 'unauthenticated'],
    ['admin', { username: 'u1', 'cognito:groups': ['members'] }, 403, 'forbidden'],
  ] as const)('%s call with claims %j → %s %s', async (level, claims, status, code) => {
    const call = level === 'user' ? userCall : adminCall;
    const result = parse(
      await call(
        httpEvent('GET', '/api/me', claims === undefined ? {} : { claims }),
        lambdaContext(),
      ),
    );
    expect(result.status).toBe(status);
    expect(result.json.error.code).toBe(code);
  });

  it('passes the caller to the use case', async () => {
    const result = parse(
      await userCall(
        httpEvent('GET', '/api/me', { claims: { sub: '7d1c-uuid', username: 'u1' } }),
        lambdaContext(),
      ),
    );
    expect(result.json).toEqual({ data: { userId: 'u1' } });
  });

  it('accepts admins, whose groups arrive as a list or as API Gateway flattens them', async () => {
    for (const groups of [['admin'], '[admin members]']) {
      const result = parse(
        await adminCall(
          httpEvent('GET', '/api/a', { claims: { username: 'u2', 'cognito:groups': groups } }),
          lambdaContext(),
        ),
      );
      expect(result.status).toBe(200);
    }
  });
});

describe('route options', () => {
  const active: SessionCheck = async () => {};
  const ownCall = httpHandler(
    {
      auth: 'user',
      session: active,
      path: z.object({ id: z.string() }),
      owner: 'id',
      idempotency: 'required',
    },
    async ({ path, idempotencyKey }) => ({ id: path.id, idempotencyKey }),
  );
  const event = (id: string, username: string | undefined, key?: string) =>
    httpEvent('POST', `/api/users/${id}/x`, {
      pathParameters: { id },
      ...(username === undefined ? {} : { claims: { username } }),
      ...(key === undefined ? {} : { headers: { 'idempotency-key': key } }),
    });

  it('owner: the path id must be the caller (403 for another id, 401 for a guest)', async () => {
    const own = parse(await ownCall(event('u1', 'u1', 'key-12345678'), lambdaContext()));
    expect(own.status).toBe(200);
    expect(own.json.data).toEqual({ id: 'u1', idempotencyKey: 'key-12345678' });
    const other = parse(await ownCall(event('u2', 'u1', 'key-12345678'), lambdaContext()));
    expect(other.status).toBe(403);
    expect(other.json.error.code).toBe('forbidden');
    const guest = parse(await ownCall(event('u1', undefined, 'key-12345678'), lambdaContext()));
    expect(guest.status).toBe(401);
  });

  it('idempotency: a required key that is missing is 400 before the use case runs', async () => {
    const result = parse(await ownCall(event('u1', 'u1'), lambdaContext()));
    expect(result.status).toBe(400);
    expect(result.json.error.fields).toEqual({ 'Idempotency-Key': 'forms.validation.required' });
  });

  it("refuses to build a 'user' call without the session check", () => {
    expect(() => httpHandler({ auth: 'user' }, async () => ({}))).toThrow(/session check/);
  });
});
