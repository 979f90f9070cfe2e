import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../test/utils';
import { apiGet, apiPost, setApiSession, type ApiSession } from './api';
import {
  clearEarlyCalls,
  EARLY_CALL_TTL_MS,
  sendEarlyCall,
  takeEarlyAnswer,
  type EarlyCall,
} from './earlyCalls';

function stubFetch(impl: (url: string) => Promise<Response>) {
  const fetchMock = vi.fn((input: RequestInfo | URL, _init?: RequestInit) => impl(String(input)));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const session: ApiSession = {
  accessToken: async () => 'token-1',
  refreshAccessToken: async () => 'token-2',
  onUnauthorized: () => undefined,
};

afterEach(() => {
  clearEarlyCalls();
  setApiSession(null);
  vi.unstubAllGlobals();
});

describe('early calls (sent by the entry, answered to the page)', () => {
  const profile: EarlyCall = { method: 'GET', url: '/api/users/get-by-nickname/ana' };

  it('answers the page from the call already sent: one request, not two', async () => {
    const fetchMock = stubFetch(async () => jsonResponse({ data: { nick: 'ana' } }));
    void sendEarlyCall(profile);
    await expect(apiGet('/users/get-by-nickname/ana')).resolves.toEqual({ nick: 'ana' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('hands an answer out once: the next call (a refetch) is sent fresh', async () => {
    let version = 0;
    const fetchMock = stubFetch(async () => jsonResponse({ data: { version: (version += 1) } }));
    void sendEarlyCall(profile);
    await expect(apiGet('/users/get-by-nickname/ana')).resolves.toEqual({ version: 1 });
    await expect(apiGet('/users/get-by-nickname/ana')).resolves.toEqual({ version: 2 });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('keeps the answer of an error: the page shows it as its own (a 404 profile)', async () => {
    stubFetch(async () =>
      jsonResponse({ error: { code: 'users.errors.not_found', message: 'no' } }, 404),
    );
    void sendEarlyCall(profile);
    await expect(apiGet('/users/get-by-nickname/ana')).rejects.toMatchObject({
      code: 'users.errors.not_found',
      status: 404,
    });
  });

  it('sends the call itself when the early one got no answer (offline at first)', async () => {
    let attempt = 0;
    const fetchMock = stubFetch(async () => {
      attempt += 1;
      if (attempt === 1) throw new TypeError('Failed to fetch');
      return jsonResponse({ data: { nick: 'ana' } });
    });
    void sendEarlyCall(profile);
    await expect(apiGet('/users/get-by-nickname/ana')).resolves.toEqual({ nick: 'ana' });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('matches a read sent as a POST by its body too', async () => {
    const fetchMock = stubFetch(async () => jsonResponse({ data: { items: [] } }));
    void sendEarlyCall({
      method: 'POST',
      url: '/api/users/-/token/getpublicproducts',
      body: { sourceUserNick: 'ana' },
    });
    await apiPost('/users/-/token/getpublicproducts', { sourceUserNick: 'bob' });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await apiPost('/users/-/token/getpublicproducts', { sourceUserNick: 'ana' });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('never answers a call that carries a session: a logged-in page asks with its token', async () => {
    const fetchMock = stubFetch(async () => jsonResponse({ data: { nick: 'ana' } }));
    void sendEarlyCall(profile);
    setApiSession(session);
    await apiGet('/users/get-by-nickname/ana');
    expect(fetchMock).toHaveBeenCalledTimes(2);
    const init = fetchMock.mock.calls[1]?.[1];
    expect(init?.headers).toMatchObject({ Authorization: 'Bearer token-1' });
  });

  it('drops an answer older than the limit (a tab left in the background)', async () => {
    stubFetch(async () => jsonResponse({ data: {} }));
    let now = 1_000;
    void sendEarlyCall(profile, () => now);
    now += EARLY_CALL_TTL_MS + 1;
    expect(takeEarlyAnswer(profile, () => now)).toBeUndefined();
    // And it is gone, not kept for later.
    expect(takeEarlyAnswer(profile, () => now - EARLY_CALL_TTL_MS)).toBeUndefined();
  });

  it('sends each call once however often the entry asks', () => {
    const fetchMock = stubFetch(async () => jsonResponse({ data: {} }));
    void sendEarlyCall(profile);
    void sendEarlyCall(profile);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
