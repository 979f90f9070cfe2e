import type { Address } from '@shared/schemas/addresses';
import type { PrivateProfile, PublicProfile } from '@shared/schemas/profiles';

/** Claims of the signed-in test user (Cognito username user-1, nick ana). */
export const signedInClaims = {
  'cognito:username': 'user-1',
  email: 'ana@example.com',
  nickname: 'ana',
};

/** What Amplify's fetchAuthSession answers while the test user is signed in. */
export const signedInSession = {
  tokens: {
    accessToken: { toString: () => 'access-token', payload: signedInClaims },
    idToken: { toString: () => 'id-token', payload: signedInClaims },
  },
};

/**
 * Puts the keys Amplify stores for a signed-in user of authFixture's client into localStorage, as
 * a login leaves them: the app restores a session (and loads Amplify) only when they are there
 * (lib/authClient.ts `hasStoredSession`). setup.ts clears localStorage after each test.
 */
export function storeSignedInSession(userId = 'user-1'): void {
  const prefix = 'CognitoIdentityServiceProvider.client';
  window.localStorage.setItem(`${prefix}.LastAuthUser`, userId);
  window.localStorage.setItem(`${prefix}.${userId}.accessToken`, 'access-token');
}

export function publicProfileFixture(overrides: Partial<PublicProfile> = {}): PublicProfile {
  return {
    id: 'user-1',
    nick: 'ana',
    user_option: 'individual',
    name: 'Ana',
    surname: 'García',
    entity_name: null,
    entity_address: null,
    title: 'Ceramicist',
    slogan: null,
    summary: 'Hand-thrown stoneware, made in small batches.',
    profile_image: null,
    profile_thumb: null,
    header_image: null,
    video_url: null,
    social_media: {},
    followers_counter: 3,
    is_verified: true,
    is_seller: false,
    created_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function ownProfileFixture(overrides: Partial<PrivateProfile> = {}): PrivateProfile {
  return {
    ...publicProfileFixture(),
    email: 'ana@example.com',
    phone: '+447700900123',
    onboarding_status: null,
    ...overrides,
  };
}

export function addressFixture(overrides: Partial<Address> = {}): Address {
  return {
    id: 'addr-1',
    country: 'ES',
    fullname: 'Ana García',
    line1: 'Calle Mayor 1',
    line2: null,
    postalcode: '28013',
    city: 'Madrid',
    stateprovince: 'Madrid',
    instructions: null,
    default: true,
    created_at: '2026-02-01T00:00:00.000Z',
    updated_at: '2026-02-01T00:00:00.000Z',
    ...overrides,
  };
}
