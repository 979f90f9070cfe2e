import {
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
  RespondToAuthChallengeCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import type { Twin } from '../infra/local/twin';
import { startDynamoCounter } from './dynamo-counter';
import { ms, percentile, table } from './stats';

/**
 * Sign-up and login on the twin: the login round trip (InitiateAuth, e-mail pin, phone pin, as
 * Amplify makes them) p50/p95, and the DynamoDB requests per call, counted by a proxy in front of
 * DynamoDB Local. The create trigger answers no sooner than 300 ms by design (an unknown e-mail
 * must take as long as a known one), so a login costs at least 2 × 300 ms.
 */
function pinFrom(twin: Twin, kind: 'email' | 'sms', to: string, after: string): string {
  const message = twin.outbox
    .messages()
    .find((entry) =>
      kind === 'email'
        ? entry.kind === 'email' && entry.to.includes(to) && entry.at > after
        : entry.kind === 'sms' && entry.phoneNumber === to && entry.at > after,
    );
  const text =
    message === undefined ? '' : message.kind === 'email' ? (message.text ?? '') : message.message;
  const pin = /\b(\d{4})\b/.exec(text)?.[1];
  if (pin === undefined) throw new Error(`no ${kind} pin for ${to}`);
  return pin;
}

/**
 * The three login calls as Amplify makes them (InitiateAuth, the e-mail pin, the phone pin), with
 * the pins read from the twin's outbox. `measure`/`reset` bracket each call (request counts).
 */
export async function logInWithPins(
  twin: Twin,
  cognito: CognitoIdentityProviderClient,
  clientId: string,
  user: { email: string; phone: string },
  measure: () => number = () => 0,
  reset: () => void = () => undefined,
): Promise<{ accessToken: string; requests: [number, number, number] }> {
  const after = new Date().toISOString();
  reset();
  const first = await cognito.send(
    new InitiateAuthCommand({
      AuthFlow: 'CUSTOM_AUTH',
      ClientId: clientId,
      AuthParameters: { USERNAME: user.email },
    }),
  );
  const initiate = measure();
  reset();
  const second = await cognito.send(
    new RespondToAuthChallengeCommand({
      ClientId: clientId,
      ChallengeName: 'CUSTOM_CHALLENGE',
      Session: first.Session,
      ChallengeResponses: {
        USERNAME: first.ChallengeParameters?.USERNAME ?? '',
        ANSWER: pinFrom(twin, 'email', user.email, after),
      },
    }),
  );
  const emailPin = measure();
  reset();
  const done = await cognito.send(
    new RespondToAuthChallengeCommand({
      ClientId: clientId,
      ChallengeName: 'CUSTOM_CHALLENGE',
      Session: second.Session,
      ChallengeResponses: {
        USERNAME: second.ChallengeParameters?.USERNAME ?? '',
        ANSWER: pinFrom(twin, 'sms', user.phone, after),
      },
    }),
  );
  const phonePin = measure();
  const accessToken = done.AuthenticationResult?.AccessToken;
  if (accessToken === undefined) throw new Error('login did not finish');
  return { accessToken, requests: [initiate, emailPin, phonePin] };
}

export async function benchLogin(twin: Twin, logins: number) {
  const counter = await startDynamoCounter(twin.urls.dynamodb);
  // The handlers run in this process: new clients pick the counting endpoint up.
  process.env.DYNAMODB_ENDPOINT = counter.url;
  const cognito = new CognitoIdentityProviderClient({
    region: 'us-east-1',
    endpoint: twin.urls.cognito,
  });
  const clientId = twin.cognito.clientId;
  try {
    const users: { email: string; phone: string }[] = [];
    const signUpCounts: number[] = [];
    for (let index = 0; index < logins; index += 1) {
      const stamp = `${Date.now().toString(36)}${index}`;
      const user = {
        user_option: 'individual',
        nick: `bench${stamp}`,
        email: `bench${stamp}@example.com`,
        phone: `+4477${String(Date.now() + index).slice(-8)}`,
        name: 'Bench',
        surname: 'User',
        terms: true,
      };
      counter.reset();
      const response = await fetch(`${twin.urls.http}/api/users/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user }),
      });
      if (response.status !== 201)
        throw new Error(`register answered ${response.status}: ${await response.text()}`);
      signUpCounts.push(counter.total());
      users.push({ email: user.email, phone: user.phone });
    }

    const steps: Record<'initiate' | 'emailPin' | 'phonePin', number[]> = {
      initiate: [],
      emailPin: [],
      phonePin: [],
    };
    const roundTrips: number[] = [];
    for (const user of users) {
      const started = performance.now();
      const login = await logInWithPins(
        twin,
        cognito,
        clientId,
        user,
        () => counter.total(),
        () => counter.reset(),
      );
      steps.initiate.push(login.requests[0]);
      steps.emailPin.push(login.requests[1]);
      steps.phonePin.push(login.requests[2]);
      roundTrips.push(performance.now() - started);
    }

    console.log(
      `\n4. Sign-up and login on the twin (${logins} users; local Cognito, real triggers)\n`,
    );
    console.log(
      table(
        ['login round trip (3 calls)', 'p50', 'p95'],
        [
          [
            'InitiateAuth + e-mail pin + phone pin',
            ms(percentile(roundTrips, 50)),
            ms(percentile(roundTrips, 95)),
          ],
        ],
      ),
    );
    const median = (values: number[]) => percentile(values, 50);
    console.log('');
    console.log(
      table(
        ['call', 'DynamoDB requests (median)'],
        [
          ['POST /api/users/register', median(signUpCounts)],
          ['InitiateAuth (define + create)', median(steps.initiate)],
          ['answer e-mail pin (verify + define + create)', median(steps.emailPin)],
          ['answer phone pin (verify + define)', median(steps.phonePin)],
        ],
      ),
    );
    return {
      loginP50: percentile(roundTrips, 50),
      loginP95: percentile(roundTrips, 95),
      dynamoRequests: {
        register: median(signUpCounts),
        initiate: median(steps.initiate),
        emailPin: median(steps.emailPin),
        phonePin: median(steps.phonePin),
      },
    };
  } finally {
    process.env.DYNAMODB_ENDPOINT = twin.urls.dynamodb;
    await counter.stop();
  }
}
