import type { AuthState, SessionUser } from '../lib/auth';
import type { SellerSummary } from '@shared/schemas/profiles';
import type { PublicConfig } from '@shared/schemas/system';
import { DEFAULT_SWITCHES } from '@shared/switches';

export function configFixture(switches: Partial<PublicConfig['switches']> = {}): PublicConfig {
  return {
    stage: 'test',
    switches: { ...DEFAULT_SWITCHES, mintableTypes: ['physical'], ...switches },
    imagesBaseUrl: '/media',
    realtimeUrl: null,
    auth: null,
    currencies: [{ iso: 'USD', symbol: '$', name: 'US Dollar', decimals: 2 }],
    limits: {},
  };
}

export function sellerFixture(overrides: Partial<SellerSummary> = {}): SellerSummary {
  return {
    id: 'seller-1',
    nick: 'lumen',
    name: 'Lumen Records',
    user_option: 'company',
    title: 'Independent label',
    profile_image: '/media/avatars/lumen.png',
    followers_counter: 1_250,
    is_verified: true,
    ...overrides,
  };
}

export function userFixture(overrides: Partial<SessionUser> = {}): SessionUser {
  return {
    id: 'sub-1',
    email: 'ana@example.com',
    nick: 'ana',
    name: 'Ana',
    avatar: null,
    verified: true,
    redeemer: null,
    guest: false,
    ...overrides,
  };
}

/** A hand-made auth context (for rendering the bars outside the app). */
export function authStateFixture(overrides: Partial<AuthState> = {}): AuthState {
  return {
    status: 'guest',
    user: null,
    available: true,
    openLogin: () => {},
    closeLogin: () => {},
    loginModal: null,
    landing: null,
    finishLogin: async () => {},
    logout: async () => {},
    ...overrides,
  };
}

/** The Amplify settings of /api/config for tests of logged-in behaviour. */
export function authFixture(endpoint: string | null = 'http://localhost:3000/cognito') {
  return {
    region: 'eu-west-1',
    userPoolId: 'eu-west-1_test',
    userPoolClientId: 'client',
    endpoint,
  };
}

/** A /api/config with a user pool, for tests that log in. */
export function configWithAuthFixture(endpoint?: string | null): PublicConfig {
  return { ...configFixture(), auth: authFixture(endpoint) };
}
