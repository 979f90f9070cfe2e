import type { CreateAuthChallengeTriggerEvent } from 'aws-lambda';
import { createAuthChallenge } from '../login';
import { loginDeps } from '../login.deps';

/** Cognito CreateAuthChallenge trigger: makes, stores and sends the step's pin. */
export async function handler(
  event: CreateAuthChallengeTriggerEvent,
): Promise<CreateAuthChallengeTriggerEvent> {
  return createAuthChallenge(loginDeps(), event);
}
