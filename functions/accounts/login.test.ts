import type {
  CreateAuthChallengeTriggerEvent,
  DefineAuthChallengeTriggerEvent,
  VerifyAuthChallengeResponseTriggerEvent,
} from 'aws-lambda';
import { beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../core/clock';
import { newProfileItem } from '../profiles/index';
import { fakeAccountsRepo, fakePinSender } from './accounts.fake';
import type { AccountRecord } from './accounts.repo';
import {
  challengeMetadata,
  createAuthChallenge,
  decideNext,
  defineAuthChallenge,
  LoginRefused,
  userIdOf,
  verifyAuthChallenge,
  type LoginDeps,
} from './login';
import { PIN_RULES } from './pins';
import { handler as defineHandler } from './triggers/define-auth-challenge';

type Session = DefineAuthChallengeTriggerEvent['request']['session'];

const USER_ID = '01JTESTUSER000000000000000';
const C1 = 'a'.repeat(32);
const C2 = 'b'.repeat(32);

/** Fields every Cognito trigger event carries. */
function base(userName: string, triggerSource: string) {
  return {
    version: '1',
    region: 'us-east-1',
    userPoolId: 'us-east-1_TestPool',
    userName,
    callerContext: { awsSdkVersion: 'aws-sdk-unknown-unknown', clientId: 'testclient' },
    triggerSource,
  };
}

function attributes(userName: string, found: boolean): Record<string, string> {
  return found
    ? {
        sub: userName,
        'cognito:user_status': 'CONFIRMED',
        email: 'marta@example.com',
        email_verified: 'true',
        phone_number: '+34600123456',
        phone_number_verified: 'true',
      }
    : {};
}

function defineEvent(session: Session, userName = USER_ID, found = true) {
  return {
    ...base(userName, 'DefineAuthChallenge_Authentication'),
    request: {
      userAttributes: attributes(userName, found),
      session,
      ...(found ? {} : { userNotFound: true }),
    },
    response: { challengeName: '', issueTokens: false, failAuthentication: false },
  } as DefineAuthChallengeTriggerEvent;
}

function createEvent(session: Session, userName = USER_ID, found = true) {
  return {
    ...base(userName, 'CreateAuthChallenge_Authentication'),
    request: {
      userAttributes: attributes(userName, found),
      challengeName: 'CUSTOM_CHALLENGE',
      session,
      ...(found ? {} : { userNotFound: true }),
    },
    response: {
      publicChallengeParameters: {},
      privateChallengeParameters: {},
      challengeMetadata: '',
    },
  } as CreateAuthChallengeTriggerEvent;
}

function verifyEvent(
  privateChallengeParameters: Record<string, string>,
  answer: string,
  userName = USER_ID,
  found = true,
) {
  return {
    ...base(userName, 'VerifyAuthChallengeResponse_Authentication'),
    request: {
      userAttributes: attributes(userName, found),
      privateChallengeParameters,
      challengeAnswer: answer,
      ...(found ? {} : { userNotFound: true }),
    },
    response: { answerCorrect: false },
  } as VerifyAuthChallengeResponseTriggerEvent;
}

const entry = (step: 'email' | 'phone', id: string, result: boolean) => ({
  challengeName: 'CUSTOM_CHALLENGE' as const,
  challengeResult: result,
  challengeMetadata: challengeMetadata({ step, challengeId: id }),
});

describe('define auth challenge', () => {
  it.each<[string, Session, string]>([
    ['a new attempt', [], 'challenge'],
    ['after a correct e-mail pin', [entry('email', C1, true)], 'challenge'],
    ['after a correct phone pin', [entry('email', C1, true), entry('phone', C2, true)], 'tokens'],
    ['a phone pin without an e-mail pin', [entry('phone', C2, true)], 'fail'],
    ['after one wrong e-mail pin', [entry('email', C1, false)], 'challenge'],
    [
      'after 4 wrong tries',
      Array.from({ length: 4 }, () => entry('email', C1, false)),
      'challenge',
    ],
    ['after 5 wrong tries', Array.from({ length: 5 }, () => entry('email', C1, false)), 'fail'],
    [
      'after 4 wrong tries then a resend',
      [...Array.from({ length: 4 }, () => entry('email', C1, false)), entry('email', C2, false)],
      'challenge',
    ],
    [
      'after an SRP or password step',
      [{ challengeName: 'PASSWORD_VERIFIER', challengeResult: true }],
      'fail',
    ],
    [
      'with unknown metadata',
      [{ challengeName: 'CUSTOM_CHALLENGE', challengeResult: true, challengeMetadata: 'x' }],
      'fail',
    ],
  ])('%s → %s', (_name, session, kind) => {
    expect(decideNext(session).kind).toBe(kind);
  });

  it('fills the response as Cognito expects', async () => {
    const first = await defineHandler(defineEvent([]));
    expect(first.response).toEqual({
      challengeName: 'CUSTOM_CHALLENGE',
      issueTokens: false,
      failAuthentication: false,
    });
    const done = defineAuthChallenge(
      defineEvent([entry('email', C1, true), entry('phone', C2, true)]),
    );
    expect(done.response).toMatchObject({ issueTokens: true, failAuthentication: false });
    const failed = defineAuthChallenge(
      defineEvent(Array.from({ length: 5 }, () => entry('email', C1, false))),
    );
    expect(failed.response).toMatchObject({ issueTokens: false, failAuthentication: true });
  });

  it('behaves the same for an unknown user', () => {
    expect(defineAuthChallenge(defineEvent([], 'nobody@example.com', false)).response).toEqual(
      defineAuthChallenge(defineEvent([])).response,
    );
  });
});

describe('user id from the Cognito userName', () => {
  it.each([
    ['01jz8kq3m4n5p6r7s8t9v0w1x2', '01JZ8KQ3M4N5P6R7S8T9V0W1X2'],
    ['01JTESTUSER000000000000000', '01JTESTUSER000000000000000'],
    ['nobody@example.com', 'nobody@example.com'],
  ])('%s → %s', (userName, id) => {
    expect(userIdOf(userName)).toBe(id);
  });
});

describe('create and verify auth challenge', () => {
  let fake: ReturnType<typeof fakeAccountsRepo>;
  let mail: ReturnType<typeof fakePinSender>;
  let deps: LoginDeps;
  const clock = fixedClock('2026-11-22T10:00:00.000Z');
  let nextPin = 1234;

  beforeEach(() => {
    clock.set('2026-11-22T10:00:00.000Z');
    fake = fakeAccountsRepo();
    mail = fakePinSender();
    nextPin = 1234;
    deps = {
      repo: fake.repo,
      sender: mail.sender,
      now: () => clock.now(),
      random: () => nextPin,
      createMinMs: 0,
    };
    const account: AccountRecord = {
      id: USER_ID,
      nick: 'marta',
      email: 'marta@example.com',
      phone: '+34600123456',
      user_option: 'individual',
      email_verified: false,
      phone_verified: false,
      blocked: false,
      is_admin: false,
      created_at: clock.now().toISOString(),
    };
    fake.accounts.set(USER_ID, account);
    fake.profiles.set(
      USER_ID,
      newProfileItem(
        {
          id: USER_ID,
          nick: 'marta',
          user_option: 'individual',
          name: 'Marta',
          surname: 'Ruiz',
          entity_name: null,
        },
        clock.now(),
      ),
    );
  });

  /** Runs one Cognito round: define, then (if a challenge) create; answers with `answer`. */
  async function round(session: Session, answer: string, userName = USER_ID, found = true) {
    const defined = defineAuthChallenge(defineEvent(session, userName, found));
    if (defined.response.challengeName !== 'CUSTOM_CHALLENGE') return { defined };
    const created = await createAuthChallenge(deps, createEvent(session, userName, found));
    const verified = await verifyAuthChallenge(
      deps,
      verifyEvent(created.response.privateChallengeParameters, answer, userName, found),
    );
    session.push({
      challengeName: 'CUSTOM_CHALLENGE',
      challengeResult: verified.response.answerCorrect,
      challengeMetadata: created.response.challengeMetadata,
    });
    return { defined, created, verified };
  }

  it('logs in with the e-mail pin, then the phone pin; marks the account and profile verified', async () => {
    const session: Session = [];
    const first = await round(session, '1234');
    expect(first.created?.response.publicChallengeParameters).toEqual({
      step: 'email',
      destination: 'm•••@e•••.com',
      resendAfter: '2026-11-22T10:01:00.000Z',
    });
    expect(first.created?.response.privateChallengeParameters).toMatchObject({ step: 'email' });
    expect(first.verified?.response.answerCorrect).toBe(true);
    expect(mail.sent).toEqual([{ kind: 'email', to: 'marta@example.com', pin: '1234' }]);
    expect(fake.accounts.get(USER_ID)?.email_verified).toBe(true);
    expect(fake.profiles.get(USER_ID)?.is_verified).toBe(false);

    nextPin = 42;
    const second = await round(session, '0042');
    expect(second.created?.response.publicChallengeParameters).toMatchObject({
      step: 'phone',
      destination: '+34•••••3456',
    });
    expect(second.verified?.response.answerCorrect).toBe(true);
    expect(mail.sent[1]).toEqual({ kind: 'sms', to: '+34600123456', pin: '0042' });
    expect(fake.accounts.get(USER_ID)?.phone_verified).toBe(true);
    expect(fake.profiles.get(USER_ID)?.is_verified).toBe(true);

    const last = defineAuthChallenge(defineEvent(session));
    expect(last.response).toMatchObject({ issueTokens: true, failAuthentication: false });
  });

  it('keeps the same pin after a wrong answer (nothing re-sent), and a pin works once', async () => {
    const session: Session = [];
    const wrong = await round(session, '9999');
    expect(wrong.verified?.response.answerCorrect).toBe(false);
    const retry = await round(session, '1234');
    expect(retry.created?.response.privateChallengeParameters).toEqual(
      wrong.created?.response.privateChallengeParameters,
    );
    expect(retry.verified?.response.answerCorrect).toBe(true);
    expect(mail.sent).toHaveLength(1);
    // Replaying the used pin on the same challenge fails.
    const replay = await verifyAuthChallenge(
      deps,
      verifyEvent(retry.created?.response.privateChallengeParameters ?? {}, '1234'),
    );
    expect(replay.response.answerCorrect).toBe(false);
  });

  it('fails the attempt after 5 wrong tries', async () => {
    const session: Session = [];
    for (let index = 0; index < 5; index += 1) await round(session, '0000');
    const after = await round(session, '1234');
    expect(after.defined.response.failAuthentication).toBe(true);
    expect(after.created).toBeUndefined();
  });

  it('refuses a pin after 10 minutes, then issues a fresh one', async () => {
    const session: Session = [];
    const defined = defineAuthChallenge(defineEvent(session));
    expect(defined.response.challengeName).toBe('CUSTOM_CHALLENGE');
    const created = await createAuthChallenge(deps, createEvent(session));
    clock.advance(PIN_RULES.validityMs);
    const late = await verifyAuthChallenge(
      deps,
      verifyEvent(created.response.privateChallengeParameters, '1234'),
    );
    expect(late.response.answerCorrect).toBe(false);
    session.push({
      challengeName: 'CUSTOM_CHALLENGE',
      challengeResult: false,
      challengeMetadata: created.response.challengeMetadata,
    });
    nextPin = 5555;
    const fresh = await round(session, '5555');
    expect(fresh.created?.response.challengeMetadata).not.toBe(created.response.challengeMetadata);
    expect(fresh.verified?.response.answerCorrect).toBe(true);
  });

  it('binds a pin to its attempt: a pin of another attempt is refused', async () => {
    const a = await createAuthChallenge(deps, createEvent([]));
    nextPin = 2222;
    const b = await createAuthChallenge(deps, createEvent([]));
    const crossed = await verifyAuthChallenge(
      deps,
      verifyEvent(b.response.privateChallengeParameters, '1234'),
    );
    expect(crossed.response.answerCorrect).toBe(false);
    const own = await verifyAuthChallenge(
      deps,
      verifyEvent(a.response.privateChallengeParameters, '1234'),
    );
    expect(own.response.answerCorrect).toBe(true);
  });

  it('RESEND after the cooldown sends a new pin under a new challenge; before it, it is a try', async () => {
    const session: Session = [];
    const early = await round(session, 'RESEND');
    expect(early.verified?.response.answerCorrect).toBe(false);
    expect(
      fake.pins.get(early.created?.response.privateChallengeParameters.challengeId ?? '')?.tries,
    ).toBe(1);
    clock.advance(PIN_RULES.resendCooldownMs);
    const resend = await round(session, 'RESEND');
    expect(resend.created?.response.challengeMetadata).toBe(
      early.created?.response.challengeMetadata,
    );
    expect(mail.sent).toHaveLength(1);
    nextPin = 7777;
    const fresh = await round(session, '7777');
    expect(fresh.created?.response.challengeMetadata).not.toBe(
      early.created?.response.challengeMetadata,
    );
    expect(mail.sent.map((sent) => sent.pin)).toEqual(['1234', '7777']);
    expect(fresh.verified?.response.answerCorrect).toBe(true);
    // The retired pin no longer works.
    const old = await verifyAuthChallenge(
      deps,
      verifyEvent(early.created?.response.privateChallengeParameters ?? {}, '1234'),
    );
    expect(old.response.answerCorrect).toBe(false);
  });

  it('refuses a blocked account with login.errors.403', async () => {
    const account = fake.accounts.get(USER_ID);
    if (account !== undefined) account.blocked = true;
    await expect(createAuthChallenge(deps, createEvent([]))).rejects.toThrow(
      new LoginRefused('login.errors.403'),
    );
    expect(mail.sent).toEqual([]);
  });

  it('gives an unknown e-mail a decoy: same shape, same repo calls, nothing sent, never correct', async () => {
    const known = await createAuthChallenge(deps, createEvent([]));
    const knownCalls = [...fake.calls];
    fake.calls.length = 0;
    const unknown = await createAuthChallenge(deps, createEvent([], 'nobody@example.com', false));
    expect(fake.calls).toEqual(knownCalls);
    expect(mail.sent).toHaveLength(1);
    expect(Object.keys(unknown.response.publicChallengeParameters)).toEqual(
      Object.keys(known.response.publicChallengeParameters),
    );
    expect(unknown.response.publicChallengeParameters.destination).toBe('n•••@e•••.com');

    fake.calls.length = 0;
    await verifyAuthChallenge(deps, verifyEvent(known.response.privateChallengeParameters, '0000'));
    const knownVerifyCalls = [...fake.calls];
    fake.calls.length = 0;
    for (const answer of ['1234', '0000', '9999']) {
      const verified = await verifyAuthChallenge(
        deps,
        verifyEvent(
          unknown.response.privateChallengeParameters,
          answer,
          'nobody@example.com',
          false,
        ),
      );
      expect(verified.response.answerCorrect).toBe(false);
    }
    expect(fake.calls.slice(0, knownVerifyCalls.length)).toEqual(knownVerifyCalls);
  });

  it('pads the create trigger to its minimum duration (decoys take as long as sends)', async () => {
    const waits: number[] = [];
    await createAuthChallenge(
      { ...deps, createMinMs: 300, sleep: async (ms) => void waits.push(ms) },
      createEvent([], 'nobody@example.com', false),
    );
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(250);
  });

  it('brute force: 10,000 guesses → 0 successes, rate_limited after 100 failures in an hour', async () => {
    let successes = 0;
    let limited = 0;
    let failures = 0;
    nextPin = 8642;
    for (let guess = 0; guess < 10_000; guess += 1) {
      const answer = String((guess * 7919) % 10_000).padStart(4, '0');
      // Every value is tried, the right one too (at guess 1918): by then the account is limited.
      try {
        const created = await createAuthChallenge(deps, createEvent([]));
        const verified = await verifyAuthChallenge(
          deps,
          verifyEvent(created.response.privateChallengeParameters, answer),
        );
        if (verified.response.answerCorrect) successes += 1;
        else failures += 1;
      } catch (error) {
        expect(error).toEqual(new LoginRefused('rate_limited'));
        limited += 1;
      }
    }
    expect(successes).toBe(0);
    expect(failures).toBe(PIN_RULES.failuresPerHour);
    expect(limited).toBe(10_000 - PIN_RULES.failuresPerHour);
    // Two hours later the window is clear again.
    clock.advance(2 * 3_600_000);
    const created = await createAuthChallenge(deps, createEvent([]));
    expect(created.response.publicChallengeParameters.step).toBe('email');
  });
});
