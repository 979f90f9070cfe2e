import * as z from 'zod';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../test/utils';
import {
  ApiError,
  apiGet,
  apiRequest,
  apiUrl,
  errorCodeOf,
  holdApiCalls,
  setApiSession,
  type ApiSession,
} from './api';

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

  it('validates with a schema loader, started with the call', async () => {
    const schema = z.object({ count: z.number() });
    const load = vi.fn(async () => schema);
    const fetchMock = stubFetch(async () => {
      // The loader already runs while the request is in flight.
      expect(load).toHaveBeenCalledTimes(1);
      return jsonResponse({ data: { count: 3, extra: true } });
    });
    await expect(apiGet('/count', { schema: load })).resolves.toEqual({ count: 3 });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    stubFetch(async () => jsonResponse({ data: { count: 'many' } }));
    expect((await failure(apiGet('/count', { schema: load }))).code).toBe('unexpected');
  });

  it('reports a schema loader that fails as `unexpected`, but an API error as it is', async () => {
    const load = () => Promise.reject(new Error('chunk failed to load'));
    stubFetch(async () => jsonResponse({ data: { count: 3 } }));
    const error = await failure(apiGet('/count', { schema: load }));
    expect(error.code).toBe('unexpected');
    expect(error.cause).toBeInstanceOf(Error);
    stubFetch(async () =>
      jsonResponse({ error: { code: 'not_found', message: 'No', requestId: 'r' } }, 404),
    );
    expect((await failure(apiGet('/count', { schema: load }))).code).toBe('not_found');
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

function bearerOf(fetchMock: ReturnType<typeof vi.fn>, call: number): string | null {
  const init = (fetchMock.mock.calls[call] as unknown as [string, RequestInit])[1];
  return new Headers(init.headers).get('Authorization');
}

const refused = () =>
  jsonResponse({ error: { code: 'unauthenticated', message: 'x', requestId: 'r' } }, 401);

function sessionWith(overrides: Partial<ApiSession> = {}) {
  const session = {
    accessToken: vi.fn(async () => 'token-1' as string | undefined),
    refreshAccessToken: vi.fn(async () => 'token-2' as string | undefined),
    onUnauthorized: vi.fn(),
    ...overrides,
  };
  return session;
}

describe('apiRequest with a session', () => {
  afterEach(() => setApiSession(null));

  it('sends the access token', async () => {
    const fetchMock = stubFetch(async () => jsonResponse({ data: 1 }));
    setApiSession(sessionWith());
    await expect(apiGet('/users/me')).resolves.toBe(1);
    expect(bearerOf(fetchMock, 0)).toBe('Bearer token-1');
  });

  it('refreshes a refused token once and retries the call before anyone sees an error', async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(refused())
      .mockResolvedValueOnce(jsonResponse({ data: 'mine' }));
    vi.stubGlobal('fetch', fetchMock);
    const session = sessionWith();
    setApiSession(session);
    await expect(apiGet('/users/me')).resolves.toBe('mine');
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(bearerOf(fetchMock, 0)).toBe('Bearer token-1');
    expect(bearerOf(fetchMock, 1)).toBe('Bearer token-2');
    expect(session.refreshAccessToken).toHaveBeenCalledTimes(1);
    expect(session.onUnauthorized).not.toHaveBeenCalled();
  });

  it('ends the session when the refreshed token is refused too', async () => {
    const fetchMock = stubFetch(async () => refused());
    const session = sessionWith();
    setApiSession(session);
    await expect(apiGet('/users/me')).rejects.toMatchObject({ code: 'unauthenticated' });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(session.onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('ends the session without a retry when the refresh fails', async () => {
    const fetchMock = stubFetch(async () => refused());
    const session = sessionWith({ refreshAccessToken: vi.fn(async () => undefined) });
    setApiSession(session);
    await expect(apiGet('/users/me')).rejects.toMatchObject({ code: 'unauthenticated' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(session.onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('shares one refresh among calls refused at the same time', async () => {
    const fetchMock = vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) =>
      new Headers(init?.headers).get('Authorization') === 'Bearer token-2'
        ? jsonResponse({ data: 'ok' })
        : refused(),
    );
    vi.stubGlobal('fetch', fetchMock);
    let release: (token: string) => void = () => undefined;
    const session = sessionWith({
      refreshAccessToken: vi.fn(
        () =>
          new Promise<string | undefined>((resolve) => {
            release = resolve;
          }),
      ),
    });
    setApiSession(session);
    const calls = Promise.all([apiGet('/a'), apiGet('/b'), apiGet('/c')]);
    await vi.waitFor(() => expect(session.refreshAccessToken).toHaveBeenCalledTimes(1));
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(3));
    release('token-2');
    await expect(calls).resolves.toEqual(['ok', 'ok', 'ok']);
    expect(session.refreshAccessToken).toHaveBeenCalledTimes(1);
    expect(session.onUnauthorized).not.toHaveBeenCalled();
  });

  it('sends no Authorization header without a token', async () => {
    const fetchMock = stubFetch(async () => jsonResponse({ data: 1 }));
    setApiSession(sessionWith({ accessToken: async () => undefined }));
    await apiGet('/config');
    expect(bearerOf(fetchMock, 0)).toBeNull();
  });
});

describe('apiRequest while the session is being restored', () => {
  afterEach(() => setApiSession(null));

  it('holds calls until the session is known, then sends them with its token', async () => {
    const fetchMock = stubFetch(async () => jsonResponse({ data: 1 }));
    holdApiCalls();
    const call = apiGet('/users/u1/addresses');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fetchMock).not.toHaveBeenCalled();
    setApiSession(sessionWith());
    await expect(call).resolves.toBe(1);
    expect(bearerOf(fetchMock, 0)).toBe('Bearer token-1');
  });

  it('lets held calls go without a token once the visitor is known to be a guest', async () => {
    const fetchMock = stubFetch(async () => jsonResponse({ data: 1 }));
    holdApiCalls();
    const call = apiGet('/users/sellers');
    setApiSession(null);
    await expect(call).resolves.toBe(1);
    expect(bearerOf(fetchMock, 0)).toBeNull();
  });

  it('does not hold anonymous calls (the restore itself needs /config)', async () => {
    const fetchMock = stubFetch(async () => jsonResponse({ data: 'cfg' }));
    holdApiCalls();
    await expect(apiGet('/config', { anonymous: true })).resolves.toBe('cfg');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('gives up a held call whose signal aborts', async () => {
    stubFetch(async () => jsonResponse({ data: 1 }));
    holdApiCalls();
    const controller = new AbortController();
    const call = apiGet('/users/u1/addresses', { signal: controller.signal });
    controller.abort();
    setApiSession(null);
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
  });
});
