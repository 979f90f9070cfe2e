import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockApi, renderRoute } from '../test/utils';
import { statusFromSearch } from './ErrorPage';

describe('error page', () => {
  it('shows page not found for an unknown route, with a way home', async () => {
    mockApi({});
    const { router } = renderRoute('/no/such/page');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
    expect(screen.getByText('This page could not be found')).toBeTruthy();
    expect(document.title).toBe('Page not found · MintMarket');
    await userEvent.click(screen.getByRole('link', { name: 'Back to home' }));
    expect(router.state.location.pathname).toBe('/');
  });

  it('shows page not found for /error?status=404', async () => {
    mockApi({});
    renderRoute('/error?status=404');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
  });

  it('shows the generic error for other statuses and by default', async () => {
    mockApi({});
    renderRoute('/error?status=500');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Something went wrong' }),
    ).toBeTruthy();
    expect(screen.queryByText('This page could not be found')).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to home' })).toBeTruthy();
  });

  it('reads the status of /error, defaulting to 500', () => {
    expect(statusFromSearch('404')).toBe(404);
    expect(statusFromSearch('503')).toBe(503);
    expect(statusFromSearch(null)).toBe(500);
    expect(statusFromSearch('abc')).toBe(500);
    expect(statusFromSearch('200')).toBe(500);
  });
});
