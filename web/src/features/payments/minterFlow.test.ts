import type { OnboardingStatus } from '@shared/onboarding';
import { describe, expect, it } from 'vitest';
import {
  callErrorKey,
  countryAction,
  ctaDisabled,
  ctaLabel,
  minterReducer,
  openedState,
  primaryAction,
  windowOutcome,
  type MinterEvent,
  type MinterState,
} from './minterFlow';

/** A settled modal at `step` with `status` (nothing running, no error). */
function at(overrides: Partial<MinterState> = {}): MinterState {
  return {
    status: 'become_minter',
    step: 0,
    country: '',
    busy: null,
    error: null,
    redirected: false,
    ...overrides,
  };
}

const hasText = (key: string) =>
  key.startsWith('onboarding.errors.') || key.startsWith('payments.errors.') || key === 'network';

describe('the become-minter modal on open (001 §4)', () => {
  it.each<[string | null | undefined, OnboardingStatus | null, boolean]>([
    [null, 'become_minter', false],
    [undefined, 'become_minter', false],
    ['', 'become_minter', false],
    ['none', 'become_minter', false],
    ['become_minter', null, true],
    ['continue_onboarding', null, true],
    ['verifying', null, true],
    ['complete', null, true],
  ])('a kept status %j opens as %j, checking: %s', (kept, status, check) => {
    const opened = openedState(kept);
    expect(opened.check).toBe(check);
    expect(opened.state.status).toBe(status);
    expect(opened.state.busy).toBe(check ? 'check' : null);
    expect(opened.state.step).toBe(0);
  });
});

describe('the call-to-action (001 §4)', () => {
  it.each<[OnboardingStatus | null, 'minter' | 'cta', boolean, ReturnType<typeof primaryAction>]>([
    [null, 'cta', true, null],
    ['become_minter', 'cta', false, 'chooseCountry'],
    ['continue_onboarding', 'cta', false, 'refresh'],
    ['pending', 'cta', false, 'refresh'],
    ['pending_email', 'cta', true, null],
    ['verifying', 'cta', true, null],
    ['success', 'minter', false, 'refresh'],
    ['complete', 'minter', false, 'refresh'],
  ])('with status %j: label %s, disabled %s, does %j', (status, label, disabled, action) => {
    const state = at({ status });
    expect(ctaLabel(state)).toBe(label);
    expect(ctaDisabled(state)).toBe(disabled);
    expect(primaryAction(state)).toBe(action);
  });

  it.each<[string, Partial<MinterState>]>([
    ['while the status loads', { busy: 'check' }],
    ['while a call runs', { busy: 'call' }],
    ['on error', { error: 'onboarding.errors.refreshing' }],
  ])('is disabled %s', (_, overrides) => {
    const state = at({ status: 'continue_onboarding', ...overrides });
    expect(ctaDisabled(state)).toBe(true);
    expect(primaryAction(state)).toBeNull();
  });
});

describe('the country step', () => {
  it.each<[string, ReturnType<typeof countryAction>]>([
    ['', null],
    ['ES', 'begin'],
    ['US', 'begin'],
    ['gb', 'begin'],
    ['AR', 'invalidCountry'],
    ['IN', 'invalidCountry'],
  ])('%j → %j', (country, action) => {
    expect(countryAction(country)).toBe(action);
  });
});

describe('the onboarding window after a call', () => {
  it.each<[OnboardingStatus, string | null, 'navigate' | 'close']>([
    ['continue_onboarding', 'https://connect.stripe.com/setup/e/x', 'navigate'],
    ['success', 'https://connect.stripe.com/express/x', 'navigate'],
    ['pending', 'https://connect.stripe.com/setup/e/x', 'close'],
    ['pending', null, 'close'],
    ['verifying', null, 'close'],
  ])('%s with url %j: %s', (status, url, outcome) => {
    expect(windowOutcome({ status, url })).toBe(outcome);
  });
});

describe('the text of a failed call (001 §8)', () => {
  it.each<['begin' | 'refresh', string, string]>([
    ['begin', 'onboarding.errors.email_in_use', 'onboarding.errors.email_in_use'],
    ['begin', 'onboarding.errors.phone_in_use', 'onboarding.errors.phone_in_use'],
    ['refresh', 'onboarding.errors.email_in_use', 'onboarding.errors.generic'],
    ['refresh', 'payments.errors.provider', 'payments.errors.provider'],
    ['begin', 'network', 'network'],
    ['begin', 'unexpected', 'onboarding.errors.generic'],
    ['refresh', 'some.unknown.code', 'onboarding.errors.generic'],
  ])('%s failing with %s shows %s', (call, code, key) => {
    expect(callErrorKey(call, code, hasText)).toBe(key);
  });
});

describe('the modal state machine', () => {
  type Row = [string, MinterState, MinterEvent, Partial<MinterState>];
  it.each<Row>([
    [
      'the check answers the status',
      at({ status: null, busy: 'check' }),
      { type: 'checked', status: 'verifying', source: 'open' },
      { status: 'verifying', busy: null, step: 0, error: null },
    ],
    [
      'a user not yet onboarded is become_minter',
      at({ status: null, busy: 'check' }),
      { type: 'checkFailed', code: 'onboarding.errors.not_onboarded', source: 'open' },
      { status: 'become_minter', busy: null, error: null },
    ],
    [
      'a failed check shows the refreshing error',
      at({ status: null, busy: 'check' }),
      { type: 'checkFailed', code: 'payments.errors.provider', source: 'open' },
      { status: null, busy: null, error: 'onboarding.errors.refreshing' },
    ],
    ['become_minter moves on to the country step', at(), { type: 'chooseCountry' }, { step: 1 }],
    [
      'a country outside Express gives the invalid-country step',
      at({ step: 1, country: 'AR' }),
      { type: 'invalidCountry' },
      { step: 3, country: 'AR' },
    ],
    [
      'back from the invalid country returns to the country step',
      at({ step: 3, country: 'AR' }),
      { type: 'back' },
      { step: 1, error: null },
    ],
    [
      'a call moves to the redirect step, loading',
      at({ step: 1, country: 'ES' }),
      { type: 'calling', call: 'begin' },
      { step: 2, busy: 'call', error: null },
    ],
    [
      'a blocked window shows popup_blocked',
      at({ step: 1, country: 'ES' }),
      { type: 'popupBlocked' },
      { step: 2, busy: null, error: 'base.popup_blocked' },
    ],
    [
      'a link confirms the redirect',
      at({ step: 2, busy: 'call' }),
      { type: 'linked', status: 'continue_onboarding', url: 'https://stripe.test/x' },
      { step: 2, busy: null, status: 'continue_onboarding', redirected: true, error: null },
    ],
    [
      'a pending answer shows the pending error',
      at({ status: 'continue_onboarding', step: 2, busy: 'call' }),
      { type: 'linked', status: 'pending', url: null },
      {
        step: 2,
        busy: null,
        status: 'pending',
        redirected: false,
        error: 'onboarding.errors.pending',
      },
    ],
    [
      'a verifying answer (no link) shows the status',
      at({ status: 'continue_onboarding', step: 2, busy: 'call' }),
      { type: 'linked', status: 'verifying', url: null },
      { step: 0, busy: null, status: 'verifying', error: null },
    ],
    [
      'begin refused for the country gives the invalid-country step',
      at({ step: 2, busy: 'call', country: 'ES' }),
      { type: 'callFailed', call: 'begin', code: 'onboarding.errors.invalid_country', known: true },
      { step: 3, busy: null, error: null },
    ],
    [
      'begin refused: e-mail in use',
      at({ step: 2, busy: 'call', country: 'ES' }),
      { type: 'callFailed', call: 'begin', code: 'onboarding.errors.email_in_use', known: true },
      { step: 2, busy: null, error: 'onboarding.errors.email_in_use' },
    ],
    [
      'an unknown failure shows the generic error',
      at({ status: 'continue_onboarding', step: 2, busy: 'call' }),
      { type: 'callFailed', call: 'refresh', code: 'unexpected', known: true },
      { step: 2, busy: null, error: 'onboarding.errors.generic' },
    ],
    [
      'back from a failed begin returns to the country step, clearing the error',
      at({ step: 2, country: 'ES', error: 'onboarding.errors.generic' }),
      { type: 'back' },
      { step: 1, error: null, country: 'ES' },
    ],
    [
      'back from a failed refresh returns to the start',
      at({ status: 'continue_onboarding', step: 2, error: 'base.popup_blocked' }),
      { type: 'back' },
      { step: 0, error: null },
    ],
    [
      'back does nothing while a call runs',
      at({ step: 2, busy: 'call' }),
      { type: 'back' },
      { step: 2, busy: 'call' },
    ],
    [
      'a live update with the same status keeps the confirmation',
      at({ status: 'continue_onboarding', step: 2, busy: 'check', redirected: true }),
      { type: 'checked', status: 'continue_onboarding', source: 'live' },
      { step: 2, redirected: true, busy: null },
    ],
    [
      'a live update with a new status shows it',
      at({ status: 'continue_onboarding', step: 2, busy: 'check', redirected: true }),
      { type: 'checked', status: 'verifying', source: 'live' },
      { step: 0, status: 'verifying', redirected: false, busy: null },
    ],
    [
      'a live update does not pull the user off the country step',
      at({ step: 1, country: 'FR', busy: 'check' }),
      { type: 'checked', status: 'become_minter', source: 'live' },
      { step: 1, country: 'FR', busy: null },
    ],
    [
      'the user asking for the status sees it',
      at({ status: 'continue_onboarding', step: 2, busy: 'check', redirected: true }),
      { type: 'checked', status: 'continue_onboarding', source: 'user' },
      { step: 0, redirected: false, busy: null },
    ],
  ])('%s', (_, state, event, expected) => {
    expect(minterReducer(state, event)).toEqual({ ...state, ...expected });
  });
});
