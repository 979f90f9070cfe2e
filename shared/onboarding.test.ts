import { describe, expect, it } from 'vitest';
import {
  isExpressCountry,
  isOnboarded,
  minterCheckOf,
  onboardingStatusOf,
  storedOnboardingStatus,
  type ConnectedAccountState,
  type MinterCheck,
} from './onboarding';

const check = (overrides: Partial<MinterCheck>): MinterCheck => ({
  minter_completed: false,
  details_submitted: true,
  currently_due: [],
  pending_verification: [],
  ...overrides,
});

describe('onboarding status of a check (spec 001 §4)', () => {
  it.each<[string, MinterCheck | null, string, string]>([
    ['no connected account', null, 'become_minter', 'become_minter'],
    ['completed', check({ minter_completed: true }), 'success', 'complete'],
    [
      'completed wins over anything listed',
      check({ minter_completed: true, pending_verification: ['x'] }),
      'success',
      'complete',
    ],
    [
      'details not submitted',
      check({ details_submitted: false, currently_due: ['external_account'] }),
      'continue_onboarding',
      'continue_onboarding',
    ],
    [
      'details not submitted, something pending',
      check({ details_submitted: false, pending_verification: ['x'] }),
      'continue_onboarding',
      'continue_onboarding',
    ],
    [
      'submitted, verification pending',
      check({ pending_verification: ['individual.verification.document'] }),
      'verifying',
      'verifying',
    ],
    [
      'submitted, documents due and something pending',
      check({ currently_due: ['a'], pending_verification: ['b'] }),
      'verifying',
      'verifying',
    ],
    [
      'submitted, documents due, nothing pending',
      check({ currently_due: ['individual.verification.document'] }),
      'pending',
      'pending',
    ],
    [
      'submitted, nothing due or pending, not enabled',
      check({}),
      'continue_onboarding',
      'continue_onboarding',
    ],
  ])('%s → %s (kept as %s)', (_name, input, status, stored) => {
    expect(onboardingStatusOf(input)).toBe(status);
    expect(storedOnboardingStatus(input)).toBe(stored);
  });
});

describe('the check of a connected account', () => {
  const account: ConnectedAccountState = {
    capabilities: { transfers: 'active' },
    payouts_enabled: true,
    details_submitted: true,
    requirements: { currently_due: [], pending_verification: [] },
  };

  it.each<[string, ConnectedAccountState, boolean]>([
    ['enabled, submitted, nothing due', account, true],
    ['transfers not active', { ...account, capabilities: { transfers: 'inactive' } }, false],
    ['no capabilities known', { ...account, capabilities: null }, false],
    ['payouts not enabled', { ...account, payouts_enabled: false }, false],
    ['not submitted', { ...account, details_submitted: false }, false],
    [
      'something due',
      { ...account, requirements: { currently_due: ['x'], pending_verification: [] } },
      false,
    ],
  ])('%s → completed %s', (_name, input, completed) => {
    expect(minterCheckOf(input).minter_completed).toBe(completed);
  });

  it('reads missing requirement lists as empty', () => {
    expect(minterCheckOf({ ...account, requirements: null })).toEqual({
      minter_completed: true,
      details_submitted: true,
      currently_due: [],
      pending_verification: [],
    });
  });
});

describe('sellers and countries', () => {
  it('only a complete onboarding makes a seller', () => {
    expect(isOnboarded('complete')).toBe(true);
    for (const status of ['success', 'pending', 'verifying', 'become_minter', null, undefined, ''])
      expect(isOnboarded(status)).toBe(false);
  });

  it('knows the Express countries, in either case', () => {
    expect(isExpressCountry('es')).toBe(true);
    expect(isExpressCountry('GB')).toBe(true);
    expect(isExpressCountry('KP')).toBe(false);
    expect(isExpressCountry('')).toBe(false);
  });
});
