import { screen, waitFor, within } from '@testing-library/react';
import type { ProductType } from '@shared/switches';
import { describe, expect, it } from 'vitest';
import { configFixture } from '../../test/fixtures';
import { jsonResponse, mockApi, renderRoute } from '../../test/utils';

/** The home page describes this deployment: only the item types `mintableTypes` allows. */
function renderHome(mintableTypes: ProductType[]) {
  mockApi({
    '/api/config': () => jsonResponse({ data: configFixture({ mintableTypes }) }),
    '/api/users/sellers': () => jsonResponse({ data: { items: [], nextCursor: null } }),
  });
  return renderRoute('/');
}

const categoryTitles = () =>
  within(screen.getByRole('region', { name: 'What you can find' }))
    .getAllByRole('heading', { level: 3 })
    .map((heading) => heading.textContent);
const featureTitles = () =>
  within(screen.getByRole('region', { name: 'Built for trust' }))
    .getAllByRole('heading', { level: 3 })
    .map((heading) => heading.textContent);

describe('home page', () => {
  it('advertises only physical products where only they can be created', async () => {
    renderHome(['physical']);
    await waitFor(() => expect(categoryTitles()).toEqual(['Physical products']));
    const main = screen.getByRole('main');
    for (const absent of [/ticket/i, /digital/i, /services/i, /royalt/i, /QR code/i]) {
      expect(within(main).queryAllByText(absent)).toEqual([]);
    }
    expect(featureTitles()).toEqual(['Every copy is numbered', 'Secure card payments']);
    expect(screen.getByText(/^Discover physical goods from independent sellers\./)).toBeTruthy();
    expect(
      screen.getByText('Every item is a numbered edition, bought the same simple way.'),
    ).toBeTruthy();
    const description = document.head.querySelector('meta[name="description"]');
    expect(description?.getAttribute('content')).toMatch(/^Discover physical goods from/);
  });

  it.each<[ProductType[]]>([[['physical']], [['service']], [['physical', 'digital', 'ticket']]])(
    "numbers the hero's example copies within their edition (%j)",
    async (types) => {
      renderHome(types);
      await waitFor(() => expect(screen.getAllByText(/^No\. \d+ of \d+$/)).toHaveLength(3));
      for (const label of screen.getAllByText(/^No\. \d+ of \d+$/)) {
        const [, number, total] = /^No\. (\d+) of (\d+)$/.exec(label.textContent ?? '') ?? [];
        expect(Number(number)).toBeGreaterThanOrEqual(1);
        expect(Number(number)).toBeLessThanOrEqual(Number(total));
      }
    },
  );

  it('advertises every type the switch allows, with what each brings', async () => {
    renderHome(['physical', 'digital', 'ticket', 'service']);
    await waitFor(() =>
      expect(categoryTitles()).toEqual([
        'Physical products',
        'Digital products',
        'Tickets',
        'Services',
      ]),
    );
    expect(screen.getByText('4 kinds of items, one simple way to buy them.')).toBeTruthy();
    expect(featureTitles()).toEqual([
      'Every copy is numbered',
      'Secure card payments',
      'Tickets with QR codes',
      'Royalties on resale',
    ]);
    expect(
      screen.getByText(
        /^Discover physical goods, digital creations, event tickets and services from/,
      ),
    ).toBeTruthy();
    expect(screen.getByText(/Show your ticket's QR code at the event\.$/)).toBeTruthy();
    expect(screen.getByText(/Earn royalties when your copies are resold\.$/)).toBeTruthy();
  });
});
