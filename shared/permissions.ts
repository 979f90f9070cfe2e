/**
 * The permission matrix of spec 000 §6 and 001 §6 as one pure module, used by the web's guard (to
 * open the login, verify or minter-onboarding modal) and by use cases (authoritatively).
 *
 * Readings of the matrix columns:
 * - login: the action needs a logged-in user (every action of the matrix does).
 * - verified: the user must be verified (e-mail and phone verified; 001 §4).
 * - entityVerified: a company user (user_option 'company') must be verified.
 * - onboarded: the user's seller onboarding must be complete (onboarding_status 'complete').
 * - entityOnboarded: a company user must be onboarded.
 */
export interface Requirement {
  login: boolean;
  verified: boolean;
  entityVerified: boolean;
  onboarded: boolean;
  entityOnboarded: boolean;
}

const LOGIN: Requirement = {
  login: true,
  verified: false,
  entityVerified: false,
  onboarded: false,
  entityOnboarded: false,
};

/** Action → what it needs. 000 §6 and 001 §6 agree where they overlap. */
export const PERMISSIONS = {
  // 000 §6: login only.
  create: LOGIN,
  list: LOGIN,
  transfer: LOGIN,
  redeem: LOGIN,
  preview: LOGIN,
  report: LOGIN,
  buy: LOGIN,
  bid: LOGIN,
  follow: LOGIN,
  read_ticket: LOGIN,
  connect: LOGIN,
  // 000 §6 accept/reject (product and room); 001 §6 accept/reject connection.
  accept: { ...LOGIN, verified: true, entityVerified: true },
  reject: { ...LOGIN, verified: true, entityVerified: true },
  favourites: { ...LOGIN, entityVerified: true },
  room: { ...LOGIN, entityVerified: true },
  delist: { ...LOGIN, onboarded: true, entityOnboarded: true },
  create_ticket: { ...LOGIN, onboarded: true, entityOnboarded: true },
} as const satisfies Record<string, Requirement>;

export type Action = keyof typeof PERMISSIONS;
export const ACTIONS = Object.keys(PERMISSIONS) as Action[];

/** What the decision needs to know about the caller; null for a guest. */
export interface PermissionUser {
  user_option: 'individual' | 'company';
  is_verified: boolean;
  /** Seller onboarding (001 §4); 'complete' means onboarded. */
  onboarding_status?: string | null | undefined;
}

/** What the deployment offers (derived from shared/switches.ts by `permissionSwitches`). */
export interface PermissionSwitches {
  /** An identity (KYC) provider exists: identityProvider !== 'none'. */
  identityProvider: boolean;
  /** A card payment provider exists (fiat on). */
  paymentProvider: boolean;
  fiat: boolean;
}

export function permissionSwitches(switches: {
  identityProvider: string;
  fiat: boolean;
}): PermissionSwitches {
  return {
    identityProvider: switches.identityProvider !== 'none',
    paymentProvider: switches.fiat,
    fiat: switches.fiat,
  };
}

/**
 * 'allow', or the modal the web opens instead:
 * - 'login': a guest, for an action that needs login (the login modal);
 * - 'verify': verification needed and an identity provider exists (the verify modal);
 * - 'onboard': the minter-onboarding modal: verification needed, no identity provider but a
 *   payment provider; or onboarding needed (with fiat on the minter modal; without fiat, still the
 *   only way to become onboarded).
 * When verification is needed and the deployment has neither provider, 'verify' (nothing else
 * can help the user).
 */
export type Decision = 'allow' | 'login' | 'verify' | 'onboard';

export function isOnboarded(user: PermissionUser): boolean {
  return user.onboarding_status === 'complete';
}

export function decide(
  action: Action,
  user: PermissionUser | null,
  switches: PermissionSwitches,
): Decision {
  const rule: Requirement = PERMISSIONS[action];
  if (user === null) return rule.login ? 'login' : 'allow';
  const company = user.user_option === 'company';
  const needsVerification = rule.verified || (rule.entityVerified && company);
  if (needsVerification && !user.is_verified) {
    if (switches.identityProvider) return 'verify';
    if (switches.paymentProvider) return 'onboard';
    return 'verify';
  }
  const needsOnboarding = rule.onboarded || (rule.entityOnboarded && company);
  if (needsOnboarding && !isOnboarded(user)) return 'onboard';
  return 'allow';
}
