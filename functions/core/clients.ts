import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { ApiGatewayManagementApiClient } from '@aws-sdk/client-apigatewaymanagementapi';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SNSClient } from '@aws-sdk/client-sns';
import { SFNClient } from '@aws-sdk/client-sfn';
import { readEnv, type HandlerEnv } from './env';

/**
 * SDK clients configured from the environment, created once per container (per endpoint, so the
 * twin's tests can point at a fresh emulator). Handlers and use cases never construct clients.
 * Credentials come from the standard provider chain: the Lambda role in AWS; on the twin, the
 * dummy AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY the twin puts in its own environment.
 */
const cache = new Map<string, unknown>();

function memo<T>(key: string, make: () => T): T {
  const hit = cache.get(key);
  if (hit !== undefined) return hit as T;
  const made = make();
  cache.set(key, made);
  return made;
}

export function dynamoDocumentClient(env: HandlerEnv = readEnv()): DynamoDBDocumentClient {
  return memo(`ddb|${env.region}|${env.dynamodbEndpoint ?? ''}`, () => {
    const client = new DynamoDBClient({
      region: env.region,
      ...(env.dynamodbEndpoint === undefined ? {} : { endpoint: env.dynamodbEndpoint }),
    });
    withoutSdkLogging(client);
    return DynamoDBDocumentClient.from(client, {
      marshallOptions: { removeUndefinedValues: true },
    });
  });
}

/**
 * Takes the SDK's logger middleware out of a client's stack (every client of this module). The
 * product never gives the SDK a logger (its own logs say what happened), yet with the default
 * no-op logger the middleware still walks every request's input and every answer's output through
 * the operation's schema to mask sensitive fields for a log line nobody writes: on a lot's 2 KB
 * PutItem, about a tenth of the call's CPU (measured on this machine). Errors still reach the
 * caller unchanged.
 */
export function withoutSdkLogging<
  Client extends { middlewareStack: { remove(name: string): boolean } },
>(client: Client): Client {
  client.middlewareStack.remove('loggerMiddleware');
  return client;
}

export function s3Client(env: HandlerEnv = readEnv()): S3Client {
  return memo(`s3|${env.region}|${env.s3Endpoint ?? ''}`, () =>
    withoutSdkLogging(
      new S3Client({
        region: env.region,
        ...(env.s3Endpoint === undefined ? {} : { endpoint: env.s3Endpoint, forcePathStyle: true }),
      }),
    ),
  );
}

export function connectionsClient(env: HandlerEnv = readEnv()): ApiGatewayManagementApiClient {
  const endpoint = env.wsConnectionsEndpoint;
  if (endpoint === undefined) throw new Error('WS_CONNECTIONS_ENDPOINT is not configured');
  return memo(`apigw|${env.region}|${endpoint}`, () =>
    withoutSdkLogging(new ApiGatewayManagementApiClient({ region: env.region, endpoint })),
  );
}

/** Cognito user pool admin calls; the twin's local Cognito endpoint via COGNITO_ENDPOINT. */
export function cognitoClient(env: HandlerEnv = readEnv()): CognitoIdentityProviderClient {
  return memo(`cognito|${env.region}|${env.cognitoEndpoint ?? ''}`, () =>
    withoutSdkLogging(
      new CognitoIdentityProviderClient({
        region: env.region,
        ...(env.cognitoEndpoint === undefined ? {} : { endpoint: env.cognitoEndpoint }),
      }),
    ),
  );
}

/**
 * SES v2 (e-mail) and SNS (SMS). No endpoint option: on the twin the SDK's own per-service
 * variables (AWS_ENDPOINT_URL_SESV2, AWS_ENDPOINT_URL_SNS) point them at the outbox.
 */
export function sesClient(env: HandlerEnv = readEnv()): SESv2Client {
  return memo(`sesv2|${env.region}|${process.env.AWS_ENDPOINT_URL_SESV2 ?? ''}`, () =>
    withoutSdkLogging(new SESv2Client({ region: env.region })),
  );
}

export function snsClient(env: HandlerEnv = readEnv()): SNSClient {
  return memo(`sns|${env.region}|${process.env.AWS_ENDPOINT_URL_SNS ?? ''}`, () =>
    withoutSdkLogging(new SNSClient({ region: env.region })),
  );
}

/** Step Functions (starting workflows); the twin's workflow runner via SFN_ENDPOINT. */
export function sfnClient(env: HandlerEnv = readEnv()): SFNClient {
  return memo(`sfn|${env.region}|${env.sfnEndpoint ?? ''}`, () =>
    withoutSdkLogging(
      new SFNClient({
        region: env.region,
        ...(env.sfnEndpoint === undefined ? {} : { endpoint: env.sfnEndpoint }),
      }),
    ),
  );
}
