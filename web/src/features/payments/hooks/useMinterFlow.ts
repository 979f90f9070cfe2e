import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { errorCodeOf } from '../../../lib/api';
import { useTranslation } from '../../../lib/i18n';
import { useLiveMessages } from '../../../lib/liveChannel';
import { ownProfileQueryKey } from '../../../lib/ownProfile';
import { beginOnboarding, checkOnboarding, refreshOnboarding } from '../api/payments';
import {
  countryAction,
  isSeller,
  minterReducer,
  openedState,
  primaryAction,
  windowOutcome,
  type CheckSource,
  type MinterCall,
  type MinterState,
} from '../minterFlow';
import { isMinterReturnMessage, openOnboardingWindow } from '../onboardingWindow';

export interface MinterFlow {
  state: MinterState;
  /** The call-to-action of step 0 (a click handler: it may open the onboarding window). */
  primary: () => void;
  selectCountry: (country: string) => void;
  /** The country step's Continue (a click handler: it may open the onboarding window). */
  submitCountry: () => void;
  back: () => void;
  /** Checks the status again (after a failed check, or once back from Stripe). */
  check: () => void;
}

/**
 * Runs the become-minter modal (minterFlow.ts) for the signed-in user whose kept onboarding
 * status is `profileStatus`: the check on open, the begin and refresh calls with the onboarding
 * window, and re-checks while onboarding is not complete, when the live channel says the status
 * changed (`stripe.updated`) or the return page says the user is back from Stripe.
 */
export function useMinterFlow(
  userId: string,
  profileStatus: string | null | undefined,
): MinterFlow {
  const { i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [opened] = useState(() => openedState(profileStatus));
  const [state, dispatch] = useReducer(minterReducer, opened.state);
  const current = useRef(state);
  const mounted = useRef(true);
  useEffect(() => {
    current.current = state;
  }, [state]);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const runCheck = useCallback(
    async (source: CheckSource) => {
      dispatch({ type: 'checking' });
      try {
        const answer = await checkOnboarding();
        if (mounted.current)
          dispatch({ type: 'checked', status: answer.onboarding_status, source });
      } catch (error) {
        if (mounted.current) dispatch({ type: 'checkFailed', code: errorCodeOf(error), source });
      }
      // The check keeps the status on the user: the shell's copy (menu, guard) follows.
      void queryClient.invalidateQueries({ queryKey: ownProfileQueryKey(userId) });
    },
    [queryClient, userId],
  );

  // On open, a begun onboarding is checked (once, even if effects run twice).
  const checkedAtOpen = useRef(false);
  useEffect(() => {
    if (!opened.check || checkedAtOpen.current) return;
    checkedAtOpen.current = true;
    void runCheck('open');
  }, [opened.check, runCheck]);

  const recheck = useCallback(() => {
    // A begin or refresh in flight answers the status itself.
    if (current.current.busy === 'call') return;
    void runCheck('live');
  }, [runCheck]);

  const listening = !isSeller(state.status);
  useLiveMessages(
    useCallback(
      (message) => {
        if (message.type === 'stripe.updated') recheck();
      },
      [recheck],
    ),
    listening,
  );
  useEffect(() => {
    if (!listening) return undefined;
    const onMessage = (event: MessageEvent) => {
      if (isMinterReturnMessage(event)) recheck();
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [listening, recheck]);

  /** Opens the window first (in the click's task), then runs the call and points the window. */
  const start = useCallback(
    (call: MinterCall, country: string) => {
      const popup = openOnboardingWindow();
      if (popup === null) {
        dispatch({ type: 'popupBlocked' });
        return;
      }
      dispatch({ type: 'calling', call });
      const request = call === 'begin' ? beginOnboarding(country) : refreshOnboarding();
      request.then(
        (answer) => {
          // The window goes on to Stripe even if the modal was closed meanwhile.
          try {
            const outcome = windowOutcome({ status: answer.onboarding_status, url: answer.url });
            if (outcome === 'navigate' && answer.url !== null) popup.go(answer.url);
            else popup.close();
          } catch {
            // The user closed the window already.
          }
          if (mounted.current) {
            dispatch({ type: 'linked', status: answer.onboarding_status, url: answer.url });
          }
          void queryClient.invalidateQueries({ queryKey: ownProfileQueryKey(userId) });
        },
        (error: unknown) => {
          popup.close();
          const code = errorCodeOf(error);
          if (mounted.current) {
            dispatch({ type: 'callFailed', call, code, known: i18n.exists(code) });
          }
        },
      );
    },
    [i18n, queryClient, userId],
  );

  const primary = () => {
    const action = primaryAction(state);
    if (action === 'chooseCountry') dispatch({ type: 'chooseCountry' });
    else if (action === 'refresh') start('refresh', '');
  };

  const submitCountry = () => {
    if (state.busy !== null) return;
    const action = countryAction(state.country);
    if (action === 'invalidCountry') dispatch({ type: 'invalidCountry' });
    else if (action === 'begin') start('begin', state.country);
  };

  return {
    state,
    primary,
    selectCountry: (country) => dispatch({ type: 'selectCountry', country }),
    submitCountry,
    back: () => dispatch({ type: 'back' }),
    check: () => void runCheck('user'),
  };
}
