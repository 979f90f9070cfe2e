import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockApi, renderRoute } from '../test/utils';
import { isRoomsPath } from './Root';

describe('routes', () => {
  it.each(['/rooms', '/rooms/42', '/market/rooms', '/chatrooms'])(
    'redirects %s to the home page',
    async (path) => {
      mockApi({
        '/api/users/sellers': () => jsonResponse({ data: { items: [], nextCursor: null } }),
      });
      const { router } = renderRoute(path);
      await waitFor(() => expect(router.state.location.pathname).toBe('/'));
      expect(await screen.findByRole('heading', { level: 1 })).toBeTruthy();
    },
  );

  it('recognises rooms paths', () => {
    expect(isRoomsPath('/rooms')).toBe(true);
    expect(isRoomsPath('/ROOMS/1')).toBe(true);
    expect(isRoomsPath('/sellers')).toBe(false);
  });

  it('renders the home page inside the default layout landmarks', async () => {
    mockApi({
      '/api/users/sellers': () => jsonResponse({ data: { items: [], nextCursor: null } }),
    });
    renderRoute('/');
    expect(await screen.findByRole('heading', { level: 1 })).toBeTruthy();
    expect(screen.getByRole('banner')).toBeTruthy();
    expect(screen.getByRole('main')).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Main navigation' })).toBeTruthy();
    expect(screen.getByRole('contentinfo')).toBeTruthy();
    expect(document.title).toContain('MintMarket');
  });

  it('serves the terms page with its sections', async () => {
    mockApi({});
    renderRoute('/legal/terms');
    expect(await screen.findByRole('heading', { level: 1, name: 'Legal Terms' })).toBeTruthy();
    expect(
      screen.getByRole('heading', { level: 2, name: '5. Prices, fees and payments' }),
    ).toBeTruthy();
    expect(screen.getByText(/A sale fee of 2% of the sale price/)).toBeTruthy();
    expect(document.title).toBe('Legal Terms · MintMarket');
  });

  it('sends routes of features not built yet to the 404 page', async () => {
    mockApi({});
    renderRoute('/messages');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
  });
});
