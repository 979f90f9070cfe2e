import { PIN_LIMITS } from '@shared/constants/limits';
import type { ConfirmSignInOutput, SignInOutput } from 'aws-amplify/auth';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useAuth } from '../../../lib/auth';
import {
  answerChallenge,
  endSession,
  RESEND_ANSWER,
  startPasswordSignIn,
  startPinSignIn,
} from '../../../lib/authClient';
import { loginErrorCode } from '../loginErrors';

/** 0 e-mail, 1 e-mail pin, 2 phone pin, 3 logging in (spec 001 §2). */
export type LoginStep = 0 | 1 | 2 | 3;

/** Seconds before another pin may be asked for (the server refuses an earlier RESEND). */
export const RESEND_COOLDOWN_S = PIN_LIMITS.resendCooldownMs / 1000;

export interface LoginFlowState {
  step: LoginStep;
  email: string;
  /** Where the pin went (a masked address or number), as the challenge says. */
  destination: string | null;
  busy: boolean;
  /** i18n key of the last failure. */
  error: string | null;
  /** Tries left on the current pin, when the challenge says. */
  triesLeft: number | null;
  /** A new pin was sent. */
  resent: boolean;
  /** Seconds until resend is allowed again. */
  cooldown: number;
}

const INITIAL: LoginFlowState = {
  step: 0,
  email: '',
  destination: null,
  busy: false,
  error: null,
  triesLeft: null,
  resent: false,
  cooldown: 0,
};

type Output = SignInOutput | ConfirmSignInOutput;

function info(output: Output): Record<string, string> {
  const next = output.nextStep as { additionalInfo?: Record<string, string> };
  return next.additionalInfo ?? {};
}

function challengeStep(output: Output): 1 | 2 | null {
  if (output.nextStep.signInStep !== 'CONFIRM_SIGN_IN_WITH_CUSTOM_CHALLENGE') return null;
  const step = info(output).step;
  if (step === 'email') return 1;
  if (step === 'phone') return 2;
  return null;
}

function triesOf(output: Output): number | null {
  const raw = info(output).triesLeft ?? info(output).tries_left;
  const value = raw === undefined ? NaN : Number(raw);
  return Number.isFinite(value) ? value : null;
}

/**
 * The pin login: signIn with CUSTOM_WITHOUT_SRP, then confirmSignIn with the e-mail pin and the
 * phone pin; DONE hands over to the session. `returnTo` is where the user goes afterwards.
 */
export function useLoginFlow({ returnTo, nick }: { returnTo: string; nick?: string }) {
  const { finishLogin, available } = useAuth();
  const [state, setState] = useState<LoginFlowState>(INITIAL);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const update = useCallback((patch: Partial<LoginFlowState>) => {
    if (mounted.current) setState((previous) => ({ ...previous, ...patch }));
  }, []);

  // The resend cooldown ticks down once a second.
  const cooling = state.cooldown > 0;
  useEffect(() => {
    if (!cooling) return;
    const timer = setInterval(() => {
      setState((previous) => ({ ...previous, cooldown: Math.max(0, previous.cooldown - 1) }));
    }, 1000);
    return () => clearInterval(timer);
  }, [cooling]);

  const complete = useCallback(async () => {
    update({ step: 3, busy: true, error: null });
    try {
      await finishLogin(returnTo, { nick });
    } catch (error) {
      update({ busy: false, error: loginErrorCode(error) });
    }
  }, [finishLogin, returnTo, nick, update]);

  /** Moves to what Cognito asks next; `from` is the step the answer was given at. */
  const advance = useCallback(
    async (output: Output, from: LoginStep) => {
      if (output.nextStep.signInStep === 'DONE') {
        await complete();
        return;
      }
      const step = challengeStep(output);
      if (step === null) {
        update({ step: 0, busy: false, error: 'login.errors.500' });
        return;
      }
      const destination = info(output).destination ?? null;
      if (step === from) {
        // The same challenge again: a wrong pin.
        update({
          step: from,
          busy: false,
          error: 'login.errors.pin',
          triesLeft: triesOf(output),
          destination,
        });
        return;
      }
      update({
        step,
        destination,
        busy: false,
        error: null,
        triesLeft: null,
        resent: false,
        cooldown: RESEND_COOLDOWN_S,
      });
    },
    [complete, update],
  );

  const start = useCallback(
    async (rawEmail: string, password?: string) => {
      const email = rawEmail.trim().toLowerCase();
      const begin = () => (password ? startPasswordSignIn(email, password) : startPinSignIn(email));
      if (!available) {
        update({ email, error: 'login.errors.unavailable' });
        return;
      }
      update({ email, busy: true, error: null });
      try {
        let output: SignInOutput;
        try {
          output = await begin();
        } catch (error) {
          // "Already logged in": forget the stale local session and retry once (spec 001 §4).
          if (!(error instanceof Error) || error.name !== 'UserAlreadyAuthenticatedException') {
            throw error;
          }
          await endSession(false);
          output = await begin();
        }
        await advance(output, 0);
      } catch (error) {
        update({ step: 0, busy: false, error: loginErrorCode(error) });
      }
    },
    [available, advance, update],
  );

  const answer = useCallback(
    async (pin: string) => {
      const from = state.step;
      // The phone pin is the last one: "logging in" shows while Cognito checks it.
      update({
        busy: true,
        error: null,
        resent: false,
        ...(from === 2 ? { step: 3 as const } : {}),
      });
      try {
        await advance(await answerChallenge(pin), from);
      } catch (error) {
        // Cognito ends the attempt (too many wrong pins, expired): back to the e-mail.
        update({ step: 0, busy: false, error: loginErrorCode(error), triesLeft: null });
      }
    },
    [state.step, advance, update],
  );

  const resend = useCallback(async () => {
    update({ busy: true, error: null, resent: false });
    try {
      const output = await answerChallenge(RESEND_ANSWER);
      update({
        busy: false,
        resent: true,
        triesLeft: null,
        cooldown: RESEND_COOLDOWN_S,
        destination: info(output).destination ?? state.destination,
      });
    } catch (error) {
      update({ step: 0, busy: false, error: loginErrorCode(error) });
    }
  }, [state.destination, update]);

  const reset = useCallback(() => {
    setState((previous) => ({ ...INITIAL, email: previous.email }));
  }, []);

  return { state, start, answer, resend, reset };
}

export type LoginFlow = ReturnType<typeof useLoginFlow>;
