import { Amplify } from 'aws-amplify';
import { confirmSignIn, fetchAuthSession, signIn, signOut } from 'aws-amplify/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { twin, useTwinEnv } from '../../infra/local/test/twin-context';
import type { Address } from '../../shared/schemas/addresses';
import type { Session } from '../../shared/schemas/sessions';
import type { SellerPage } from '../../shared/schemas/profiles';
import { putSellers, sellerProfile } from '../profiles/testing/sellers';
import { call, hasCognito, lastPin, signUp } from './testing/session';

/**
 * The accounts journey as the web runs it, with the web's own auth client: sign-up through the
 * gateway, login with the real Amplify Auth v6 client against the twin's local Cognito endpoint
 * (CUSTOM_WITHOUT_SRP, the e-mail pin, then the phone pin, both read from the dev outbox), then
 * with Amplify's access token: the session, the profile edit, following a seller and adding an
 * address.
 */
const RUN = `j${Date.now().toString(36)}`;
let enabled = false;

beforeAll(() => {
  useTwinEnv();
  enabled = hasCognito();
  if (!enabled) return;
  const context = twin();
  Amplify.configure({
    Auth: {
      Cognito: {
        userPoolId: context.env.USER_POOL_ID ?? context.userPoolId,
        userPoolClientId: context.env.USER_POOL_CLIENT_ID ?? context.userPoolClientId,
        userPoolEndpoint: context.env.COGNITO_ENDPOINT ?? '',
      },
    },
  });
});

afterAll(async () => {
  if (enabled) await signOut().catch(() => undefined);
});

async function seller(): Promise<{ id: string; nick: string }> {
  const profile = { ...sellerProfile(`${RUN}seller`, 0, 'Journey'), is_verified: true };
  await putSellers(profile);
  return { id: profile.id, nick: profile.nick };
}

describe('the accounts journey with the real Amplify client', () => {
  it('sign-up → login (two pins) → edit profile → follow a seller → add an address', async (context) => {
    if (!enabled) context.skip();
    const followed = await seller();

    // Sign-up.
    const user = await signUp(RUN);

    // Login: Amplify asks for the e-mail pin, then the phone pin.
    const first = await signIn({
      username: user.email,
      options: { authFlowType: 'CUSTOM_WITHOUT_SRP' },
    });
    expect(first.nextStep.signInStep).toBe('CONFIRM_SIGN_IN_WITH_CUSTOM_CHALLENGE');
    const second = await confirmSignIn({ challengeResponse: await lastPin('email', user.email) });
    expect(second.nextStep.signInStep).toBe('CONFIRM_SIGN_IN_WITH_CUSTOM_CHALLENGE');
    const done = await confirmSignIn({ challengeResponse: await lastPin('sms', user.phone) });
    expect(done.isSignedIn).toBe(true);
    const session = await fetchAuthSession();
    const token = session.tokens?.accessToken.toString() ?? '';
    expect(session.tokens?.idToken?.payload.nickname).toBe(user.nick);

    const me = await call<Session>('GET', '/api/session', { token });
    expect(me.status).toBe(200);
    expect(me.json.data).toMatchObject({ userId: user.id, admin: false });

    // Edit profile: what the owner saves is what visitors read.
    const saved = await call('PUT', `/api/users/${user.id}`, {
      token,
      body: { title: 'Ceramist', summary: 'Bowls and cups, fired in small batches.' },
    });
    expect(saved.status).toBe(200);
    const publicProfile = await call<{ title: string; summary: string }>(
      'GET',
      `/api/users/get-by-nickname/${user.nick}`,
    );
    expect(publicProfile.json.data).toMatchObject({
      title: 'Ceramist',
      summary: 'Bowls and cups, fired in small batches.',
    });

    // Follow a seller: the edge and the directory's counter move together.
    expect(
      (await call('POST', '/api/rels/follow', { token, body: { uid: followed.id } })).status,
    ).toBe(200);
    const following = await call<{ following: boolean }>('POST', '/api/rels/check/is-following', {
      token,
      body: { followed: followed.id },
    });
    expect(following.json.data).toMatchObject({ following: true });
    // The directory (shared with other tests' sellers) shows the new count: walk it to the seller.
    let seen: SellerPage['items'][number] | undefined;
    let cursor: string | null = null;
    do {
      const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
      const page = await call<SellerPage>('GET', `/api/users/sellers?limit=50${query}`);
      expect(page.status).toBe(200);
      seen = page.json.data.items.find((item) => item.id === followed.id);
      cursor = page.json.data.nextCursor;
    } while (seen === undefined && cursor !== null);
    expect(seen).toMatchObject({ followers_counter: 1 });

    // Add an address: the first one is the default.
    const added = await call<Address>('POST', `/api/users/${user.id}/addaddress`, {
      token,
      body: {
        address: {
          country: 'ES',
          fullname: 'Login Tester',
          line1: 'Calle Mayor 1',
          postalcode: '28013',
          city: 'Madrid',
          stateprovince: 'Madrid',
        },
      },
    });
    expect(added.status).toBe(201);
    const listed = await call<{ items: Address[] }>('GET', `/api/users/${user.id}/addresses`, {
      token,
    });
    expect(listed.json.data.items).toEqual([
      expect.objectContaining({ line1: 'Calle Mayor 1', default: true }),
    ]);
  });
});
