/**
 * The JWT authorizer mechanism: routes whose auth is 'user' or 'admin' need a configured Cognito
 * user pool; with one, they get the JWT authorizer and public routes stay open.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import type { HttpRoute } from '../../functions/routes';
import { buildApp, handlersOf, stubBundles } from './app';
import { formatViolations, nagViolations } from './nag';

const routes: HttpRoute[] = [
  {
    method: 'GET',
    path: '/api/health',
    handler: 'system/handlers/get-health',
    auth: 'public',
    group: 'core',
  },
  {
    method: 'POST',
    path: '/api/me/things',
    handler: 'things/handlers/create',
    auth: 'user',
    group: 'market',
  },
  {
    method: 'DELETE',
    path: '/api/admin/things/{id}',
    handler: 'things/handlers/remove',
    auth: 'admin',
    group: 'market',
  },
];
const workDir = mkdtempSync(path.join(os.tmpdir(), 'market-auth-'));
const assetDir = stubBundles(handlersOf({ routes }), path.join(workDir, 'bundles'));
const outdir = (): string => mkdtempSync(path.join(workDir, 'out-'));

afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

describe('JWT authorizer', () => {
  it('fails the synth with a clear message when a route needs a user and no pool is set', () => {
    expect(() => buildApp({ assetDir, routes, outdir: outdir(), nag: false })).toThrow(
      /2 route\(s\) need a signed-in user but no Cognito user pool is configured.*POST \/api\/me\/things.*-c userPoolId=/,
    );
  });

  it('protects user and admin routes with the Cognito JWT authorizer (production shape)', () => {
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
