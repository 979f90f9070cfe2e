/**
 * The Cognito custom-auth triggers as the CDK app sees them: `cognitoTriggers` of
 * functions/routes.ts whose module exists (the trigger modules arrive with the accounts feature;
 * until they exist the user pool is built without triggers and nothing bundles them).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { allHandlers, cognitoTriggers } from '../../functions/routes';
import { REPO_ROOT } from './bundle';

export type CognitoTriggerName = keyof typeof cognitoTriggers;

/** The triggers whose `functions/<handler>.ts` exists, by trigger name. */
export function presentCognitoTriggers(
  functionsDir = path.join(REPO_ROOT, 'functions'),
): Partial<Record<CognitoTriggerName, string>> {
  const present: Partial<Record<CognitoTriggerName, string>> = {};
  for (const [name, handler] of Object.entries(cognitoTriggers) as [CognitoTriggerName, string][]) {
    if (existsSync(path.join(functionsDir, `${handler}.ts`))) present[name] = handler;
  }
  return present;
}

/** Every handler the bundler builds: the route table's and the present Cognito triggers. */
export function bundledHandlers(): string[] {
  return [...new Set([...allHandlers(), ...Object.values(presentCognitoTriggers())])].sort();
}
