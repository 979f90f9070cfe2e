import type { DefineAuthChallengeTriggerEvent } from 'aws-lambda';
import { defineAuthChallenge } from '../login';

/** Cognito DefineAuthChallenge trigger: e-mail pin, then phone pin, then tokens. */
export async function handler(
  event: DefineAuthChallengeTriggerEvent,
): Promise<DefineAuthChallengeTriggerEvent> {
  return defineAuthChallenge(event);
}
