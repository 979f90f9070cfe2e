import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SavedCard } from '@shared/schemas/payments';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { configFixture, configWithAuthFixture } from '../../test/fixtures';
import {
  FakeSocket,
  savedCardFixture,
  ok,
  failure,
  PAYMENT_CALLS,
} from '../../test/paymentFixtures';
import {
  ownProfileFixture,
  signedInSession,
  storeSignedInSession,
} from '../../test/profileFixtures';
import { PHONE_WIDTH, setViewportWidth } from '../../test/viewport';
import { mockApi, renderRoute } from '../../test/utils';
import { externalNavigation } from './externalNavigation';

const amplify = vi.hoisted(() => ({
  signIn: vi.fn(),
  confirmSignIn: vi.fn(),
  fetchAuthSession: vi.fn(),
  signOut: vi.fn(),
}));
vi.mock('aws-amplify/auth', () => amplify);
vi.mock('aws-amplify', () => ({ Amplify: { configure: vi.fn() } }));

const PAGE = '/account/settings/paymentmethod';
const LIST = PAYMENT_CALLS.list;
const SETUP = PAYMENT_CALLS.setup;
const REMOVE = PAYMENT_CALLS.remove;
const DEFAULT = PAYMENT_CALLS.makeDefault;
const CHECKOUT_URL = 'https://checkout.stripe.test/c/pay/cs_test_1';

const visa = savedCardFixture();
const mastercard = savedCardFixture({
  id: 'pm_mc',
  brand: 'mastercard',
  funding: 'debit',
  last4: '4444',
  exp_month: 1,
  exp_year: 2024,
  created: '2025-01-05T10:00:00.000Z',
  default: false,
  expired: true,
});
const amex = savedCardFixture({
  id: 'pm_amex',
  brand: 'amex',
  funding: 'credit',
  last4: '0005',
  exp_month: 11,
  exp_year: 2030,
  created: '2026-02-01T10:00:00.000Z',
  default: false,
});

beforeEach(() => {
  for (const fn of Object.values(amplify)) fn.mockReset();
  storeSignedInSession();
  amplify.fetchAuthSession.mockResolvedValue(signedInSession);
  amplify.signOut.mockResolvedValue(undefined);
  FakeSocket.all = [];
  vi.stubGlobal('WebSocket', FakeSocket);
});

type Handlers = Parameters<typeof mockApi>[0];

function renderCards(
  cards: SavedCard[] | (() => Response | Promise<Response>),
  handlers: Handlers = {},
  switches: Parameters<typeof configFixture>[0] = {},
  path = PAGE,
) {
  const fetchMock = mockApi({
    '/api/config': () =>
      ok({
        ...configWithAuthFixture(),
        realtimeUrl: 'ws://localhost:3001',
        switches: configFixture(switches).switches,
      }),
    '/api/users/user-1/user-profile': () => ok(ownProfileFixture()),
    '/api/users/user-1/addresses': () => ok({ items: [] }),
    '/api/users/sellers': () => ok({ items: [], nextCursor: null }),
    [LIST]: typeof cards === 'function' ? cards : () => ok({ payment_methods: cards }),
    ...handlers,
  });
  return { fetchMock, ...renderRoute(path) };
}

function callsTo(fetchMock: ReturnType<typeof mockApi>, path: string) {
  return fetchMock.mock.calls.filter(
    ([input]) => new URL(String(input), 'http://localhost').pathname === path,
  );
}

async function cardList() {
  const section = await screen.findByRole('region', { name: 'Saved cards' });
  return { section, list: await within(section).findByRole('list') };
}

describe('/account/settings/paymentmethod', () => {
  it('lists the saved cards: brand, funding, last four, expiry, the date added, default and expired', async () => {
    renderCards([visa, amex, mastercard]);
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeTruthy();
    const { list } = await cardList();
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.getAttribute('aria-label'))).toEqual([
      'Visa •••• 4242',
      'American Express •••• 0005',
      'Mastercard •••• 4444',
    ]);

    const [first, second, third] = items as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(first).getByText('Default')).toBeTruthy();
    expect(within(first).getByText('Credit · Expires 04/31')).toBeTruthy();
    expect(within(first).getByText('Added 12/03/2026')).toBeTruthy();
    expect(within(first).queryByRole('button', { name: /Make default/ })).toBeNull();

    expect(within(second).queryByText('Default')).toBeNull();
    expect(
      within(second).getByRole('button', { name: 'Make default: American Express •••• 0005' }),
    );

    expect(within(third).getByText('Expired')).toBeTruthy();
    expect(within(third).getByText('Debit · Expired 01/24')).toBeTruthy();
    expect(within(third).queryByRole('button', { name: /Make default/ })).toBeNull();
    expect(within(third).getByRole('button', { name: 'Remove Mastercard •••• 4444' })).toBeTruthy();
    expect(document.title).toBe('Payment methods · MintMarket');
  });

  it('shows the empty state with a way to add a card', async () => {
    renderCards([]);
    const section = await screen.findByRole('region', { name: 'Saved cards' });
    expect(await within(section).findByText('No saved cards')).toBeTruthy();
    expect(within(section).getByRole('button', { name: 'Add a card' })).toBeTruthy();
    expect(within(section).queryByRole('list')).toBeNull();
  });

  it("shows a failed list with its code's text, and loads it again", async () => {
    let calls = 0;
    renderCards(() => {
      calls += 1;
      return calls === 1
        ? failure('payments.errors.provider', 503)
        : ok({ payment_methods: [visa] });
    });
    const section = await screen.findByRole('region', { name: 'Saved cards' });
    const alert = await within(section).findByRole('alert', {}, { timeout: 10_000 });
    expect(alert.textContent).toContain("We couldn't load your cards.");
    expect(alert.textContent).toContain('Stripe is not answering.');
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await within(section).findByRole('listitem', { name: 'Visa •••• 4242' })).toBeTruthy();
  });

  it("adds a card on Stripe's hosted form", async () => {
    const assign = vi.spyOn(externalNavigation, 'assign').mockImplementation(() => undefined);
    const bodies: unknown[] = [];
    renderCards([visa], {
      [SETUP]: (_url, init) => {
        bodies.push(JSON.parse(String(init?.body)));
        return ok({ session_id: 'cs_test_1', url: CHECKOUT_URL });
      },
    });
    const { section } = await cardList();
    await userEvent.click(within(section).getByRole('button', { name: 'Add a card' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(CHECKOUT_URL));
    expect(bodies).toEqual([{ type: 'card' }]);
    // On its way to Stripe: the button stays busy.
    expect(within(section).getByRole('button', { name: 'Opening Stripe…' })).toBeTruthy();
  });

  it("says why Stripe's form could not be opened", async () => {
    const assign = vi.spyOn(externalNavigation, 'assign').mockImplementation(() => undefined);
    renderCards([], { [SETUP]: () => failure('checkout.errors.setup_intent', 503) });
    const section = await screen.findByRole('region', { name: 'Saved cards' });
    await userEvent.click(await within(section).findByRole('button', { name: 'Add a card' }));
    expect(
      await within(section).findByText('Stripe is not answering. Please try again.'),
    ).toBeTruthy();
    expect(assign).not.toHaveBeenCalled();
    expect(within(section).getByRole('button', { name: 'Add a card' })).toBeTruthy();
  });

  it('makes a card the default', async () => {
    const bodies: unknown[] = [];
    renderCards([visa, amex], {
      [DEFAULT]: (_url, init) => {
        bodies.push(JSON.parse(String(init?.body)));
        return ok({
          payment_methods: [
            { ...visa, default: false },
            { ...amex, default: true },
          ],
        });
      },
    });
    const { list } = await cardList();
    await userEvent.click(
      within(list).getByRole('button', { name: 'Make default: American Express •••• 0005' }),
    );
    const amexItem = within(list).getByRole('listitem', { name: 'American Express •••• 0005' });
    expect(await within(amexItem).findByText('Default')).toBeTruthy();
    const visaItem = within(list).getByRole('listitem', { name: 'Visa •••• 4242' });
    expect(within(visaItem).queryByText('Default')).toBeNull();
    expect(bodies).toEqual([{ payment_method: 'pm_amex' }]);
    expect(
      await screen.findByText('American Express •••• 0005 is now your default card.'),
    ).toBeTruthy();
  });

  it('removes a card after a confirmation, and keeps it when cancelled', async () => {
    const bodies: unknown[] = [];
    renderCards([visa, amex], {
      [REMOVE]: (_url, init) => {
        bodies.push(JSON.parse(String(init?.body)));
        return ok({ payment_methods: [{ ...amex, default: true }] });
      },
    });
    const { list } = await cardList();
    await userEvent.click(within(list).getByRole('button', { name: 'Remove Visa •••• 4242' }));
    let dialog = await screen.findByRole('dialog', { name: 'Remove this card?' });
    expect(
      within(dialog).getByText(
        'Visa •••• 4242 is your default card. Your newest other card becomes the default.',
      ),
    ).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bodies).toEqual([]);

    await userEvent.click(within(list).getByRole('button', { name: 'Remove Visa •••• 4242' }));
    dialog = await screen.findByRole('dialog', { name: 'Remove this card?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() =>
      expect(within(list).queryByRole('listitem', { name: 'Visa •••• 4242' })).toBeNull(),
    );
    expect(bodies).toEqual([{ payment_method: 'pm_visa' }]);
    const amexItem = within(list).getByRole('listitem', { name: 'American Express •••• 0005' });
    expect(within(amexItem).getByText('Default')).toBeTruthy();
    expect(await screen.findByText('Visa •••• 4242 removed.')).toBeTruthy();
  });

  it('keeps the confirmation open with the error when removing fails', async () => {
    renderCards([visa], { [REMOVE]: () => failure('payments.errors.card_not_found', 404) });
    const { list } = await cardList();
    await userEvent.click(within(list).getByRole('button', { name: 'Remove Visa •••• 4242' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove this card?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await within(dialog).findByText('This card is not saved in your account.')).toBeTruthy();
  });

  it('refetches the cards when the live channel says they changed', async () => {
    let cards = [visa];
    renderCards(() => ok({ payment_methods: cards }));
    const { list } = await cardList();
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    await waitFor(() => expect(FakeSocket.all.length).toBeGreaterThan(0));
    cards = [amex, visa];
    act(() => FakeSocket.broadcast({ type: 'payments.cards_updated', id: 'm-1' }));
    expect(
      await within(list).findByRole('listitem', { name: 'American Express •••• 0005' }),
    ).toBeTruthy();
  });

  it('is a tab of the settings, next to General', async () => {
    const { router } = renderCards([visa]);
    const tabs = await screen.findByRole('navigation', { name: 'Settings sections' });
    const current = within(tabs).getByRole('tab', { name: 'Payment methods' });
    expect(current.getAttribute('aria-current')).toBe('page');
    await userEvent.click(within(tabs).getByRole('tab', { name: 'General' }));
    expect(await screen.findByRole('region', { name: 'Account' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/account/settings/general');
  });

  it('fits a phone: every card keeps its actions', async () => {
    setViewportWidth(PHONE_WIDTH);
    renderCards([visa, amex]);
    const { list } = await cardList();
    const amexItem = within(list).getByRole('listitem', { name: 'American Express •••• 0005' });
    expect(within(amexItem).getByRole('button', { name: /Make default/ })).toBeTruthy();
    expect(within(amexItem).getByRole('button', { name: /Remove/ })).toBeTruthy();
  });

  it('redirects to the general settings while fiat is off, and shows no tabs there', async () => {
    const { fetchMock, router } = renderCards([visa], {}, { fiat: false });
    expect(await screen.findByRole('region', { name: 'Account' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/account/settings/general');
    expect(screen.queryByRole('navigation', { name: 'Settings sections' })).toBeNull();
    expect(callsTo(fetchMock, LIST)).toHaveLength(0);
  });

  it('sends guests to /', async () => {
    amplify.fetchAuthSession.mockResolvedValue({ tokens: undefined });
    const { router } = renderCards([visa]);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'), { timeout: 3000 });
  });
});
