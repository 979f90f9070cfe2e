import { describe, expect, it } from 'vitest';
import {
  ACTIONS,
  decide,
  PERMISSIONS,
  permissionSwitches,
  type Action,
  type Decision,
  type PermissionSwitches,
  type PermissionUser,
} from './permissions';
import { DEFAULT_SWITCHES } from './switches';

const THIS_DEPLOYMENT = permissionSwitches(DEFAULT_SWITCHES);
const KYC: PermissionSwitches = { identityProvider: true, paymentProvider: true, fiat: true };
const NONE: PermissionSwitches = { identityProvider: false, paymentProvider: false, fiat: false };

const person = (over: Partial<PermissionUser> = {}): PermissionUser => ({
  user_option: 'individual',
  is_verified: false,
  onboarding_status: null,
  ...over,
});
const company = (over: Partial<PermissionUser> = {}): PermissionUser =>
  person({ user_option: 'company', ...over });

describe('permission matrix (000 §6, 001 §6)', () => {
  it.each<[Action, string]>([
    ['create', 'L'],
    ['list', 'L'],
    ['transfer', 'L'],
    ['redeem', 'L'],
    ['preview', 'L'],
    ['report', 'L'],
    ['buy', 'L'],
    ['bid', 'L'],
    ['follow', 'L'],
    ['read_ticket', 'L'],
    ['connect', 'L'],
    ['accept', 'LVE'],
    ['reject', 'LVE'],
    ['favourites', 'LE'],
    ['room', 'LE'],
    ['delist', 'LOP'],
    ['create_ticket', 'LOP'],
  ])('%s needs %s', (action, needs) => {
    expect(PERMISSIONS[action]).toEqual({
      login: needs.includes('L'),
      verified: needs.includes('V'),
      entityVerified: needs.includes('E'),
      onboarded: needs.includes('O'),
      entityOnboarded: needs.includes('P'),
    });
  });

  it('lists every action once', () => {
    expect(ACTIONS).toHaveLength(17);
  });

  it.each(ACTIONS)('a guest gets the login modal for %s', (action) => {
    expect(decide(action, null, THIS_DEPLOYMENT)).toBe('login');
  });
});

describe('decide', () => {
  const unverifiedPerson = person();
  const verifiedPerson = person({ is_verified: true });
  const unverifiedCompany = company();
  const verifiedCompany = company({ is_verified: true });
  const onboardedPerson = person({ is_verified: true, onboarding_status: 'complete' });
  const pendingCompany = company({ is_verified: true, onboarding_status: 'pending' });

  it.each<[Action, PermissionUser, PermissionSwitches, Decision]>([
    // login-only actions allow any logged user
    ['follow', unverifiedPerson, THIS_DEPLOYMENT, 'allow'],
    ['bid', unverifiedCompany, THIS_DEPLOYMENT, 'allow'],
    ['create', unverifiedPerson, KYC, 'allow'],
    // accept / reject: verified needed; verify modal with a KYC provider, else minter onboarding
    ['accept', unverifiedPerson, KYC, 'verify'],
    ['accept', unverifiedPerson, THIS_DEPLOYMENT, 'onboard'],
    ['reject', unverifiedCompany, THIS_DEPLOYMENT, 'onboard'],
    ['accept', unverifiedPerson, NONE, 'verify'],
    ['accept', verifiedPerson, THIS_DEPLOYMENT, 'allow'],
    ['reject', verifiedCompany, KYC, 'allow'],
    // favourites / room: only companies must be verified
    ['favourites', unverifiedPerson, KYC, 'allow'],
    ['favourites', unverifiedCompany, KYC, 'verify'],
    ['room', unverifiedCompany, THIS_DEPLOYMENT, 'onboard'],
    ['room', verifiedCompany, THIS_DEPLOYMENT, 'allow'],
    // delist / create_ticket: onboarding needed → minter modal
    ['delist', verifiedPerson, THIS_DEPLOYMENT, 'onboard'],
    ['create_ticket', pendingCompany, THIS_DEPLOYMENT, 'onboard'],
    ['delist', onboardedPerson, THIS_DEPLOYMENT, 'allow'],
    ['create_ticket', company({ onboarding_status: 'complete' }), KYC, 'allow'],
  ])('%s for %j with %j → %s', (action, user, switches, expected) => {
    expect(decide(action, user, switches)).toBe(expected);
  });

  it('derives the switches of this deployment: no KYC provider, a card provider, fiat on', () => {
    expect(THIS_DEPLOYMENT).toEqual({ identityProvider: false, paymentProvider: true, fiat: true });
    expect(permissionSwitches({ ...DEFAULT_SWITCHES, identityProvider: 'manual' })).toMatchObject({
      identityProvider: true,
    });
  });
});
