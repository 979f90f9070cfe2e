/**
 * The APIs: the HTTP API (its routes and functions live in the route-group stacks) with its
 * default stage and JWT authorizer, and the WebSocket API of the live channel with its handlers,
 * routes and stage. The WebSocket routes stay in this stack because API Gateway refuses to deploy
 * a WebSocket stage before the API has a route.
 */
import { CfnOutput, Fn, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { timeoutOf } from '../../../functions/core/budgets';
import type { WebSocketRoute } from '../../../functions/routes';
import { WEBSOCKET_ACCESS } from '../access';
import type { AuthConfig, MarketConfig } from '../config';
import { MarketFunction } from '../constructs/market-function';
import { acknowledge } from '../nag';
import { pascalId, resourceNames, WEBSOCKET_STAGE } from '../names';
import { applyAccess, importStateful } from './stateful-refs';

export interface ApiStackProps extends StackProps {
  config: MarketConfig;
  /** The pool the JWT authorizer trusts (the identity stack's, or an imported one). */
  auth: AuthConfig;
  assetDir: string;
  webSocketRoutes: readonly WebSocketRoute[];
}

export class ApiStack extends Stack {
  readonly httpApi: apigwv2.HttpApi;
  /** The HTTP API's access log (JSON lines: route key, status, ...; see accessLogFormat). */
  readonly httpAccessLogs: logs.LogGroup;
  /** The JWT authorizer for 'user' and 'admin' routes (the Cognito user pool's). */
  readonly authorizer: apigwv2.IHttpRouteAuthorizer;
  readonly webSocketApi: apigwv2.WebSocketApi;
  readonly webSocketStage: apigwv2.WebSocketStage;
  /** WebSocket handlers by route key. */
  readonly webSocketFunctions: Record<string, MarketFunction> = {};
  private readonly config: MarketConfig;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const { config } = props;
    this.config = config;
    const names = resourceNames(config);
    const retention = config.logRetentionDays as logs.RetentionDays;
    const throttle = { rateLimit: config.apiRateLimit, burstLimit: config.apiBurstLimit };

    // --- HTTP API -------------------------------------------------------------------------------
    const corsOrigins = [...(config.webOrigin ? [config.webOrigin] : []), ...config.corsOrigins];
    this.httpApi = new apigwv2.HttpApi(this, 'HttpApi', {
      apiName: `${names.prefix}-http`,
      description: `Marketplace HTTP API (${config.stage})`,
      createDefaultStage: false,
      // Behind CloudFront the web app and /api share one origin and need no CORS. A named origin
      // (custom domain, or a developer's server in corsOrigins) gets preflights answered here.
      corsPreflight:
        corsOrigins.length > 0
          ? {
              allowOrigins: corsOrigins,
              allowMethods: [
                apigwv2.CorsHttpMethod.GET,
                apigwv2.CorsHttpMethod.POST,
                apigwv2.CorsHttpMethod.PUT,
                apigwv2.CorsHttpMethod.PATCH,
                apigwv2.CorsHttpMethod.DELETE,
              ],
              allowHeaders: ['authorization', 'content-type', 'idempotency-key'],
              allowCredentials: true,
            }
          : undefined,
    });
    this.httpAccessLogs = new logs.LogGroup(this, 'HttpApiAccessLogs', {
      retention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    new apigwv2.HttpStage(this, 'HttpDefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle,
      accessLogSettings: {
        destination: new apigwv2.LogGroupLogDestination(this.httpAccessLogs),
        format: accessLogFormat(false),
      },
    });

    {
      const jwt = new apigwv2.HttpAuthorizer(this, 'JwtAuthorizer', {
        httpApi: this.httpApi,
        authorizerName: 'cognito-jwt',
        type: apigwv2.HttpAuthorizerType.JWT,
        identitySource: ['$request.header.Authorization'],
        jwtIssuer: props.auth.issuer,
        jwtAudience: props.auth.audience,
      });
      this.authorizer = apigwv2.HttpAuthorizer.fromHttpAuthorizerAttributes(
        this,
        'JwtAuthorizerRef',
        {
          authorizerId: jwt.authorizerId,
          authorizerType: apigwv2.HttpAuthorizerType.JWT,
        },
      );
    }

    // --- WebSocket API --------------------------------------------------------------------------
    this.webSocketApi = new apigwv2.WebSocketApi(this, 'WebSocketApi', {
      apiName: `${names.prefix}-live`,
      description: `Marketplace live channel (${config.stage})`,
    });
    // Built from the API id, so the functions can have it before the stage exists.
    const connections = this.connectionsFor(this);
    const refs = importStateful(this, config);
    const routes: apigwv2.WebSocketRoute[] = [];
    for (const route of props.webSocketRoutes) {
      const id = `Ws${pascalId(route.routeKey === '$default' ? 'default-route' : route.routeKey)}`;
      const fn = new MarketFunction(this, id, {
        handler: route.handler,
        assetDir: props.assetDir,
        stage: config.stage,
        webOrigin: config.webOrigin,
        logRetentionDays: config.logRetentionDays,
        environment: config.featureEnv,
        timeoutSeconds: timeoutOf(route),
      });
      applyAccess(fn, WEBSOCKET_ACCESS, refs);
      // Every live handler may answer or close connections (pong, subscription acks, kicks).
      fn.bindConnections(connections);
      this.webSocketFunctions[route.routeKey] = fn;
      const wsRoute = this.webSocketApi.addRoute(route.routeKey, {
        integration: new WebSocketLambdaIntegration(`${id}Integration`, fn.function),
      });
      acknowledge(
        wsRoute,
        'AwsSolutions-APIG4',
        route.routeKey === '$connect'
          ? 'Guests may open the live channel (public offering pages subscribe anonymously); a ' +
              "user's channel needs its Cognito access token, which the $connect handler verifies " +
              '(aws-jwt-verify, then the session check), so there is no API Gateway authorizer.'
          : 'API Gateway authorizes WebSocket clients only on $connect; later messages travel ' +
              'on the connection that $connect admitted.',
      );
      routes.push(wsRoute);
    }
    const wsLogs = new logs.LogGroup(this, 'WebSocketAccessLogs', {
      retention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.webSocketStage = new apigwv2.WebSocketStage(this, 'WebSocketStage', {
      webSocketApi: this.webSocketApi,
      stageName: WEBSOCKET_STAGE,
      autoDeploy: true,
      throttle,
      accessLogSettings: {
        destination: new apigwv2.LogGroupLogDestination(wsLogs),
        format: accessLogFormat(true),
      },
    });
    for (const route of routes) this.webSocketStage.node.addDependency(route);

    if (config.apiGatewayLogRole) {
      // WebSocket (unlike HTTP) access logs go through the account-level API Gateway role.
      const role = new iam.Role(this, 'ApiGatewayLogsRole', {
        assumedBy: new iam.ServicePrincipal('apigateway.amazonaws.com'),
        managedPolicies: [
          iam.ManagedPolicy.fromAwsManagedPolicyName(
            'service-role/AmazonAPIGatewayPushToCloudWatchLogs',
          ),
        ],
      });
      // The account setting outlives this stack; keep the role it points to.
      role.applyRemovalPolicy(RemovalPolicy.RETAIN);
      acknowledge(
        role,
        'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
        'AWS documents this managed policy as the permission set of the account-level API ' +
          'Gateway logging role; it only writes to CloudWatch Logs.',
      );
      const account = new apigw.CfnAccount(this, 'ApiGatewayAccount', {
        cloudWatchRoleArn: role.roleArn,
      });
      this.webSocketStage.node.addDependency(account);
    }

    new CfnOutput(this, 'HttpApiUrl', { value: this.httpApi.apiEndpoint });
    new CfnOutput(this, 'WebSocketUrl', { value: this.webSocketUrl });
  }

  /**
   * What `MarketFunction.bindConnections` needs for a function in `consumer` that posts to live
   * connections. From another stack the API id travels as a named export (`<prefix>-ws-api-id`),
   * so the IAM statement reads the same before and after synthesis (see wildcardResourceFinding).
   */
  connectionsFor(consumer: Stack): { apiId: string; stageName: string; callbackUrl: string } {
    let apiId = this.webSocketApi.apiId;
    if (consumer !== this) {
      const exportName = `${resourceNames(this.config).prefix}-ws-api-id`;
      if (this.node.tryFindChild('WebSocketApiIdExport') === undefined) {
        new CfnOutput(this, 'WebSocketApiIdExport', {
          value: this.webSocketApi.apiId,
          exportName,
        });
      }
      consumer.addStackDependency(this, 'posts to WebSocket connections');
      apiId = Fn.importValue(exportName);
    }
    return {
      apiId,
      stageName: WEBSOCKET_STAGE,
      callbackUrl: `https://${apiId}.execute-api.${consumer.region}.${consumer.urlSuffix}/${WEBSOCKET_STAGE}`,
    };
  }

  /** Host name of the HTTP API's default endpoint (CloudFront's `/api/*` origin). */
  get httpApiDomain(): string {
    return `${this.httpApi.apiId}.execute-api.${this.region}.${this.urlSuffix}`;
  }

  /** `wss://<id>.execute-api.<region>.amazonaws.com/live` */
  get webSocketUrl(): string {
    return `wss://${this.webSocketApi.apiId}.execute-api.${this.region}.${this.urlSuffix}/${WEBSOCKET_STAGE}`;
  }

  /** Origin of the WebSocket API (for the web's Content-Security-Policy connect-src). */
  get webSocketOrigin(): string {
    return `wss://${this.webSocketApi.apiId}.execute-api.${this.region}.${this.urlSuffix}`;
  }
}

function accessLogFormat(webSocket: boolean): apigw.AccessLogFormat {
  return apigw.AccessLogFormat.custom(
    JSON.stringify({
      requestId: '$context.requestId',
      requestTime: '$context.requestTime',
      ip: '$context.identity.sourceIp',
      routeKey: '$context.routeKey',
      status: '$context.status',
      error: '$context.error.message',
      authorizerError: '$context.authorizer.error',
      ...(webSocket
        ? {
            eventType: '$context.eventType',
            connectionId: '$context.connectionId',
            integrationLatency: '$context.integrationLatency',
          }
        : {
            method: '$context.httpMethod',
            path: '$context.path',
            protocol: '$context.protocol',
            responseLength: '$context.responseLength',
            latency: '$context.responseLatency',
            integrationError: '$context.integrationErrorMessage',
          }),
    }),
  );
}
