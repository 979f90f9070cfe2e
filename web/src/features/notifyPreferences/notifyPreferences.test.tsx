import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { NotificationPreferences } from '@shared/schemas/notifications';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { configWithAuthFixture } from '../../test/fixtures';
import { failure, ok } from '../../test/paymentFixtures';
import {
  ownProfileFixture,
  signedInSession,
  storeSignedInSession,
} from '../../test/profileFixtures';
import { deferred, mockApi, renderRoute } from '../../test/utils';

const amplify = vi.hoisted(() => ({
  signIn: vi.fn(),
  confirmSignIn: vi.fn(),
  fetchAuthSession: vi.fn(),
  signOut: vi.fn(),
}));
vi.mock('aws-amplify/auth', () => amplify);
vi.mock('aws-amplify', () => ({ Amplify: { configure: vi.fn() } }));

const PATH = '/account/settings/general';
const PREFERENCES = '/api/notifications/user-1/preferences';

beforeEach(() => {
  for (const fn of Object.values(amplify)) fn.mockReset();
  storeSignedInSession();
  amplify.fetchAuthSession.mockResolvedValue(signedInSession);
  amplify.signOut.mockResolvedValue(undefined);
});

const stored = (
  email: Partial<NotificationPreferences['email']> = {},
): NotificationPreferences => ({
  email: { orders: true, auctions: false, offerings: true, followed: false, ...email },
});

type Handler = Parameters<typeof mockApi>[0][string];

/** The signed-in settings page; the preferences call answers with `preferences`. */
function renderSettings(preferences: Handler, extra: Parameters<typeof mockApi>[0] = {}) {
  const fetchMock = mockApi({
    '/api/config': () => ok(configWithAuthFixture()),
    '/api/users/user-1/user-profile': () => ok(ownProfileFixture()),
    '/api/users/user-1/addresses': () => ok({ items: [] }),
    [PREFERENCES]: preferences,
    ...extra,
  });
  return { fetchMock, ...renderRoute(PATH) };
}

const section = () => screen.findByRole('region', { name: 'Notifications' });
const toggle = (name: string) => screen.findByRole('switch', { name });
const puts = (fetchMock: ReturnType<typeof mockApi>) =>
  fetchMock.mock.calls.filter(
    ([input, init]) => String(input).endsWith(PREFERENCES) && init?.method === 'PUT',
  );

describe('notification preferences on /account/settings/general', () => {
  it('shows a skeleton, then one labelled switch per e-mail group with the stored values', async () => {
    const answer = deferred<Response>();
    renderSettings(() => answer.promise);
    const region = await section();
    expect(within(region).getByText(/In-app notifications are always on/)).toBeTruthy();
    expect(
      await within(region).findByRole('status', {
        name: 'Loading your notification preferences',
      }),
    ).toBeTruthy();
    answer.resolve(ok(stored()));

    const orders = await toggle('Orders and payments');
    expect((orders as HTMLInputElement).checked).toBe(true);
    expect(orders.getAttribute('aria-describedby')).toBeTruthy();
    expect(screen.getByText('An order paid, a payment due, a payout sent.').id).toBe(
      orders.getAttribute('aria-describedby'),
    );
    expect((screen.getByRole('switch', { name: 'Auctions' }) as HTMLInputElement).checked).toBe(
      false,
    );
    expect((screen.getByRole('switch', { name: 'Offerings' }) as HTMLInputElement).checked).toBe(
      true,
    );
    expect(
      (screen.getByRole('switch', { name: 'Sellers you follow' }) as HTMLInputElement).checked,
    ).toBe(false);
    expect(within(region).getByRole('list', { name: 'E-mail me about' })).toBeTruthy();
  });

  it('saves a switch at once with only its group, disabled while saving', async () => {
    const saved = deferred<Response>();
    const { fetchMock } = renderSettings((_url, init) =>
      init?.method === 'PUT' ? saved.promise : ok(stored()),
    );
    const auctions = (await toggle('Auctions')) as HTMLInputElement;
    expect(auctions.checked).toBe(false);
    await userEvent.click(auctions);

    // Moved at once, and held until the answer.
    await waitFor(() => expect(auctions.checked).toBe(true));
    expect(auctions.disabled).toBe(true);
    expect((screen.getByRole('switch', { name: 'Offerings' }) as HTMLInputElement).disabled).toBe(
      false,
    );
    const calls = puts(fetchMock);
    expect(calls).toHaveLength(1);
    expect(JSON.parse(String(calls[0]?.[1]?.body))).toEqual({ email: { auctions: true } });

    saved.resolve(ok(stored({ auctions: true })));
    await waitFor(() => expect(auctions.disabled).toBe(false));
    expect(auctions.checked).toBe(true);
    expect(screen.queryByText(/was not saved/)).toBeNull();
  });

  it('turns a group off with only that group, keeping the others', async () => {
    const { fetchMock } = renderSettings((_url, init) =>
      init?.method === 'PUT' ? ok(stored({ orders: false })) : ok(stored()),
    );
    const orders = (await toggle('Orders and payments')) as HTMLInputElement;
    await userEvent.click(orders);
    await waitFor(() => expect(orders.disabled).toBe(false));
    expect(orders.checked).toBe(false);
    expect(JSON.parse(String(puts(fetchMock)[0]?.[1]?.body))).toEqual({
      email: { orders: false },
    });
    expect((screen.getByRole('switch', { name: 'Offerings' }) as HTMLInputElement).checked).toBe(
      true,
    );
  });

  it('keeps a second switch still saving when the first answer comes back', async () => {
    const answers = [deferred<Response>(), deferred<Response>()];
    let put = 0;
    renderSettings((_url, init) =>
      init?.method === 'PUT' ? (answers[put++] as (typeof answers)[0]).promise : ok(stored()),
    );
    const auctions = (await toggle('Auctions')) as HTMLInputElement;
    const followed = screen.getByRole('switch', { name: 'Sellers you follow' }) as HTMLInputElement;
    await userEvent.click(auctions);
    await userEvent.click(followed);
    await waitFor(() => expect(followed.checked).toBe(true));

    // The first answer was written before the second change reached the server.
    answers[0]?.resolve(ok(stored({ auctions: true })));
    await waitFor(() => expect(auctions.disabled).toBe(false));
    expect(auctions.checked).toBe(true);
    expect(followed.checked).toBe(true);

    answers[1]?.resolve(ok(stored({ auctions: true, followed: true })));
    await waitFor(() => expect(followed.disabled).toBe(false));
    expect(followed.checked).toBe(true);
    expect(auctions.checked).toBe(true);
  });

  it('moves the switch back and says so when saving fails', async () => {
    const refused = deferred<Response>();
    renderSettings((_url, init) => (init?.method === 'PUT' ? refused.promise : ok(stored())));
    const followed = (await toggle('Sellers you follow')) as HTMLInputElement;
    await userEvent.click(followed);
    await waitFor(() => expect(followed.checked).toBe(true));

    refused.resolve(failure('unavailable', 503));
    await waitFor(() => expect(followed.checked).toBe(false));
    expect(followed.disabled).toBe(false);
    expect(
      await screen.findByText(/Your choice for “Sellers you follow” was not saved\./),
    ).toBeTruthy();
  });

  it('rolls back on a network failure too', async () => {
    renderSettings((_url, init) => {
      if (init?.method === 'PUT') throw new TypeError('Failed to fetch');
      return ok(stored());
    });
    const offerings = (await toggle('Offerings')) as HTMLInputElement;
    await userEvent.click(offerings);
    expect(
      await screen.findByText(
        "Your choice for “Offerings” was not saved. Can't connect with the network",
      ),
    ).toBeTruthy();
    expect(offerings.checked).toBe(true);
  });

  it('shows an error with a retry when the preferences cannot be loaded', async () => {
    let fail = true;
    renderSettings(() => (fail ? failure('unexpected', 500) : ok(stored({ followed: true }))));
    const region = await section();
    expect(
      await within(region).findByText("We couldn't load your notification preferences."),
    ).toBeTruthy();
    expect(within(region).queryByRole('switch')).toBeNull();

    fail = false;
    await userEvent.click(within(region).getByRole('button', { name: 'Try again' }));
    const followed = (await toggle('Sellers you follow')) as HTMLInputElement;
    expect(followed.checked).toBe(true);
    expect(
      within(region).queryByText("We couldn't load your notification preferences."),
    ).toBeNull();
  });
});
