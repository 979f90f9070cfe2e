import { describe, expect, it } from 'vitest';
import { DEFAULT_SWITCHES, readSwitches, SwitchConfigError, switchEnvName } from './switches';

describe('feature switches', () => {
  it('defaults to this deployment (spec 000 §1)', () => {
    expect(readSwitches({})).toEqual({
      fiat: true,
      sats: false,
      passwordLogin: false,
      messages: false,
      connections: false,
      follows: true,
      auctionsAndFixedPrice: true,
      onlySellersInDirectory: true,
      mintableTypes: ['physical'],
      tokenTransfer: false,
      identityProvider: 'none',
      userLimits: true,
      faq: false,
      companyOnlyMinting: false,
      companyOnlySelling: false,
      individualProfiles: true,
      companyProfiles: true,
      rooms: false,
    });
  });

  it.each([
    ['passwordLogin', 'FEATURE_PASSWORD_LOGIN'],
    ['mintableTypes', 'FEATURE_MINTABLE_TYPES'],
    ['faq', 'FEATURE_FAQ'],
  ] as const)('%s is overridden by %s', (key, variable) => {
    expect(switchEnvName(key)).toBe(variable);
  });

  it.each([
    [{ FEATURE_PASSWORD_LOGIN: 'true' }, { passwordLogin: true }],
    [{ FEATURE_FAQ: 'on' }, { faq: true }],
    [{ FEATURE_FOLLOWS: '0' }, { follows: false }],
    [
      { FEATURE_MINTABLE_TYPES: 'physical, ticket,ticket' },
      { mintableTypes: ['physical', 'ticket'] },
    ],
    [{ FEATURE_IDENTITY_PROVIDER: 'manual' }, { identityProvider: 'manual' }],
    [{ FEATURE_SATS: '' }, {}],
  ])('applies %j', (env, change) => {
    expect(readSwitches(env)).toEqual({ ...DEFAULT_SWITCHES, ...change });
  });

  it.each([
    { FEATURE_FIAT: 'maybe' },
    { FEATURE_MINTABLE_TYPES: 'physical,investment' },
    { FEATURE_IDENTITY_PROVIDER: 'acme' },
  ])('refuses the malformed override %j', (env) => {
    expect(() => readSwitches(env)).toThrow(SwitchConfigError);
  });

  it('never mutates the defaults', () => {
    readSwitches({ FEATURE_MINTABLE_TYPES: 'digital' }).mintableTypes.push('service');
    expect(DEFAULT_SWITCHES.mintableTypes).toEqual(['physical']);
  });
});
