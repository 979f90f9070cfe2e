import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../test/utils';
import { callerId, fetchPublicProducts } from '../features/items/api/items';
import { fetchProfileByNick } from '../features/profiles/api/profiles';
import { fetchSellers } from '../features/sellers/api/sellers';
import { DIRECTORY_PAGE_SIZE, TOP_SELLERS_LIMIT } from '../features/sellers/sizes';
import { fetchConfig } from '../lib/config';
import { clearEarlyCalls, type EarlyCall } from '../lib/earlyCalls';
import { earlyStart, earlyStartFor } from './earlyStart';

/** The request a page's own call sends (its answer is not what this checks). */
async function requestOf(call: () => Promise<unknown>): Promise<EarlyCall> {
  const fetchMock = vi.fn(async () => jsonResponse({ error: { code: 'stop' } }, 500));
  vi.stubGlobal('fetch', fetchMock);
  await call().catch(() => undefined);
  const [url, init] = (fetchMock.mock.calls[0] ?? []) as unknown as [string, RequestInit];
  const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
  return {
    method: init.method as EarlyCall['method'],
    url,
    ...(body === undefined ? {} : { body }),
  };
}

afterEach(() => {
  clearEarlyCalls();
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

/*
 * An early call is only useful if it is exactly the call the page then makes: these compare each
 * one with the request the page's own API function sends.
 */
describe('the early start of each page', () => {
  it('every page: the configuration', async () => {
    for (const path of ['/', '/sellers', '/tidewater', '/account/wallet/mytokens']) {
      expect(earlyStartFor(path).calls).toEqual([await requestOf(() => fetchConfig())]);
    }
  });

  it('home: the top sellers strip', async () => {
    expect(earlyStartFor('/').guestCalls).toEqual([
      await requestOf(() => fetchSellers({ limit: TOP_SELLERS_LIMIT })),
    ]);
  });

  it('the seller directory: its first page', async () => {
    expect(earlyStartFor('/sellers').guestCalls).toEqual([
      await requestOf(() => fetchSellers({ limit: DIRECTORY_PAGE_SIZE })),
    ]);
  });

  it("a profile: the profile and a guest's first page of its items, and the page's chunks", async () => {
    const start = earlyStartFor('/tidewater');
    expect(start.guestCalls).toEqual([
      await requestOf(() => fetchProfileByNick('tidewater')),
      await requestOf(() => fetchPublicProducts(callerId(undefined), 'tidewater', null)),
    ]);
    expect(start.page).toBeTypeOf('function');
  });

  it('no profile calls for what is not a profile path', () => {
    for (const path of [
      '/account',
      '/market',
      '/ab',
      '/Tidewater',
      '/tidewater/x',
      '/session/login',
    ]) {
      const start = earlyStartFor(path);
      expect(start.guestCalls).toEqual([]);
      expect(start.page).toBeUndefined();
    }
  });

  it("sends a guest's calls, and only the anonymous ones for a browser holding a login", () => {
    const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) =>
      jsonResponse({ data: {} }),
    );
    vi.stubGlobal('fetch', fetchMock);
    earlyStart('/');
    expect(fetchMock.mock.calls.map((call) => String(call[0]))).toEqual([
      '/api/config',
      `/api/users/sellers?limit=${TOP_SELLERS_LIMIT}`,
    ]);
    clearEarlyCalls();
    fetchMock.mockClear();
    window.localStorage.setItem('CognitoIdentityServiceProvider.client.ana.accessToken', 'x');
    earlyStart('/');
    expect(fetchMock.mock.calls.map((call) => String(call[0]))).toEqual(['/api/config']);
  });
});
