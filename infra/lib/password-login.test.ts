/**
 * The passwordLogin switch in the identity stack: off (this deployment) the web client allows only
 * custom auth and the strong unused policy stays; on (`-c features='{"passwordLogin":true}'`)
 * ALLOW_USER_PASSWORD_AUTH, the spec's 6-character policy, and the pre-authentication trigger.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import type { HttpRoute } from '../../functions/routes';
import { buildApp, handlersOf, stubBundles } from './app';
import { formatViolations, nagViolations } from './nag';
import { HEALTH_ROUTE } from './testing';

const routes: HttpRoute[] = [HEALTH_ROUTE];
const TRIGGERS = {
  defineAuthChallenge: 'accounts/triggers/define-auth-challenge',
  createAuthChallenge: 'accounts/triggers/create-auth-challenge',
  verifyAuthChallengeResponse: 'accounts/triggers/verify-auth-challenge',
  preAuthentication: 'accounts/triggers/pre-authentication',
};
const workDir = mkdtempSync(path.join(os.tmpdir(), 'market-password-'));
const assetDir = stubBundles(
  handlersOf({ routes, cognitoTriggers: TRIGGERS }),
  path.join(workDir, 'bundles'),
);

afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

function identityOf(features?: string): Template {
  const market = buildApp({
    assetDir,
    routes,
    outdir: mkdtempSync(path.join(workDir, 'out-')),
    nag: false,
    cognitoTriggers: TRIGGERS,
    context: {
      emailSender: 'no-reply@example.com',
      ...(features === undefined ? {} : { features }),
    },
  });
  market.app.synth();
  expect(formatViolations(nagViolations(market.app))).toBe('');
  return Template.fromStack(market.identity as Stack);
}

describe('passwordLogin switch → the user pool and its web client', () => {
  it('off: custom auth only, the strong policy, pre-authentication attached (a no-op)', () => {
    const identity = identityOf();
    identity.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      ExplicitAuthFlows: ['ALLOW_CUSTOM_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
    });
    identity.hasResourceProperties('AWS::Cognito::UserPool', {
      Policies: { PasswordPolicy: Match.objectLike({ MinimumLength: 12 }) },
      LambdaConfig: Match.objectLike({ PreAuthentication: Match.anyValue() }),
    });
  });

  it('on: ALLOW_USER_PASSWORD_AUTH, 6-character policy, the trigger gets the switch', () => {
    const identity = identityOf('{"passwordLogin":true}');
    identity.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      ExplicitAuthFlows: [
        'ALLOW_USER_PASSWORD_AUTH',
        'ALLOW_CUSTOM_AUTH',
        'ALLOW_REFRESH_TOKEN_AUTH',
      ],
    });
    identity.hasResourceProperties('AWS::Cognito::UserPool', {
      Policies: {
        PasswordPolicy: Match.objectLike({
          MinimumLength: 6,
          RequireNumbers: false,
          RequireSymbols: false,
          RequireUppercase: false,
          RequireLowercase: false,
        }),
      },
      LambdaConfig: Match.objectLike({ PreAuthentication: Match.anyValue() }),
    });
    identity.hasResourceProperties('AWS::Lambda::Function', {
      Tags: Match.arrayWith([
        { Key: 'market:handler', Value: 'accounts/triggers/pre-authentication' },
      ]),
      Environment: { Variables: Match.objectLike({ FEATURE_PASSWORD_LOGIN: 'true' }) },
    });
  });
});
