import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { configWithAuthFixture, sellerFixture } from '../../test/fixtures';
import {
  ownProfileFixture,
  publicProfileFixture,
  signedInSession,
  storeSignedInSession,
} from '../../test/profileFixtures';
import { jsonResponse, mockApi, renderRoute } from '../../test/utils';

const amplify = vi.hoisted(() => ({
  signIn: vi.fn(),
  confirmSignIn: vi.fn(),
  fetchAuthSession: vi.fn(),
  signOut: vi.fn(),
}));
vi.mock('aws-amplify/auth', () => amplify);
vi.mock('aws-amplify', () => ({ Amplify: { configure: vi.fn() } }));

const ok = (data: unknown) => jsonResponse({ data });

const lumen = publicProfileFixture({
  id: 'seller-1',
  nick: 'lumen',
  user_option: 'company',
  name: 'Lumen Records',
  surname: null,
  entity_name: 'Lumen Records',
  title: null,
  slogan: 'Vinyl pressed with care',
  summary: 'An independent label releasing numbered vinyl editions.',
  profile_image: '/media/avatars/lumen.png',
  followers_counter: 1_250,
  is_verified: true,
  is_seller: true,
});
const ana = publicProfileFixture({ is_seller: true });

beforeEach(() => {
  for (const fn of Object.values(amplify)) fn.mockReset();
  // Amplify holds tokens in this browser; each test's fetchAuthSession says whether they are valid.
  storeSignedInSession();
  amplify.fetchAuthSession.mockResolvedValue(signedInSession);
  amplify.signOut.mockResolvedValue(undefined);
});

function renderSellers() {
  return mockApi({
    '/api/config': () => ok(configWithAuthFixture()),
    '/api/users/sellers': () =>
      ok({
        items: [
          sellerFixture(),
          sellerFixture({
            id: 'user-1',
            nick: 'ana',
            name: 'Ana García',
            user_option: 'individual',
          }),
        ],
        nextCursor: null,
      }),
    '/api/users/get-by-nickname/lumen': () => ok(lumen),
    '/api/users/get-by-nickname/ana': () => ok(ana),
    '/api/users/user-1/user-profile': () => ok(ownProfileFixture()),
    '/api/rels/check/is-following': () => ok({ following: false }),
    '/api/rels/follow': () => ok({ following: true, followers_counter: 1_251 }),
  });
}

describe('user full card', () => {
  it("opens from a seller's avatar with the seller's details and a follow button", async () => {
    renderSellers();
    const { router } = renderRoute('/sellers');
    await userEvent.click(
      await screen.findByRole('button', { name: 'Open the card of Lumen Records' }),
    );
    const card = await screen.findByRole('dialog', { name: 'Profile of Lumen Records' });
    expect(
      within(card).getByRole('img', { name: 'Profile picture of Lumen Records' }),
    ).toBeTruthy();
    expect(within(card).getByRole('img', { name: 'Verified' })).toBeTruthy();
    expect(within(card).getByText('@lumen')).toBeTruthy();
    expect(within(card).getByText('Vinyl pressed with care')).toBeTruthy();
    expect(within(card).getByText('1,2K followers')).toBeTruthy();
    expect(within(card).getByText(/numbered vinyl editions/)).toBeTruthy();
    expect(within(card).queryByRole('button', { name: 'Edit profile' })).toBeNull();

    await userEvent.click(await within(card).findByRole('button', { name: 'Follow' }));
    expect(await within(card).findByRole('button', { name: 'Following' })).toBeTruthy();

    await userEvent.click(within(card).getByRole('link', { name: 'See Profile' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/lumen'));
    expect(screen.queryByRole('dialog', { name: 'Profile of Lumen Records' })).toBeNull();
  });

  it('shows no follow button on one’s own card, but the edit icon', async () => {
    renderSellers();
    renderRoute('/sellers');
    await userEvent.click(
      await screen.findByRole('button', { name: 'Open the card of Ana García' }),
    );
    const card = await screen.findByRole('dialog', { name: 'Profile of Ana García' });
    expect(within(card).getByText('Ceramicist')).toBeTruthy();
    expect(within(card).queryByRole('button', { name: /Follow/ })).toBeNull();
    await userEvent.click(within(card).getByRole('button', { name: 'Edit profile' }));
    expect(await screen.findByRole('dialog', { name: 'Edit profile' })).toBeTruthy();
  });

  it('closes with the close button and with Escape', async () => {
    renderSellers();
    renderRoute('/sellers');
    const open = await screen.findByRole('button', { name: 'Open the card of Lumen Records' });
    await userEvent.click(open);
    let card = await screen.findByRole('dialog', { name: 'Profile of Lumen Records' });
    await userEvent.click(within(card).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await userEvent.click(open);
    card = await screen.findByRole('dialog', { name: 'Profile of Lumen Records' });
    expect(card).toBeTruthy();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
