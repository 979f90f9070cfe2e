/**
 * Identity and the JWT authorizer: the app's own Cognito user pool (identity stack) by default, an
 * imported one with -c userPoolId; routes whose auth is 'user' or 'admin' get the JWT authorizer
 * and public routes stay open.
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

const routes: HttpRoute[] = [
  HEALTH_ROUTE,
  {
    method: 'POST',
    path: '/api/me/things',
    handler: 'things/handlers/create',
    auth: 'user',
    group: 'market',
  },
  {
    method: 'POST',
    path: '/api/me/account',
    handler: 'accounts/handlers/update',
    auth: 'user',
    group: 'accounts',
  },
  {
    method: 'DELETE',
    path: '/api/admin/things/{id}',
    handler: 'things/handlers/remove',
    auth: 'admin',
    group: 'market',
  },
];
const TRIGGERS = {
  defineAuthChallenge: 'accounts/triggers/define-auth-challenge',
  createAuthChallenge: 'accounts/triggers/create-auth-challenge',
  verifyAuthChallengeResponse: 'accounts/triggers/verify-auth-challenge',
};
const workDir = mkdtempSync(path.join(os.tmpdir(), 'market-auth-'));
const assetDir = stubBundles(
  handlersOf({ routes, cognitoTriggers: TRIGGERS }),
  path.join(workDir, 'bundles'),
);
const outdir = (): string => mkdtempSync(path.join(workDir, 'out-'));

afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

describe('JWT authorizer', () => {
  it('creates the user pool, its admin group and the web client, and trusts them by default', () => {
    const market = buildApp({
      assetDir,
      routes,
      outdir: outdir(),
      nag: false,
      cognitoTriggers: TRIGGERS,
      context: { adminEmails: 'root@example.com', emailSender: 'no-reply@example.com' },
    });
    market.app.synth();
    expect(formatViolations(nagViolations(market.app))).toBe('');
    const identity = Template.fromStack(market.identity as Stack);
    identity.hasResourceProperties('AWS::Cognito::UserPool', {
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      AliasAttributes: ['email'],
      UsernameConfiguration: { CaseSensitive: false },
      LambdaConfig: {
        DefineAuthChallenge: Match.anyValue(),
        CreateAuthChallenge: Match.anyValue(),
        VerifyAuthChallengeResponse: Match.anyValue(),
      },
    });
    identity.hasResource('AWS::Cognito::UserPool', { DeletionPolicy: 'Retain' });
    // Per IP at the edge: a regional web ACL on the pool limits each IP's sign-in calls.
    identity.hasResourceProperties('AWS::WAFv2::WebACL', {
      Scope: 'REGIONAL',
      DefaultAction: { Allow: {} },
      Rules: [
        Match.objectLike({
          Action: { Block: {} },
          Statement: {
            RateBasedStatement: Match.objectLike({
              Limit: 100,
              EvaluationWindowSec: 300,
              AggregateKeyType: 'IP',
              ScopeDownStatement: {
                RegexMatchStatement: Match.objectLike({
                  RegexString: 'InitiateAuth$|RespondToAuthChallenge$',
                  FieldToMatch: { SingleHeader: { Name: 'x-amz-target' } },
                }),
              },
            }),
          },
        }),
      ],
    });
    identity.hasResourceProperties('AWS::WAFv2::WebACLAssociation', {
      ResourceArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^UserPool'), 'Arn'] },
      WebACLArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^LoginWebAcl'), 'Arn'] },
    });
    identity.hasResourceProperties('AWS::Cognito::UserPoolGroup', { GroupName: 'admin' });
    identity.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      GenerateSecret: false,
      ExplicitAuthFlows: ['ALLOW_CUSTOM_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
      PreventUserExistenceErrors: 'ENABLED',
      EnableTokenRevocation: true,
      AccessTokenValidity: 60,
      IdTokenValidity: 60,
      RefreshTokenValidity: 525600,
      TokenValidityUnits: { AccessToken: 'minutes', IdToken: 'minutes', RefreshToken: 'minutes' },
      AuthSessionValidity: 3,
    });
    // The triggers: one Lambda each, invocable by Cognito, allowed to write the table and to send
    // e-mail from the sender and SMS (no topics).
    for (const handler of Object.values(TRIGGERS)) {
      identity.hasResourceProperties('AWS::Lambda::Function', {
        Tags: Match.arrayWith([{ Key: 'market:handler', Value: handler }]),
        Environment: {
          Variables: Match.objectLike({
            EMAIL_SENDER: 'no-reply@example.com',
            ADMIN_EMAILS: 'root@example.com',
          }),
        },
      });
    }
    identity.resourceCountIs('AWS::Lambda::Permission', 3);
    identity.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Action: ['ses:SendEmail', 'ses:SendRawEmail'],
            Condition: { StringEquals: { 'ses:FromAddress': 'no-reply@example.com' } },
          }),
          Match.objectLike({ Action: 'sns:Publish', Effect: 'Allow', Resource: '*' }),
          Match.objectLike({ Action: 'sns:Publish', Effect: 'Deny' }),
        ]),
      },
    });
    // The JWT authorizer trusts that pool and client.
    Template.fromStack(market.api).hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      AuthorizerType: 'JWT',
      JwtConfiguration: { Issuer: Match.anyValue(), Audience: [Match.anyValue()] },
    });
    // Every function knows the pool, the client, the sender and the admins.
    const marketStack = Template.fromStack(market.routeStacks.market as Stack);
    marketStack.hasResourceProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: Match.objectLike({
          USER_POOL_ID: Match.anyValue(),
          USER_POOL_CLIENT_ID: Match.anyValue(),
          EMAIL_SENDER: 'no-reply@example.com',
          ADMIN_EMAILS: 'root@example.com',
        }),
      },
    });
    // Functions of the accounts group may call the Admin* operations on the pool.
    Template.fromStack(market.routeStacks.accounts as Stack).hasResourceProperties(
      'AWS::IAM::Policy',
      {
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({
              Action: Match.arrayWith([
                'cognito-idp:AdminCreateUser',
                'cognito-idp:AdminDisableUser',
              ]),
            }),
          ]),
        },
      },
    );
    for (const key of ['POST /api/me/things', 'DELETE /api/admin/things/{id}']) {
      marketStack.hasResourceProperties('AWS::ApiGatewayV2::Route', {
        RouteKey: key,
        AuthorizationType: 'JWT',
      });
    }
  });

  it('trusts an imported pool with -c userPoolId (production shape)', () => {
    const market = buildApp({
      assetDir,
      routes,
      outdir: outdir(),
      nag: false,
      context: {
        stage: 'prod',
        userPoolId: 'eu-west-1_AbC123',
        userPoolClientId: 'client1',
        domainName: 'market.example.com',
        certificateArn:
          'arn:aws:acm:us-east-1:123456789012:certificate/0a1b2c3d-0000-1111-2222-333344445555',
      },
    });
    market.app.synth();
    // An imported pool: no identity stack of our own; the browser may call its region's Cognito.
    expect(market.identity).toBeUndefined();
    expect(JSON.stringify(Template.fromStack(market.web).toJSON())).toContain(
      'https://cognito-idp.eu-west-1.amazonaws.com',
    );
    // The production shape passes cdk-nag too (custom domain: TLSv1.2_2021 viewer policy).
    expect(formatViolations(nagViolations(market.app))).toBe('');
    const web = Template.fromStack(market.web);
    web.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: {
        Aliases: ['market.example.com'],
        ViewerCertificate: { MinimumProtocolVersion: 'TLSv1.2_2021', SslSupportMethod: 'sni-only' },
      },
    });
    // A known web origin gets CORS preflights answered by API Gateway.
    Template.fromStack(market.api).hasResourceProperties('AWS::ApiGatewayV2::Api', {
      ProtocolType: 'HTTP',
      CorsConfiguration: { AllowOrigins: ['https://market.example.com'], AllowCredentials: true },
    });
    Template.fromStack(market.api).hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      AuthorizerType: 'JWT',
      IdentitySource: ['$request.header.Authorization'],
      JwtConfiguration: {
        Issuer: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbC123',
        Audience: ['client1'],
      },
    });
    const marketStack = Template.fromStack(market.routeStacks.market as Stack);
    for (const key of ['POST /api/me/things', 'DELETE /api/admin/things/{id}']) {
      marketStack.hasResourceProperties('AWS::ApiGatewayV2::Route', {
        RouteKey: key,
        AuthorizationType: 'JWT',
      });
    }
    Template.fromStack(market.routeStacks.core as Stack).hasResourceProperties(
      'AWS::ApiGatewayV2::Route',
      {
        RouteKey: 'GET /api/health',
        AuthorizationType: 'NONE',
      },
    );
    // Without dist/web the web stack still synthesizes, without the upload.
    Template.fromStack(market.web).resourceCountIs('Custom::CDKBucketDeployment', 0);
  });
});
