import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';

/** A payload-format-2.0 event as API Gateway sends it, for unit tests of handlers. */
export function httpEvent(
  method: string,
  rawPath: string,
  options: {
    routeKey?: string;
    query?: Record<string, string>;
    pathParameters?: Record<string, string>;
    headers?: Record<string, string>;
    body?: string;
    claims?: Record<string, unknown>;
  } = {},
): APIGatewayProxyEventV2 {
  const rawQueryString = new URLSearchParams(options.query ?? {}).toString();
  const event = {
    version: '2.0',
    routeKey: options.routeKey ?? `${method} ${rawPath}`,
    rawPath,
    rawQueryString,
    headers: { 'content-type': 'application/json', ...options.headers },
    ...(options.query === undefined ? {} : { queryStringParameters: options.query }),
    ...(options.pathParameters === undefined ? {} : { pathParameters: options.pathParameters }),
    ...(options.body === undefined ? {} : { body: options.body }),
    isBase64Encoded: false,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: {
        method,
        path: rawPath,
        protocol: 'HTTP/1.1',
        sourceIp: '127.0.0.1',
        userAgent: 'vitest',
      },
      requestId: 'req-test-1',
      routeKey: options.routeKey ?? `${method} ${rawPath}`,
      stage: '$default',
      time: '22/Nov/2026:09:05:00 +0000',
      timeEpoch: Date.UTC(2026, 10, 22, 9, 5),
      ...(options.claims === undefined
        ? {}
        : { authorizer: { jwt: { claims: options.claims, scopes: [] } } }),
    },
  };
  return event as APIGatewayProxyEventV2;
}

export function lambdaContext(): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'test',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:test',
    memoryLimitInMB: '256',
    awsRequestId: 'aws-req-1',
    logGroupName: '/aws/lambda/test',
    logStreamName: 'test',
    getRemainingTimeInMillis: () => 30_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
