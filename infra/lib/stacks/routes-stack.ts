/**
 * One stateless stack per `group` of the route table: for each route a MarketFunction and its HTTP
 * API route (about 7 resources per route: function, role, policy, log group, permission,
 * integration, route), so a group stays well under CloudFormation's 500 resources per stack.
 */
import { Stack, type StackProps } from 'aws-cdk-lib';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import type { HttpRoute, StackGroup } from '../../../functions/routes';
import { httpRouteAccess } from '../access';
import type { MarketConfig } from '../config';
import { MarketFunction } from '../constructs/market-function';
import { acknowledge } from '../nag';
import { timeoutOf } from '../../../functions/core/budgets';
import { ENV } from '../../../functions/core/env';
import { pascalId, workflowArnPrefix } from '../names';
import { applyAccess, importStateful } from './stateful-refs';

export interface RoutesStackProps extends StackProps {
  config: MarketConfig;
  group: StackGroup;
  routes: readonly HttpRoute[];
  assetDir: string;
  httpApi: apigwv2.IHttpApi;
  /** Required when a route's auth is 'user' or 'admin'. */
  authorizer: apigwv2.IHttpRouteAuthorizer | undefined;
  /** WEB_ORIGIN of the handlers. */
  webOrigin: string;
  /** Public URL of the live channel (REALTIME_URL, answered by GET /api/config). */
  realtimeUrl: string;
  /** The user pool; functions of the 'accounts' group get the Admin* calls they make on it. */
  userPoolArn?: string;
  /** The live channel's connections endpoint for routes marked `live` (ApiStack.connectionsFor). */
  connectionsFor?: (consumer: Stack) => { apiId: string; stageName: string; callbackUrl: string };
}

/** What the accounts functions call on the pool (cognitoOperations.functions, plus groups). */
export const ACCOUNTS_POOL_ACTIONS = [
  'cognito-idp:AdminCreateUser',
  'cognito-idp:AdminGetUser',
  'cognito-idp:AdminUpdateUserAttributes',
  'cognito-idp:AdminDisableUser',
  'cognito-idp:AdminEnableUser',
  'cognito-idp:AdminUserGlobalSignOut',
  'cognito-idp:AdminAddUserToGroup',
  'cognito-idp:AdminRemoveUserFromGroup',
];

/** `GET /api/users/sellers` */
export function routeKey(route: Pick<HttpRoute, 'method' | 'path'>): string {
  return `${route.method} ${route.path}`;
}

export class RoutesStack extends Stack {
  /** The function of each route, by route key. */
  readonly functions: Record<string, MarketFunction> = {};

  constructor(scope: Construct, id: string, props: RoutesStackProps) {
    super(scope, id, props);
    const refs = importStateful(this, props.config);
    const usedIds = new Set<string>();

    for (const route of props.routes) {
      if (route.group !== props.group) {
        throw new Error(`${routeKey(route)} belongs to group ${route.group}, not ${props.group}`);
      }
      let id = pascalId(route.handler);
      if (usedIds.has(id)) id = `${id}${pascalId(route.method.toLowerCase())}`;
      if (usedIds.has(id)) throw new Error(`Two routes map to the construct id ${id}`);
      usedIds.add(id);

      const fn = new MarketFunction(this, id, {
        handler: route.handler,
        assetDir: props.assetDir,
        stage: props.config.stage,
        webOrigin: props.webOrigin,
        logRetentionDays: props.config.logRetentionDays,
        ...(route.memoryMb === undefined ? {} : { memorySize: route.memoryMb }),
        timeoutSeconds: timeoutOf(route),
        native: (route.native ?? []).length > 0,
        environment: { ...props.config.featureEnv, [ENV.realtimeUrl]: props.realtimeUrl },
      });
      applyAccess(fn, httpRouteAccess(route), refs);
      if (route.live === true || route.notify === true) {
        if (props.connectionsFor === undefined) {
          throw new Error(`${routeKey(route)} publishes live but no WebSocket API was given`);
        }
        fn.bindConnections(props.connectionsFor(this));
      }
      if (route.stripe === true) fn.bindStripeSecret(props.config.stripeSecretName);
      fn.bindWorkflowStarts(workflowArnPrefix(props.config), route.workflows ?? []);
      fn.bindTaskCallbacks(workflowArnPrefix(props.config), route.callbacks ?? []);
      if (route.notify === true) fn.bindEmailSender(props.config.emailSender);
      if (props.group === 'accounts' && props.userPoolArn !== undefined) {
        fn.role.addToPrincipalPolicy(
          new iam.PolicyStatement({
            actions: ACCOUNTS_POOL_ACTIONS,
            resources: [props.userPoolArn],
          }),
        );
      }
      this.functions[routeKey(route)] = fn;

      const needsToken = route.auth !== 'public';
      if (needsToken && props.authorizer === undefined) {
        // buildApp checks this up front; kept here for stacks built on their own.
        throw new Error(`${routeKey(route)} needs a JWT authorizer (auth '${route.auth}')`);
      }
      const httpRoute = new apigwv2.HttpRoute(this, `${id}Route`, {
        httpApi: props.httpApi,
        routeKey: apigwv2.HttpRouteKey.with(route.path, apigwv2.HttpMethod[route.method]),
        integration: new HttpLambdaIntegration(`${id}Integration`, fn.function),
        // 'admin' is the same token check here; the handler's middleware checks the admin group.
        authorizer: needsToken ? props.authorizer : new apigwv2.HttpNoneAuthorizer(),
      });
      if (!needsToken) {
        acknowledge(
          httpRoute,
          'AwsSolutions-APIG4',
          `${routeKey(route)} is public in the route table (functions/routes.ts): anonymous ` +
            'visitors may call it.',
        );
      }
    }
  }
}
