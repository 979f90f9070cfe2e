import * as z from 'zod';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../test/utils';
import { ApiError, apiGet, apiRequest, apiUrl, errorCodeOf, setApiSession } from './api';

function stubFetch(impl: () => Promise<Response>) {
  const fetchMock = vi.fn((_input: RequestInfo | URL, _init?: RequestInit) => impl());
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('apiUrl', () => {
  it('prefixes /api and drops undefined query values', () => {
    expect(apiUrl('/users/sellers', { limit: 50, cursor: undefined })).toBe(
      '/api/users/sellers?limit=50',
    );
    expect(apiUrl('/config')).toBe('/api/config');
  });
});

describe('apiRequest', () => {
  it('unwraps { data }', async () => {
    const fetchMock = stubFetch(async () => jsonResponse({ data: { ok: 1 } }));
    await expect(apiGet('/health')).resolves.toEqual({ ok: 1 });
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/health',
      expect.objectContaining({ method: 'GET' }),
    );
  });

  it('sends JSON bodies', async () => {
    const fetchMock = stubFetch(async () => jsonResponse({ data: null }));
    await apiRequest('/things', { method: 'POST', body: { a: 1 } });
    const init = fetchMock.mock.calls[0]?.[1] ?? {};
    expect(init.body).toBe('{"a":1}');
    expect(init.headers).toMatchObject({ 'Content-Type': 'application/json' });
  });

  it('turns { error } into an ApiError with code, status, fields and request id', async () => {
    stubFetch(async () =>
      jsonResponse(
        {
          error: {
            code: 'forms.validation.too_big',
            message: 'limit too big',
            fields: { limit: 'forms.validation.too_big' },
            requestId: 'req-1',
          },
        },
        400,
      ),
    );
    const error = await failure(apiGet('/users/sellers'));
    expect(error).toMatchObject({
      code: 'forms.validation.too_big',
      status: 400,
      message: 'limit too big',
      fields: { limit: 'forms.validation.too_big' },
      requestId: 'req-1',
    });
  });

  it('reports a failed connection as `network`', async () => {
    stubFetch(async () => {
      throw new TypeError('Failed to fetch');
    });
    const error = await failure(apiGet('/config'));
    expect(error.code).toBe('network');
    expect(error.status).toBe(0);
    expect(errorCodeOf(error)).toBe('network');
  });

  it('reports a missing or unreadable answer as `unexpected`', async () => {
    stubFetch(async () => new Response('<html>Bad gateway</html>', { status: 502 }));
    expect((await failure(apiGet('/config'))).code).toBe('unexpected');
    stubFetch(async () => new Response('', { status: 200 }));
    expect((await failure(apiGet('/config'))).code).toBe('unexpected');
    stubFetch(async () => jsonResponse({ something: 'else' }));
    expect((await failure(apiGet('/config'))).code).toBe('unexpected');
  });

  it('reports an answer that breaks the schema as `unexpected`', async () => {
    stubFetch(async () => jsonResponse({ data: { count: 'many' } }));
    const schema = z.object({ count: z.number() });
    expect((await failure(apiGet('/count', { schema }))).code).toBe('unexpected');
  });

  it('rethrows aborts untouched', async () => {
    stubFetch(async () => {
      throw new DOMException('aborted', 'AbortError');
    });
    await expect(apiGet('/config')).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('treats unknown throwables as unexpected', () => {
    expect(errorCodeOf(new Error('x'))).toBe('unexpected');
  });
});

describe('apiRequest with a session', () => {
  afterEach(() => setApiSession(null));

  it('sends the access token and reports a refused one', async () => {
    const fetchMock = vi.fn(async () =>
      jsonResponse({ error: { code: 'unauthenticated', message: 'x', requestId: 'r' } }, 401),
    );
    vi.stubGlobal('fetch', fetchMock);
    const onUnauthorized = vi.fn();
    setApiSession({ accessToken: async () => 'token-1', onUnauthorized });
    await expect(apiGet('/users/me')).rejects.toMatchObject({ code: 'unauthenticated' });
    const init = (fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1];
    expect(new Headers(init.headers).get('Authorization')).toBe('Bearer token-1');
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('sends no Authorization header without a token', async () => {
    const fetchMock = vi.fn(async () => jsonResponse({ data: 1 }));
    vi.stubGlobal('fetch', fetchMock);
    const onUnauthorized = vi.fn();
    setApiSession({ accessToken: async () => undefined, onUnauthorized });
    await apiGet('/config');
    const init = (fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1];
    expect(new Headers(init.headers).has('Authorization')).toBe(false);
  });
});
