import { beforeAll, describe, expect, it } from 'vitest';
import { useTwinEnv } from '../../infra/local/test/twin-context';
import { dynamoDocumentClient } from '../core/clients';
import { readEnv } from '../core/env';
import { createAccountsRepo, type AccountsRepo } from './accounts.repo';
import { failureBuckets, failureTtl, PIN_RULES } from './pins';
import {
  answerPin,
  lastPin,
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

  it('refuses with rate_limited once 100 pins failed within the hour', async (context) => {
    if (!hasCognito) context.skip();
    const user = await signUp();
    const now = new Date();
    // 95 failures already this hour; one attempt of 5 wrong pins reaches the limit.
    for (let index = 0; index < PIN_RULES.failuresPerHour - 5; index += 1) {
      await repo.recordFailure({
        challengeId: undefined,
        userName: user.id,
        hourBucket: failureBuckets(now).current,
        ttl: failureTtl(now),
      });
    }
    let step: Step = await start(user.email);
    const bad = (await lastPin('email', user.email)) === '0000' ? '1111' : '0000';
    for (let index = 0; index < 4; index += 1) step = await answer(step, bad);
    await expect(answer(step, bad)).rejects.toMatchObject({ name: 'NotAuthorizedException' });
    const refused = await start(user.email).catch((error: unknown) => error);
    expect(refused).toMatchObject({ name: 'UserLambdaValidationException' });
    expect((refused as Error).message).toContain('rate_limited');
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
