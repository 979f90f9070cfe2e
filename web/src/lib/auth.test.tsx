import { waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { configFixture } from '../test/fixtures';
import { storeSignedInSession } from '../test/profileFixtures';
import { deferred, jsonResponse, mockApi, renderRoute } from '../test/utils';

const calledPaths = (fetchMock: ReturnType<typeof mockApi>) =>
  fetchMock.mock.calls.map(([input]) => new URL(String(input), 'http://localhost').pathname);

/** The API with /config answering only when the test says so, and an empty seller directory. */
function apiWithPendingConfig() {
  const config = deferred<Response>();
  const fetchMock = mockApi({
    '/api/config': () => config.promise,
    '/api/users/sellers': () => jsonResponse({ data: { items: [], nextCursor: null } }),
  });
  return { config, fetchMock };
}

describe("a page's first calls and the session", () => {
  it('a visitor with no stored session gets the page data without waiting for /config', async () => {
    const { config, fetchMock } = apiWithPendingConfig();
    renderRoute('/sellers');
    await waitFor(() => expect(calledPaths(fetchMock)).toContain('/api/users/sellers'));
    config.resolve(jsonResponse({ data: configFixture() }));
  });

  it('a browser holding a session sends nothing before /config and the session are known', async () => {
    storeSignedInSession();
    const { fetchMock } = apiWithPendingConfig();
    renderRoute('/sellers');
    await waitFor(() => expect(calledPaths(fetchMock)).toContain('/api/config'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(calledPaths(fetchMock)).not.toContain('/api/users/sellers');
  });
});
