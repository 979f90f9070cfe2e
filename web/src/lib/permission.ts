import { useCallback, useSyncExternalStore } from 'react';
import {
  decide,
  permissionSwitches,
  type Action,
  type Decision,
  type PermissionUser,
} from '@shared/permissions';
import { useAuth, type SessionUser } from './auth';
import { useSwitches } from './config';
import { useOwnProfile } from './ownProfile';

type Listener = () => void;

/** A modal the guard asks for instead of running the action. */
export interface PermissionPrompt {
  kind: 'verify' | 'onboard';
  action: Action;
}

/**
 * The prompt currently shown (the verify modal, or the seller-onboarding explanation); the host
 * in src/components renders it.
 */
function createPromptStore() {
  let prompt: PermissionPrompt | null = null;
  const listeners = new Set<Listener>();
  const set = (next: PermissionPrompt | null) => {
    prompt = next;
    listeners.forEach((listener) => listener());
  };
  return {
    show: (next: PermissionPrompt) => set(next),
    close: () => set(null),
    current: () => prompt,
    subscribe(listener: Listener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export const permissionPrompt = createPromptStore();

export function usePermissionPrompt(): PermissionPrompt | null {
  return useSyncExternalStore(
    permissionPrompt.subscribe,
    permissionPrompt.current,
    permissionPrompt.current,
  );
}

export type OnboardHandler = (action: Action) => void;

/**
 * Where 'onboard' decisions go. The minter-onboarding (Stripe) modal registers itself here while
 * the deployment has a card payment provider and takes them over; otherwise the prompt host
 * explains that seller onboarding is required.
 */
function createOnboardingRegistry() {
  const handlers = new Set<OnboardHandler>();
  return {
    /** Registers the onboarding modal; returns the unregister function. */
    register(handler: OnboardHandler): () => void {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    /** Hands the decision to the registered modal; false when none is registered. */
    emit(action: Action): boolean {
      if (handlers.size === 0) return false;
      handlers.forEach((handler) => handler(action));
      return true;
    },
  };
}

export const onboardingRegistry = createOnboardingRegistry();

/**
 * What the permission table needs to know about the session user. The own profile carries the
 * account type, the verification flag and the seller-onboarding status; while it loads, the
 * session's own flag stands in, the user counts as an individual (the stricter company columns
 * wait for the profile) and as not onboarded (the onboarding modal then finds the real status).
 */
export function permissionUserOf(
  user: SessionUser | null,
  profile:
    | {
        user_option: 'individual' | 'company';
        is_verified: boolean;
        onboarding_status?: string | null;
      }
    | undefined,
): PermissionUser | null {
  if (user === null) return null;
  return {
    user_option: profile?.user_option ?? 'individual',
    is_verified: profile?.is_verified ?? user.verified,
    onboarding_status: profile?.onboarding_status ?? null,
  };
}

export type Guard = (action: Action, run: () => void) => Decision;

/**
 * The permission guard (spec 001 §6): `guard(action, run)` decides with shared/permissions.ts;
 * 'allow' runs the action, 'login' opens the login modal, 'verify' the verify modal, 'onboard'
 * the minter-onboarding modal (through {@link onboardingRegistry}). Returns the decision.
 */
export function usePermission(): Guard {
  const { user, openLogin } = useAuth();
  const switches = useSwitches();
  const profile = useOwnProfile(user?.id ?? null);
  const subject = permissionUserOf(user, profile.data);
  const loggedIn = subject !== null;
  const userOption = subject?.user_option;
  const verified = subject?.is_verified;
  const onboardingStatus = subject?.onboarding_status ?? null;
  const { identityProvider, paymentProvider, fiat } = permissionSwitches(switches);
  return useCallback(
    (action, run) => {
      const who: PermissionUser | null =
        loggedIn && userOption !== undefined && verified !== undefined
          ? { user_option: userOption, is_verified: verified, onboarding_status: onboardingStatus }
          : null;
      const decision = decide(action, who, { identityProvider, paymentProvider, fiat });
      if (decision === 'allow') run();
      else if (decision === 'login') openLogin();
      else if (decision === 'verify') permissionPrompt.show({ kind: 'verify', action });
      else if (!onboardingRegistry.emit(action)) {
        permissionPrompt.show({ kind: 'onboard', action });
      }
      return decision;
    },
    [
      loggedIn,
      userOption,
      verified,
      onboardingStatus,
      identityProvider,
      paymentProvider,
      fiat,
      openLogin,
    ],
  );
}
