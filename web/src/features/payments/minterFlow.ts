import { isExpressCountry, type OnboardingStatus } from '@shared/onboarding';

/*
 * The become-minter modal's state machine (spec 001 §2 "Become-minter modal", §4 "Minter
 * onboarding", §8 "Onboarding"), pure: the hook (hooks/useMinterFlow.ts) runs the calls and the
 * onboarding window and feeds their outcomes in as events; tests drive it with tables.
 *
 * Steps: 0 the status and the single call-to-action; 1 pick a country; 2 redirect (the onboarding
 * window is being pointed at Stripe) or its confirmation; 3 the invalid-country outcome.
 */

export type MinterStep = 0 | 1 | 2 | 3;

/** The calls that answer a Stripe link: begin (with the country) and refresh. */
export type MinterCall = 'begin' | 'refresh';

/** Who asked for a status check: opening the modal, the live channel (or the window), the user. */
export type CheckSource = 'open' | 'live' | 'user';

export interface MinterState {
  /** The onboarding status; null until known (the check is running, or it failed at open). */
  status: OnboardingStatus | null;
  step: MinterStep;
  /** The selected country (ISO 3166-1 alpha-2), '' until chosen. */
  country: string;
  /** What is running: the status check or a begin/refresh call. */
  busy: 'check' | 'call' | null;
  /** The text key of the error shown (an error code of en.json), or null. */
  error: string | null;
  /** Step 2: the onboarding window was pointed at Stripe (the confirmation shows). */
  redirected: boolean;
}

export type MinterEvent =
  | { type: 'checking' }
  | { type: 'checked'; status: OnboardingStatus; source: CheckSource }
  | { type: 'checkFailed'; code: string; source: CheckSource }
  /** The call-to-action at step 0 with become_minter: on to the country step. */
  | { type: 'chooseCountry' }
  | { type: 'selectCountry'; country: string }
  /** The chosen country is not a Connect Express country. */
  | { type: 'invalidCountry' }
  /** A begin or refresh call starts (the onboarding window is open). */
  | { type: 'calling'; call: MinterCall }
  /** The browser refused to open the onboarding window. */
  | { type: 'popupBlocked' }
  | { type: 'linked'; status: OnboardingStatus; url: string | null }
  /** `known`: the code has an English text of its own (a product message). */
  | { type: 'callFailed'; call: MinterCall; code: string; known: boolean }
  | { type: 'back' };

export const NOT_ONBOARDED = 'onboarding.errors.not_onboarded';
export const INVALID_COUNTRY = 'onboarding.errors.invalid_country';
export const CHECK_FAILED = 'onboarding.errors.refreshing';
export const PENDING = 'onboarding.errors.pending';
export const POPUP_BLOCKED = 'base.popup_blocked';
export const GENERIC = 'onboarding.errors.generic';

/**
 * Whether a kept status means the user began onboarding (001 §4: "if the user has an onboarding
 * status other than none or empty it is fetched through the check call").
 */
export function hasBegun(status: string | null | undefined): boolean {
  return status !== null && status !== undefined && status !== '' && status !== 'none';
}

/**
 * The state when the modal opens with the user's kept status: a begun onboarding is checked
 * (`check`: the caller runs the check call), anything else is become_minter at once.
 */
export function openedState(profileStatus: string | null | undefined): {
  state: MinterState;
  check: boolean;
} {
  const check = hasBegun(profileStatus);
  return {
    state: {
      status: check ? null : 'become_minter',
      step: 0,
      country: '',
      busy: check ? 'check' : null,
      error: null,
      redirected: false,
    },
    check,
  };
}

/** The user is a seller: the call-to-action opens the Stripe Express dashboard. */
export function isSeller(status: OnboardingStatus | null): boolean {
  return status === 'success' || status === 'complete';
}

/** The call-to-action's label: the minter text once a seller, else the call to action. */
export function ctaLabel(state: MinterState): 'minter' | 'cta' {
  return isSeller(state.status) ? 'minter' : 'cta';
}

/**
 * The call-to-action is disabled while loading, on error, while the status is unknown, or while
 * Stripe (verifying) or the user's e-mail (pending_email) is what onboarding waits for.
 */
export function ctaDisabled(state: MinterState): boolean {
  return (
    state.busy !== null ||
    state.error !== null ||
    state.status === null ||
    state.status === 'verifying' ||
    state.status === 'pending_email'
  );
}

/**
 * What the call-to-action at step 0 does (001 §4 "Which call runs"): become_minter goes to the
 * country step (begin runs from there, with the country); continue_onboarding and pending refresh
 * the onboarding link; success (and complete) refresh too, which answers the Express dashboard;
 * verifying and pending_email do nothing.
 */
export function primaryAction(state: MinterState): 'chooseCountry' | 'refresh' | null {
  if (ctaDisabled(state) || state.step !== 0) return null;
  switch (state.status) {
    case 'become_minter':
      return 'chooseCountry';
    case 'continue_onboarding':
    case 'pending':
    case 'success':
    case 'complete':
      return 'refresh';
    default:
      return null;
  }
}

/** What the country step's Continue does with the selected country. */
export function countryAction(country: string): 'begin' | 'invalidCountry' | null {
  if (country === '') return null;
  return isExpressCountry(country) ? 'begin' : 'invalidCountry';
}

/**
 * What becomes of the onboarding window once a call answered: pointed at the answer's URL, or
 * closed (pending: Stripe waits for documents; no URL: nothing for the user to do on Stripe).
 */
export function windowOutcome(answer: {
  status: OnboardingStatus;
  url: string | null;
}): 'navigate' | 'close' {
  return answer.status === 'pending' || answer.url === null ? 'close' : 'navigate';
}

/**
 * The text of a failed begin or refresh (001 §8): the e-mail- and phone-in-use texts on begin,
 * any other code with a text of its own (the product message, e.g. the network's), else the
 * generic onboarding error. `hasText` says whether a code has an English text.
 */
export function callErrorKey(
  call: MinterCall,
  code: string,
  hasText: (key: string) => boolean,
): string {
  if (code === 'onboarding.errors.email_in_use' || code === 'onboarding.errors.phone_in_use') {
    return call === 'begin' ? code : GENERIC;
  }
  if (code !== 'unexpected' && hasText(code)) return code;
  return GENERIC;
}

export function minterReducer(state: MinterState, event: MinterEvent): MinterState {
  switch (event.type) {
    case 'checking':
      return { ...state, busy: 'check' };
    case 'checked': {
      const base = { ...state, status: event.status, busy: null };
      // The live channel re-checks on every status change: only a change moves the modal on (the
      // window just pointed at Stripe keeps its confirmation, an error stays readable).
      if (event.source === 'live' && event.status === state.status) return base;
      // The user picking a country stays on it while nothing began elsewhere.
      if (
        event.source === 'live' &&
        (state.step === 1 || state.step === 3) &&
        event.status === 'become_minter'
      ) {
        return base;
      }
      return { ...base, step: 0, error: null, redirected: false };
    }
    case 'checkFailed':
      if (event.code === NOT_ONBOARDED) {
        return minterReducer(state, {
          type: 'checked',
          status: 'become_minter',
          source: event.source,
        });
      }
      return { ...state, busy: null, error: CHECK_FAILED };
    case 'chooseCountry':
      return state.step === 0 ? { ...state, step: 1, error: null } : state;
    case 'selectCountry':
      return { ...state, country: event.country };
    case 'invalidCountry':
      return { ...state, step: 3, error: null };
    case 'calling':
      return { ...state, step: 2, busy: 'call', error: null, redirected: false };
    case 'popupBlocked':
      return { ...state, step: 2, busy: null, error: POPUP_BLOCKED, redirected: false };
    case 'linked':
      if (event.status === 'pending') {
        return { ...state, status: 'pending', busy: null, error: PENDING, redirected: false };
      }
      if (event.url === null) {
        return { ...state, status: event.status, step: 0, busy: null, redirected: false };
      }
      return { ...state, status: event.status, busy: null, error: null, redirected: true };
    case 'callFailed':
      if (event.code === INVALID_COUNTRY) return { ...state, step: 3, busy: null, error: null };
      if (event.code === NOT_ONBOARDED) {
        return { ...state, status: 'become_minter', step: 0, busy: null, error: null };
      }
      return {
        ...state,
        busy: null,
        error: callErrorKey(event.call, event.code, () => event.known),
        redirected: false,
      };
    case 'back': {
      if (state.busy !== null || state.step === 0) return state;
      const step: MinterStep =
        state.step === 3 ? 1 : state.step === 2 ? (state.status === 'become_minter' ? 1 : 0) : 0;
      return { ...state, step, error: null, redirected: false };
    }
  }
}
