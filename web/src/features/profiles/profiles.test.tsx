import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { configWithAuthFixture, sellerFixture } from '../../test/fixtures';
import { deferred, jsonResponse, mockApi, renderRoute } from '../../test/utils';
import type { PublicProfile } from './schemas';
import { toEmbedUrl } from './schemas';
import { storeSignedInSession } from '../../test/profileFixtures';

const amplify = vi.hoisted(() => ({
  signIn: vi.fn(),
  confirmSignIn: vi.fn(),
  fetchAuthSession: vi.fn(),
  signOut: vi.fn(),
}));
vi.mock('aws-amplify/auth', () => amplify);
vi.mock('aws-amplify', () => ({ Amplify: { configure: vi.fn() } }));

const configWithAuth = () => jsonResponse({ data: configWithAuthFixture() });
const claims = { 'cognito:username': 'user-1', email: 'ana@example.com', nickname: 'ana' };
const signedIn = {
  tokens: {
    accessToken: { toString: () => 'access-token', payload: claims },
    idToken: { toString: () => 'id-token', payload: claims },
  },
};

beforeEach(() => {
  for (const fn of Object.values(amplify)) fn.mockReset();
  // Amplify holds tokens in this browser; each test's fetchAuthSession says whether they are valid.
  storeSignedInSession();
  amplify.fetchAuthSession.mockResolvedValue({ tokens: undefined });
  amplify.signOut.mockResolvedValue(undefined);
});

function companyProfile(overrides: Partial<PublicProfile> = {}): PublicProfile {
  return {
    id: 'seller-1',
    nick: 'lumen',
    user_option: 'company',
    name: 'Lumen Records',
    surname: null,
    entity_name: 'Lumen Records',
    entity_address: 'Calle Mayor 1, Madrid',
    title: null,
    slogan: 'Vinyl pressed with care',
    summary: 'An independent label releasing numbered vinyl editions.',
    profile_image: '/media/avatars/lumen-400.png',
    profile_thumb: '/media/avatars/lumen-96.png',
    header_image: '/media/covers/lumen.png',
    video_url: 'https://www.youtube.com/embed/dQw4w9WgXcQ',
    social_media: { instagram: 'https://www.instagram.com/lumen' },
    followers_counter: 1_250,
    is_verified: true,
    is_seller: true,
    created_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

function individualProfile(overrides: Partial<PublicProfile> = {}): PublicProfile {
  return companyProfile({
    id: 'user-1',
    nick: 'ana',
    user_option: 'individual',
    name: 'Ana',
    surname: 'García',
    entity_name: null,
    entity_address: null,
    title: 'Ceramicist',
    slogan: null,
    summary: null,
    header_image: null,
    video_url: null,
    social_media: {},
    followers_counter: 3,
    is_verified: false,
    ...overrides,
  });
}

const ok = (data: unknown) => jsonResponse({ data });
const byNick = (profile: PublicProfile) => ({
  [`/api/users/get-by-nickname/${profile.nick}`]: () => ok(profile),
});

describe('public profile /:usernick', () => {
  it('shows a skeleton, then a company profile with cover, crown, slogan, counters and video', async () => {
    const answer = deferred<Response>();
    mockApi({ '/api/users/get-by-nickname/lumen': () => answer.promise });
    renderRoute('/lumen');
    expect(await screen.findByRole('status', { name: 'Loading profile' })).toBeTruthy();
    answer.resolve(ok(companyProfile()));

    expect(await screen.findByRole('heading', { level: 1, name: 'Lumen Records' })).toBeTruthy();
    expect(screen.getByText('@lumen')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Verified' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Cover image of Lumen Records' })).toBeTruthy();
    expect(screen.getByText('Vinyl pressed with care')).toBeTruthy();
    expect(screen.getByText('Calle Mayor 1, Madrid')).toBeTruthy();
    expect(screen.getByText('1,2K')).toBeTruthy();
    expect(screen.getByText('followers')).toBeTruthy();
    expect(screen.getByText(/independent label releasing/)).toBeTruthy();
    const video = screen.getByTitle('Video of Lumen Records');
    expect(video.tagName).toBe('IFRAME');
    expect(video.getAttribute('src')).toBe('https://www.youtube.com/embed/dQw4w9WgXcQ');
    const social = screen.getByRole('list', { name: 'Social links' });
    expect(
      within(social).getByRole('link', { name: 'Instagram profile' }).getAttribute('href'),
    ).toBe('https://www.instagram.com/lumen');

    await waitFor(() => expect(document.title).toBe('Lumen Records (@lumen) · MintMarket'));
    const og = document.head.querySelector('meta[property="og:image"]');
    expect(og?.getAttribute('content')).toBe('http://localhost:3000/media/avatars/lumen-400.png');
    const description = document.head.querySelector('meta[name="description"]');
    expect(description?.getAttribute('content')).toContain('numbered vinyl');
  });

  it('shows an individual with name, surname and title, without a cover', async () => {
    mockApi(byNick(individualProfile()));
    renderRoute('/ana');
    expect(await screen.findByRole('heading', { level: 1, name: 'Ana García' })).toBeTruthy();
    expect(screen.getByText('Ceramicist')).toBeTruthy();
    expect(screen.queryByRole('img', { name: /Cover image/ })).toBeNull();
    expect(screen.queryByRole('img', { name: 'Verified' })).toBeNull();
    expect(screen.queryByTitle(/Video of/)).toBeNull();
    expect(screen.getByText('3')).toBeTruthy();
  });

  it('shows the 404 page for an unknown nick', async () => {
    mockApi({
      '/api/users/get-by-nickname/ghost': () =>
        jsonResponse(
          { error: { code: 'users.errors.not_found', message: 'Not found', requestId: 'r' } },
          404,
        ),
    });
    renderRoute('/ghost');
    expect(await screen.findByText('This page could not be found')).toBeTruthy();
  });

  it.each(['/messages', '/legal', '/Bad-Nick', '/ab'])(
    'keeps %s a 404 without looking up a profile',
    async (path) => {
      const fetchMock = mockApi({});
      renderRoute(path);
      expect(await screen.findByText('This page could not be found')).toBeTruthy();
      const calls = fetchMock.mock.calls.map(([url]) => String(url));
      expect(calls.some((url) => url.includes('get-by-nickname'))).toBe(false);
    },
  );

  it('shows an error with a retry that reloads the profile', async () => {
    let calls = 0;
    mockApi({
      '/api/users/get-by-nickname/lumen': () => {
        calls += 1;
        return calls <= 3
          ? jsonResponse({ error: { code: 'unavailable', message: 'down', requestId: 'r' } }, 503)
          : ok(companyProfile());
      },
    });
    renderRoute('/lumen');
    const alert = await screen.findByRole('alert', {}, { timeout: 8000 });
    expect(within(alert).getByText("We couldn't load this profile")).toBeTruthy();
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Lumen Records' })).toBeTruthy();
  });
});

describe('follow button', () => {
  it('opens the login modal for a guest', async () => {
    mockApi({ '/api/config': configWithAuth, ...byNick(companyProfile()) });
    renderRoute('/lumen');
    await userEvent.click(await screen.findByRole('button', { name: 'Follow' }));
    expect(await screen.findByRole('dialog', { name: 'Log in' })).toBeTruthy();
  });

  it('follows for a logged-in user and updates the counter', async () => {
    amplify.fetchAuthSession.mockResolvedValue(signedIn);
    const bodies: unknown[] = [];
    mockApi({
      '/api/config': configWithAuth,
      ...byNick(companyProfile()),
      '/api/rels/check/is-following': () => ok({ following: false }),
      '/api/rels/follow': (_url, init) => {
        bodies.push(JSON.parse(String(init?.body)));
        return ok({ following: true, followers_counter: 1_251 });
      },
    });
    renderRoute('/lumen');
    const button = await screen.findByRole('button', { name: 'Follow' });
    await waitFor(() => expect(button.getAttribute('aria-pressed')).toBe('false'));
    await userEvent.click(button);
    expect(await screen.findByRole('button', { name: 'Following' })).toBeTruthy();
    expect(bodies).toEqual([{ uid: 'seller-1' }]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('is hidden on your own profile, which offers Edit profile instead', async () => {
    amplify.fetchAuthSession.mockResolvedValue(signedIn);
    mockApi({
      '/api/config': configWithAuth,
      ...byNick(individualProfile()),
      '/api/users/user-1/user-profile': () =>
        ok({
          ...individualProfile(),
          email: 'ana@example.com',
          phone: '+447700900123',
          onboarding_status: null,
        }),
    });
    renderRoute('/ana');
    await screen.findByRole('heading', { level: 1, name: 'Ana García' });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit profile' }));
    expect(screen.queryByRole('button', { name: 'Follow' })).toBeNull();
    expect(await screen.findByRole('dialog', { name: 'Edit profile' })).toBeTruthy();
  });
});

/** Renders the signed-in app at `path`, with the own profile answering for the edit modal. */
function renderSignedIn(
  path: string,
  profile: PublicProfile,
  handlers: Parameters<typeof mockApi>[0] = {},
) {
  amplify.fetchAuthSession.mockResolvedValue(signedIn);
  const fetchMock = mockApi({
    '/api/config': configWithAuth,
    '/api/users/sellers': () => ok({ items: [], nextCursor: null }),
    '/api/users/user-1/user-profile': () =>
      ok({
        ...profile,
        email: 'ana@example.com',
        phone: '+447700900123',
        onboarding_status: null,
      }),
    ...handlers,
  });
  return { fetchMock, ...renderRoute(path) };
}

async function openEditFromMenu(nameField = 'Name') {
  await userEvent.click(await screen.findByRole('button', { name: 'Account menu' }));
  const menu = await screen.findByRole('menu');
  const profileItem = within(menu).getByRole('menuitem', { name: /^(My|Company) profile$/ });
  expect(profileItem.getAttribute('href')).toBe('/ana');
  await userEvent.click(within(menu).getByRole('menuitem', { name: 'Edit profile' }));
  const dialog = await screen.findByRole('dialog', { name: 'Edit profile' });
  await within(dialog).findByRole('textbox', { name: nameField });
  return dialog;
}

describe('edit profile modal', () => {
  it('shows the individual fields with counters and refuses an invalid form', async () => {
    const { fetchMock } = renderSignedIn('/legal/terms', individualProfile({ title: 'Potter' }));
    const dialog = await openEditFromMenu();
    expect(within(dialog).getByRole('textbox', { name: 'Surname' })).toBeTruthy();
    expect(within(dialog).queryByRole('textbox', { name: 'Slogan' })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Change cover' })).toBeNull();
    expect(within(dialog).getByText('6/25')).toBeTruthy();
    expect(within(dialog).getByText('0/500')).toBeTruthy();

    const title = within(dialog).getByRole('textbox', { name: 'Title' });
    await userEvent.clear(title);
    await userEvent.type(title, 'A very long title that overflows');
    expect(within(dialog).getByText('32/25')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save and close' }));
    expect(await within(dialog).findByText('Please check the highlighted fields.')).toBeTruthy();
    expect(within(dialog).getByText('This value is too large.')).toBeTruthy();
    const puts = fetchMock.mock.calls.filter(([, init]) => init?.method === 'PUT');
    expect(puts).toHaveLength(0);
  });

  it('shows the company fields with the slogan counter and the cover picker', async () => {
    renderSignedIn('/legal/terms', companyProfile({ id: 'user-1', nick: 'ana', slogan: 'Hello' }));
    const dialog = await openEditFromMenu('Company name');
    expect(within(dialog).getByRole('textbox', { name: 'Company address' })).toBeTruthy();
    expect(within(dialog).queryByRole('textbox', { name: 'Surname' })).toBeNull();
    expect(within(dialog).getByText('5/60')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Change cover' })).toBeTruthy();
  });

  it('uploads the avatar, confirms it, then saves the info, and closes', async () => {
    const order: string[] = [];
    let storageForm: FormData | null = null;
    let putBody: unknown = null;
    const { router } = renderSignedIn('/legal/terms', individualProfile(), {
      '/api/users/user-1/images/upload': (_url, init) => {
        order.push('upload');
        expect(JSON.parse(String(init?.body))).toEqual({
          kind: 'avatar',
          contentType: 'image/png',
          size: 5,
        });
        return ok({
          url: 'http://localhost/storage/bucket',
          fields: { key: 'avatars/user-1/tmp', Policy: 'p' },
          key: 'avatars/user-1/tmp',
        });
      },
      '/storage/bucket': (_url, init) => {
        order.push('storage');
        storageForm = init?.body as FormData;
        return new Response(null, { status: 204 });
      },
      '/api/users/user-1/images': (_url, init) => {
        order.push('confirm');
        expect(JSON.parse(String(init?.body))).toEqual({
          kind: 'avatar',
          key: 'avatars/user-1/tmp',
        });
        return ok(individualProfile({ profile_image: '/media/new.png' }));
      },
      '/api/users/user-1': (_url, init) => {
        order.push(init?.method ?? 'GET');
        putBody = JSON.parse(String(init?.body));
        return ok(individualProfile({ title: 'Sculptor' }));
      },
    });
    const dialog = await openEditFromMenu();
    const file = new File(['\x89PNG'], 'me.png', { type: 'image/png' });
    await userEvent.upload(within(dialog).getByLabelText('Change avatar'), file);
    const title = within(dialog).getByRole('textbox', { name: 'Title' });
    await userEvent.clear(title);
    await userEvent.type(title, 'Sculptor');
    await userEvent.type(
      within(dialog).getByRole('textbox', { name: 'Profile video link' }),
      'https://youtu.be/dQw4w9WgXcQ',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save and close' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(order).toEqual(['upload', 'storage', 'confirm', 'PUT']);
    const sent = storageForm as unknown as FormData;
    expect([...sent.keys()]).toEqual(['key', 'Policy', 'file']);
    expect(putBody).toEqual({
      name: 'Ana',
      surname: 'García',
      title: 'Sculptor',
      summary: '',
      video_url: 'https://www.youtube.com/embed/dQw4w9WgXcQ',
      social_media: {},
    });
    expect(await screen.findByText('Your profile has been saved.')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/legal/terms');
  });

  it('checks images before uploading them', async () => {
    const { fetchMock } = renderSignedIn('/legal/terms', individualProfile());
    const dialog = await openEditFromMenu();
    const big = new File(['x'], 'big.png', { type: 'image/png' });
    Object.defineProperty(big, 'size', { value: 9 * 1024 * 1024 });
    fireEvent.change(within(dialog).getByLabelText('Change avatar'), { target: { files: [big] } });
    expect(
      await within(dialog).findByText(
        'The image is too large (avatar up to 8 MB, cover up to 2 MB).',
      ),
    ).toBeTruthy();
    const gif = new File(['GIF8'], 'a.gif', { type: 'image/gif' });
    fireEvent.change(within(dialog).getByLabelText('Change avatar'), { target: { files: [gif] } });
    expect(
      await within(dialog).findByText('The image must be a PNG, JPEG or BMP file.'),
    ).toBeTruthy();
    const calls = fetchMock.mock.calls.map(([url]) => String(url));
    expect(calls.some((url) => url.includes('/images'))).toBe(false);
  });

  it('shows the API field errors under their fields, and the generic error otherwise', async () => {
    let answer = 0;
    renderSignedIn('/legal/terms', individualProfile(), {
      '/api/users/user-1': () => {
        answer += 1;
        return answer === 1
          ? jsonResponse(
              {
                error: {
                  code: 'invalid_request',
                  message: 'Invalid',
                  fields: { video_url: 'forms.validation.link' },
                  requestId: 'r',
                },
              },
              400,
            )
          : jsonResponse({ error: { code: 'unexpected', message: 'boom', requestId: 'r' } }, 500);
      },
    });
    const dialog = await openEditFromMenu();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save and close' }));
    expect(
      await within(dialog).findByText('Enter a YouTube or Vimeo video link, or leave it empty.'),
    ).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save and close' }));
    expect(
      await within(dialog).findByText('Your profile could not be saved. Please try again.'),
    ).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Edit profile' })).toBeTruthy();
  });

  it('opens the persistent first-login variant from loggedForFirstTime; Next saves and removes it', async () => {
    let saved = false;
    const { router } = renderSignedIn('/?loggedForFirstTime=true', individualProfile(), {
      '/api/users/user-1': () => {
        saved = true;
        return ok(individualProfile());
      },
    });
    const dialog = await screen.findByRole('dialog', { name: 'Complete your profile' });
    await within(dialog).findByRole('textbox', { name: 'Name' });
    expect(within(dialog).queryByRole('button', { name: 'Close' })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Back' })).toBeNull();
    await userEvent.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Complete your profile' })).toBeTruthy();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(saved).toBe(true);
    expect(router.state.location.pathname).toBe('/');
    expect(router.state.location.search).toBe('');
  });
});

describe('seller cards', () => {
  it('link to the seller profiles', async () => {
    mockApi({
      '/api/users/sellers': () => ok({ items: [sellerFixture()], nextCursor: null }),
      ...byNick(companyProfile()),
    });
    const { router } = renderRoute('/sellers');
    const link = await screen.findByRole('link', { name: 'Lumen Records' });
    expect(link.getAttribute('href')).toBe('/lumen');
    await userEvent.click(link);
    expect(router.state.location.pathname).toBe('/lumen');
    expect(await screen.findByRole('heading', { level: 1, name: 'Lumen Records' })).toBeTruthy();
  });
});

describe('video links', () => {
  it.each([
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
    ['https://youtu.be/dQw4w9WgXcQ', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
    ['https://vimeo.com/76979871', 'https://player.vimeo.com/video/76979871'],
    ['https://example.com/video', null],
    ['javascript:alert(1)', null],
  ])('%s → %s', (link, embed) => {
    expect(toEmbedUrl(link)).toBe(embed);
  });
});
