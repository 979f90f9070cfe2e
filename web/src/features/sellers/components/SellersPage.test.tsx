import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { configFixture, sellerFixture } from '../../../test/fixtures';
import { deferred, jsonResponse, mockApi, renderRoute } from '../../../test/utils';

const page = (items: unknown[], nextCursor: string | null = null) =>
  jsonResponse({ data: { items, nextCursor } });

describe('/sellers', () => {
  it('shows a loading skeleton until the sellers arrive', async () => {
    const answer = deferred<Response>();
    mockApi({ '/api/users/sellers': () => answer.promise });
    renderRoute('/sellers');
    expect(await screen.findByRole('status', { name: 'Loading sellers' })).toBeTruthy();
    answer.resolve(page([sellerFixture()]));
    expect(await screen.findByRole('heading', { level: 3, name: 'Lumen Records' })).toBeTruthy();
    expect(screen.queryByRole('status', { name: 'Loading sellers' })).toBeNull();
  });

  it('lists avatar, name, @nick and abbreviated follower counts in API order', async () => {
    const fetchMock = mockApi({
      '/api/users/sellers': () =>
        page([
          sellerFixture({
            id: 'a',
            name: 'Lumen Records',
            nick: 'lumen',
            followers_counter: 1_250_000,
          }),
          sellerFixture({
            id: 'b',
            name: 'Sofia Marín',
            nick: 'sofia',
            followers_counter: 12_480,
            user_option: 'individual',
            is_verified: false,
            profile_image: null,
          }),
          sellerFixture({ id: 'c', name: 'Kai Tanaka', nick: 'kai', followers_counter: 999 }),
          sellerFixture({ id: 'd', name: 'Amara Diallo', nick: 'amara', followers_counter: 1 }),
          sellerFixture({
            id: 'e',
            name: 'Big Venue',
            nick: 'venue',
            followers_counter: 2_300_000_000,
          }),
        ]),
    });
    renderRoute('/sellers');
    const list = await screen.findByRole('list', { name: 'Sellers' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => within(item).getByRole('heading').textContent)).toEqual([
      'Lumen Records',
      'Sofia Marín',
      'Kai Tanaka',
      'Amara Diallo',
      'Big Venue',
    ]);
    const [first, second, third, fourth, fifth] = items.map((item) => within(item));
    if (!first || !second || !third || !fourth || !fifth) throw new Error('five sellers expected');
    expect(first.getByText('@lumen')).toBeTruthy();
    expect(first.getByText('1,2M followers')).toBeTruthy();
    expect(first.getByRole('img', { name: 'Profile picture of Lumen Records' })).toBeTruthy();
    // The shared verified mark: the crown, named by its tooltip text.
    expect(first.getByRole('img', { name: 'Verified' })).toBeTruthy();
    expect(second.queryByRole('img', { name: 'Verified' })).toBeNull();
    expect(second.getByText('12,4K followers')).toBeTruthy();
    expect(second.getByText('SM')).toBeTruthy(); // initials without a picture
    expect(third.getByText('999 followers')).toBeTruthy();
    expect(fourth.getByText('1 follower')).toBeTruthy();
    expect(fifth.getByText('2,3B followers')).toBeTruthy();
    expect(String(fetchMock.mock.calls.find(([url]) => String(url).includes('sellers'))?.[0])).toBe(
      '/api/users/sellers?limit=50',
    );
    expect(document.title).toBe('Sellers · MintMarket');
    const description = document.head.querySelector('meta[name="description"]');
    expect(description?.getAttribute('content')?.length).toBeLessThanOrEqual(150);
  });

  it('hides follower counts when follows are switched off', async () => {
    mockApi({
      '/api/config': () => jsonResponse({ data: configFixture({ follows: false }) }),
      '/api/users/sellers': () => page([sellerFixture()]),
    });
    renderRoute('/sellers');
    await screen.findByRole('heading', { level: 3, name: 'Lumen Records' });
    await waitFor(() => expect(screen.queryByText(/followers?$/)).toBeNull());
  });

  it('shows an empty state when there are no sellers', async () => {
    mockApi({ '/api/users/sellers': () => page([]) });
    renderRoute('/sellers');
    expect(await screen.findByRole('heading', { name: 'No sellers yet' })).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Sellers' })).toBeNull();
  });

  it('shows an error state with a retry that reloads the list', async () => {
    let calls = 0;
    mockApi({
      '/api/users/sellers': () => {
        calls += 1;
        return calls === 1
          ? jsonResponse({ error: { code: 'unavailable', message: 'down', requestId: 'r1' } }, 503)
          : page([sellerFixture()]);
      },
    });
    renderRoute('/sellers');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText("We couldn't load the sellers")).toBeTruthy();
    expect(
      within(alert).getByText('The service is temporarily unavailable. Please try again shortly.'),
    ).toBeTruthy();
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 3, name: 'Lumen Records' })).toBeTruthy();
    expect(calls).toBe(2);
  });

  it("shows the network text when the API can't be reached", async () => {
    mockApi({
      '/api/users/sellers': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    renderRoute('/sellers');
    expect(await screen.findByText("Can't connect with the network")).toBeTruthy();
  });

  it('loads the next page with the cursor and appends it', async () => {
    const fetchMock = mockApi({
      '/api/users/sellers': (url) =>
        url.searchParams.get('cursor') === 'page-2'
          ? page([sellerFixture({ id: 'b', name: 'Second Page Seller', nick: 'second' })])
          : page([sellerFixture({ id: 'a' })], 'page-2'),
    });
    renderRoute('/sellers');
    await screen.findByRole('heading', { level: 3, name: 'Lumen Records' });
    await userEvent.click(screen.getByRole('button', { name: 'Load more sellers' }));
    expect(
      await screen.findByRole('heading', { level: 3, name: 'Second Page Seller' }),
    ).toBeTruthy();
    const list = screen.getByRole('list', { name: 'Sellers' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Load more sellers' })).toBeNull();
    expect(screen.getByText("You've seen all sellers.")).toBeTruthy();
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toContain(
      '/api/users/sellers?limit=50&cursor=page-2',
    );
  });

  it('keeps the list and offers a retry when the next page fails', async () => {
    let failNext = true;
    mockApi({
      '/api/users/sellers': (url) => {
        if (!url.searchParams.get('cursor')) return page([sellerFixture()], 'page-2');
        if (failNext) {
          failNext = false;
          return new Response('Bad gateway', { status: 502 });
        }
        return page([sellerFixture({ id: 'b', name: 'Late Seller', nick: 'late' })]);
      },
    });
    renderRoute('/sellers');
    await screen.findByRole('heading', { level: 3, name: 'Lumen Records' });
    await userEvent.click(screen.getByRole('button', { name: 'Load more sellers' }));
    expect(await screen.findByText(/We couldn't load more sellers\./)).toBeTruthy();
    expect(screen.getByRole('heading', { level: 3, name: 'Lumen Records' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 3, name: 'Late Seller' })).toBeTruthy();
  });
});

describe('home page top sellers', () => {
  it('shows the first sellers and links to the directory', async () => {
    const fetchMock = mockApi({ '/api/users/sellers': () => page([sellerFixture()]) });
    const { router } = renderRoute('/');
    const strip = await screen.findByRole('list', { name: 'Top sellers' });
    expect(within(strip).getByText('1,2K followers')).toBeTruthy();
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toContain(
      '/api/users/sellers?limit=8',
    );
    await userEvent.click(screen.getByRole('link', { name: 'See all sellers' }));
    expect(router.state.location.pathname).toBe('/sellers');
  });

  it('keeps the home page usable when the sellers cannot be loaded', async () => {
    mockApi({ '/api/users/sellers': () => new Response('', { status: 500 }) });
    renderRoute('/');
    expect(await screen.findByText("We couldn't load the top sellers.")).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 })).toBeTruthy();
  });
});
