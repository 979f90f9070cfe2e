import { beforeAll, describe, expect, it } from 'vitest';
import { useTwinEnv } from '../../infra/local/test/twin-context';
import { dynamoDocumentClient } from '../core/clients';
import { readEnv } from '../core/env';
import { createAccountsRepo, type AccountsRepo } from './accounts.repo';
import {
  answerPin,
  lastPin,
  logIn,
  signUp as signUpThroughGateway,
  startLogin,
  type ChallengeStep,
} from './testing/session';

/**
 * The login through the twin's local Cognito endpoint running our triggers: e-mail pin, phone
 * pin, tokens; pins read from the outbox. Skips only when the twin sets no COGNITO_ENDPOINT.
 */
const RUN = `l${Date.now().toString(36)}`;
let repo: AccountsRepo;
let hasCognito = false;

beforeAll(() => {
  const context = useTwinEnv();
  hasCognito = (context.env.COGNITO_ENDPOINT ?? '') !== '';
  const env = readEnv();
  repo = createAccountsRepo({ doc: dynamoDocumentClient(env), tableName: env.tableName });
});

const signUp = () => signUpThroughGateway(RUN);
const start = startLogin;
const answer = answerPin;
type Step = ChallengeStep;

describe('login with an e-mail pin, then a phone pin (local Cognito endpoint, real triggers)', () => {
  it('issues tokens after both pins and marks the account verified', async (context) => {
    if (!hasCognito) context.skip();
    const user = await signUp();
    const first = await start(user.email);
    expect(first.ChallengeName).toBe('CUSTOM_CHALLENGE');
    expect(first.ChallengeParameters).toMatchObject({ step: 'email' });
    const wrong = await answer(
      first,
      '0000' === (await lastPin('email', user.email)) ? '1111' : '0000',
    );
    expect(wrong.ChallengeParameters).toMatchObject({ step: 'email' });
    const second = await answer(wrong, await lastPin('email', user.email));
    expect(second.ChallengeParameters).toMatchObject({ step: 'phone' });
    const done = await answer(second, await lastPin('sms', user.phone));
    expect(done.AuthenticationResult?.AccessToken).toBeTruthy();
    const account = await repo.getAccount(user.id);
    expect(account).toMatchObject({ email_verified: true, phone_verified: true });
  });

  it('fails the attempt after 5 wrong e-mail pins', async (context) => {
    if (!hasCognito) context.skip();
    const user = await signUp();
    let step: Step = await start(user.email);
    const bad = (await lastPin('email', user.email)) === '0000' ? '1111' : '0000';
    for (let index = 0; index < 4; index += 1) step = await answer(step, bad);
    await expect(answer(step, bad)).rejects.toMatchObject({ name: 'NotAuthorizedException' });
  });

  /**
   * `count` wrong e-mail pins from `source`, as a patient attacker sends them: a refusal's wait is
   * waited out, then a new attempt starts.
   */
  async function failFrom(email: string, source: string, count: number) {
    let failed = 0;
    let step: Step | undefined;
    while (failed < count) {
      let answering = false;
      try {
        step ??= await start(email, source);
        const bad = (await lastPin('email', email)) === '0000' ? '1111' : '0000';
        answering = true;
        step = await answer(step, bad, source);
        failed += 1;
      } catch (error) {
        step = undefined;
        // The attempt's 5th wrong pin is counted, then ends the attempt.
        if ((error as Error).name === 'NotAuthorizedException') {
          if (answering) failed += 1;
          continue;
        }
        // A refusal: by the verify trigger before the answer was checked, or by the create
        // trigger (after the answer was counted, when it prepares the next challenge).
        if (answering && /^CreateAuthChallenge/.test((error as Error).message)) failed += 1;
        if (failed >= count) break;
        await new Promise((resolve) => setTimeout(resolve, waitOf(error) * 1000));
      }
    }
  }

  /** The wait in seconds a refused login carries ("… failed with error login.errors.wait:N."). */
  function waitOf(error: unknown): number {
    expect(error).toMatchObject({ name: 'UserLambdaValidationException' });
    const match = /login\.errors\.wait:(\d+)/.exec((error as Error).message);
    expect(match).not.toBeNull();
    return Number(match?.[1]);
  }

  it('lets the owner in from their own source while attackers hammer the account', async (context) => {
    if (!hasCognito) context.skip();
    const user = await signUp();
    const home = '203.0.113.7';
    // The owner logged in from home before: home is trusted for this account.
    await logIn(user, home);

    // Three attacker sources fail 14 pins in all, obeying the waits: the account is past its 10
    // free failures, so untrusted sources wait 16 s after the latest.
    await failFrom(user.email, '192.0.2.1', 5);
    await failFrom(user.email, '192.0.2.2', 5);
    await failFrom(user.email, '192.0.2.3', 4);

    // Attackers and strangers now wait, and are told how long.
    for (const source of ['192.0.2.1', '192.0.2.2', '192.0.2.3', '198.51.100.9']) {
      const wait = waitOf(await start(user.email, source).catch((error: unknown) => error));
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(16);
    }

    // The owner from home: both pins at once, tokens.
    const tokens = await logIn(user, home);
    expect(tokens.accessToken).toBeTruthy();
  });

  it('lets a new source in once the attack stopped, within the announced wait', async (context) => {
    if (!hasCognito) context.skip();
    const user = await signUp();
    const attacker = '192.0.2.10';
    await failFrom(user.email, attacker, 5);
    // One source's 5 failures (its free tries) slow only that source: its next try waits 2 s.
    const refused = await start(user.email, attacker).catch((error: unknown) => error);
    expect(waitOf(refused)).toBeLessThanOrEqual(2);
    // The owner from a source never seen for this account gets straight in.
    const tokens = await logIn(user, '198.51.100.20');
    expect(tokens.accessToken).toBeTruthy();
  });

  it('answers an unknown e-mail with the same challenge shape, and never lets it in', async (context) => {
    if (!hasCognito) context.skip();
    const unknown = await start(`${RUN}-nobody@example.com`);
    expect(Object.keys(unknown.ChallengeParameters ?? {}).sort()).toEqual(
      ['USERNAME', 'destination', 'resendAfter', 'step'].sort(),
    );
    let step: Step = unknown;
    for (let index = 0; index < 4; index += 1) {
      step = await answer(step, String(index).padStart(4, '0'));
      expect(step.AuthenticationResult).toBeUndefined();
    }
    await expect(answer(step, '9999')).rejects.toMatchObject({ name: 'NotAuthorizedException' });
  });
});
