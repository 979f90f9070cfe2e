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
