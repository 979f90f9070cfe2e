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
import { THROTTLE_RULES } from './login-throttle';
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

/** The caller's IP as the twin's Cognito passes it (request.userContextData.ipAddress). */
function from(source: string | undefined) {
  return source === undefined ? {} : { userContextData: { ipAddress: source } };
}

function createEvent(session: Session, userName = USER_ID, found = true, source?: string) {
  return {
    ...base(userName, 'CreateAuthChallenge_Authentication'),
    request: {
      userAttributes: attributes(userName, found),
      challengeName: 'CUSTOM_CHALLENGE',
      session,
      ...(found ? {} : { userNotFound: true }),
      ...from(source),
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
  source?: string,
) {
  return {
    ...base(userName, 'VerifyAuthChallengeResponse_Authentication'),
    request: {
      userAttributes: attributes(userName, found),
      privateChallengeParameters,
      challengeAnswer: answer,
      ...(found ? {} : { userNotFound: true }),
      ...from(source),
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
  async function round(
    session: Session,
    answer: string,
    userName = USER_ID,
    found = true,
    source?: string,
  ) {
    const defined = defineAuthChallenge(defineEvent(session, userName, found));
    if (defined.response.challengeName !== 'CUSTOM_CHALLENGE') return { defined };
    const created = await createAuthChallenge(deps, createEvent(session, userName, found, source));
    const verified = await verifyAuthChallenge(
      deps,
      verifyEvent(created.response.privateChallengeParameters, answer, userName, found, source),
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

  /** 10,000 guesses at the clock's current time, every value tried, the right one too. */
  async function bruteForce(source: string | undefined) {
    let successes = 0;
    let failures = 0;
    const waits: number[] = [];
    nextPin = 8642;
    for (let guess = 0; guess < 10_000; guess += 1) {
      const answer = String((guess * 7919) % 10_000).padStart(4, '0');
      try {
        const created = await createAuthChallenge(deps, createEvent([], USER_ID, true, source));
        const verified = await verifyAuthChallenge(
          deps,
          verifyEvent(created.response.privateChallengeParameters, answer, USER_ID, true, source),
        );
        if (verified.response.answerCorrect) successes += 1;
        else failures += 1;
      } catch (error) {
        expect(error).toBeInstanceOf(LoginRefused);
        const refused = error as LoginRefused;
        expect(refused.code).toBe('login.errors.wait');
        expect(refused.message).toBe(`login.errors.wait:${refused.retryAfterSeconds}`);
        waits.push(refused.retryAfterSeconds ?? 0);
      }
    }
    return { successes, failures, waits };
  }

  it('brute force without a source: 10,000 guesses → 0 successes, the account backs off after 10', async () => {
    const { successes, failures, waits } = await bruteForce(undefined);
    expect(successes).toBe(0);
    expect(failures).toBe(THROTTLE_RULES.account.free);
    expect(waits).toHaveLength(10_000 - THROTTLE_RULES.account.free);
    expect(waits.every((seconds) => seconds >= 1 && seconds <= 60)).toBe(true);
    // The back-off is a short delay, not a lock: a second later the next try is allowed.
    clock.advance(1_000);
    const created = await createAuthChallenge(deps, createEvent([]));
    expect(created.response.publicChallengeParameters.step).toBe('email');
  });

  it('brute force from one source: 10,000 guesses → 0 successes, the pair backs off after 5', async () => {
    const { successes, failures, waits } = await bruteForce('192.0.2.1');
    expect(successes).toBe(0);
    expect(failures).toBe(THROTTLE_RULES.pair.free);
    expect(waits).toHaveLength(10_000 - THROTTLE_RULES.pair.free);
    // Another source is not slowed by that pair (the account is under its free 10).
    const created = await createAuthChallenge(deps, createEvent([], USER_ID, true, '198.51.100.7'));
    expect(created.response.publicChallengeParameters.step).toBe('email');
  });

  /** One wrong answer from `source`, waiting first when told to (a patient caller). */
  async function failFrom(source: string, userName = USER_ID, found = true) {
    for (;;) {
      try {
        const created = await createAuthChallenge(deps, createEvent([], userName, found, source));
        await verifyAuthChallenge(
          deps,
          verifyEvent(created.response.privateChallengeParameters, '0000', userName, found, source),
        );
        return;
      } catch (error) {
        if (!(error instanceof LoginRefused) || error.retryAfterSeconds === undefined) throw error;
        clock.advance(error.retryAfterSeconds * 1000);
      }
    }
  }

  it('tells how long to wait, and lets the caller in once the wait is over', async () => {
    const attacker = '192.0.2.1';
    for (let index = 0; index < 6; index += 1) await failFrom(attacker);
    // 6 failures of the pair: 4 s after the latest.
    await expect(
      createAuthChallenge(deps, createEvent([], USER_ID, true, attacker)),
    ).rejects.toThrow(new LoginRefused('login.errors.wait', 4));
    clock.advance(3_000);
    await expect(
      createAuthChallenge(deps, createEvent([], USER_ID, true, attacker)),
    ).rejects.toThrow(new LoginRefused('login.errors.wait', 1));
    clock.advance(1_000);
    const created = await createAuthChallenge(deps, createEvent([], USER_ID, true, attacker));
    expect(created.response.publicChallengeParameters.step).toBe('email');
  });

  it('the owner from a trusted source gets in at once while another source hammers', async () => {
    const home = '203.0.113.7';
    // A first login from home completes: home becomes trusted.
    const first: Session = [];
    await round(first, '1234', USER_ID, true, home);
    nextPin = 42;
    await round(first, '0042', USER_ID, true, home);
    expect(defineAuthChallenge(defineEvent(first)).response.issueTokens).toBe(true);
    expect([...fake.trusted.keys()]).toEqual([`LOGINFAIL#${USER_ID.toLowerCase()}|TRUST#${home}`]);

    // 40 sources fail once each, obeying the waits: untrusted sources now wait for the account.
    for (let index = 0; index < 40; index += 1) await failFrom(`10.0.0.${index}`);
    await expect(
      createAuthChallenge(deps, createEvent([], USER_ID, true, '198.51.100.7')),
    ).rejects.toThrow(new LoginRefused('login.errors.wait', 60));

    // The owner at home: both pins, no wait.
    nextPin = 1111;
    const session: Session = [];
    expect(
      (await round(session, '1111', USER_ID, true, home)).verified?.response.answerCorrect,
    ).toBe(true);
    nextPin = 2222;
    expect(
      (await round(session, '2222', USER_ID, true, home)).verified?.response.answerCorrect,
    ).toBe(true);
    expect(defineAuthChallenge(defineEvent(session)).response.issueTokens).toBe(true);
  });

  it('reads the same counters for a decoy and refuses it the same way', async () => {
    const source = '192.0.2.9';
    for (let index = 0; index < 6; index += 1) {
      await failFrom(source, 'nobody@example.com', false);
    }
    await expect(
      createAuthChallenge(deps, createEvent([], 'nobody@example.com', false, source)),
    ).rejects.toThrow(new LoginRefused('login.errors.wait', 4));
  });
});
