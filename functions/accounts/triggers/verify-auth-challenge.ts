import type { VerifyAuthChallengeResponseTriggerEvent } from 'aws-lambda';
import { verifyAuthChallenge } from '../login';
import { loginDeps } from '../login.deps';

/** Cognito VerifyAuthChallengeResponse trigger: checks the pin, counts failures. */
export async function handler(
  event: VerifyAuthChallengeResponseTriggerEvent,
): Promise<VerifyAuthChallengeResponseTriggerEvent> {
  return verifyAuthChallenge(loginDeps(), event);
}
