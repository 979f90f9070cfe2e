import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type {
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2,
  Context,
} from 'aws-lambda';
import type { HttpMethod, HttpRoute } from '../../functions/routes';

/**
 * API Gateway HTTP API semantics, as pure functions: route selection, the payload-format-2.0
 * event, and the mapping of a handler's result back to HTTP. Used by the local HTTP gateway.
 */

// ---------------------------------------------------------------------------------------------
// Route selection

type Segment =
  | { kind: 'literal'; text: string }
  | { kind: 'param'; name: string }
  | { kind: 'greedy'; name: string };

export interface CompiledRoute<R extends HttpRoute = HttpRoute> {
  route: R;
  routeKey: string;
  segments: Segment[];
}

export interface RouteMatch<R extends HttpRoute = HttpRoute> {
  route: R;
  routeKey: string;
  pathParameters: Record<string, string> | undefined;
}

function splitPath(path: string): string[] {
  return path.split('/').slice(1);
}

export function compileRoutes<R extends HttpRoute>(routes: readonly R[]): CompiledRoute<R>[] {
  return routes.map((route) => {
    const segments = splitPath(route.path).map((part, index, all): Segment => {
      const variable = /^\{([A-Za-z0-9_]+)(\+?)\}$/.exec(part);
      if (variable === null) return { kind: 'literal', text: part };
      const name = variable[1] as string;
      if (variable[2] === '+') {
        if (index !== all.length - 1) {
          throw new Error(`${route.path}: a greedy variable must end the path`);
        }
        return { kind: 'greedy', name };
      }
      return { kind: 'param', name };
    });
    return { route, routeKey: `${route.method} ${route.path}`, segments };
  });
}

/** Rank of a segment: a literal beats a variable, which beats a greedy variable. */
const RANK = { literal: 0, param: 1, greedy: 2 } as const;

function matchSegments(
  segments: Segment[],
  parts: string[],
): Record<string, string> | undefined | false {
  const parameters: Record<string, string> = {};
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index] as Segment;
    if (segment.kind === 'greedy') {
      const rest = parts.slice(index);
      // {proxy+} needs at least one character of path below it.
      if (rest.length === 0 || rest.join('/') === '') return false;
      parameters[segment.name] = rest.join('/');
      return parameters;
    }
    const part = parts[index];
    if (part === undefined) return false;
    if (segment.kind === 'literal') {
      if (segment.text !== part) return false;
    } else {
      if (part === '') return false;
      parameters[segment.name] = part;
    }
  }
  if (parts.length !== segments.length) return false;
  return Object.keys(parameters).length === 0 ? undefined : parameters;
}

/** -1 when a is more specific than b: compared segment by segment, then by the method. */
function compareSpecificity(a: CompiledRoute, b: CompiledRoute): number {
  const length = Math.max(a.segments.length, b.segments.length);
  for (let index = 0; index < length; index++) {
    const left = a.segments[index];
    const right = b.segments[index];
    if (left === undefined || right === undefined) {
      // A greedy route ended earlier; the longer explicit path is more specific.
      return left === undefined ? 1 : -1;
    }
    const difference = RANK[left.kind] - RANK[right.kind];
    if (difference !== 0) return difference;
  }
  const anyA = a.route.method === 'ANY' ? 1 : 0;
  const anyB = b.route.method === 'ANY' ? 1 : 0;
  return anyA - anyB;
}

/**
 * Selects the route as API Gateway HTTP APIs do: among routes whose method matches (or is ANY)
 * and whose path matches, the most specific wins: full literal paths, then path variables, then
 * greedy `{proxy+}` variables; at equal paths a named method beats ANY. Path parameters are
 * URL-decoded, as API Gateway passes them.
 */
export function selectRoute<R extends HttpRoute>(
  compiled: CompiledRoute<R>[],
  method: string,
  decodedPath: string,
): RouteMatch<R> | undefined {
  const parts = splitPath(decodedPath);
  const candidates: {
    compiled: CompiledRoute<R>;
    parameters: Record<string, string> | undefined;
  }[] = [];
  for (const entry of compiled) {
    if (entry.route.method !== 'ANY' && entry.route.method !== (method as HttpMethod)) continue;
    const parameters = matchSegments(entry.segments, parts);
    if (parameters === false) continue;
    candidates.push({ compiled: entry, parameters });
  }
  candidates.sort((a, b) => compareSpecificity(a.compiled, b.compiled));
  const best = candidates[0];
  if (best === undefined) return undefined;
  return {
    route: best.compiled.route,
    routeKey: best.compiled.routeKey,
    pathParameters: best.parameters,
  };
}

// ---------------------------------------------------------------------------------------------
// The event

export interface IncomingApiRequest {
  method: string;
  /** The request target as received: path and query, percent-encoded. */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  sourceIp: string;
  protocol: string;
}

/** API Gateway's request ids look like "JKJaXmPLvHcESHA=". */
export function newRequestId(): string {
  return randomBytes(10).toString('base64');
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `12/Mar/2020:19:03:58 +0000`, the format of requestContext.time. */
export function requestTime(date: Date): string {
  const two = (value: number): string => String(value).padStart(2, '0');
  return (
    `${two(date.getUTCDate())}/${MONTHS[date.getUTCMonth()]}/${date.getUTCFullYear()}:` +
    `${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())} +0000`
  );
}

/** Decodes percent-escapes; an invalid escape is kept as it is. */
export function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Whether API Gateway passes the body as text. HTTP APIs base64-encode every body whose
 * content type is not textual (images, octet streams, multipart and url-encoded forms).
 */
export function isTextual(contentType: string | undefined): boolean {
  if (contentType === undefined || contentType === '') return false;
  const type = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  return (
    type.startsWith('text/') ||
    type === 'application/json' ||
    type.endsWith('+json') ||
    type === 'application/xml' ||
    type.endsWith('+xml') ||
    type === 'application/javascript' ||
    type === 'application/graphql'
  );
}

/** Builds the payload-format-2.0 event of a matched request. */
export function buildEvent(
  request: IncomingApiRequest,
  match: { routeKey: string; pathParameters: Record<string, string> | undefined },
  context: { requestId: string; now: Date; authorizer?: unknown },
): APIGatewayProxyEventV2 {
  const queryIndex = request.url.indexOf('?');
  const rawTarget = queryIndex === -1 ? request.url : request.url.slice(0, queryIndex);
  const rawQueryString = queryIndex === -1 ? '' : request.url.slice(queryIndex + 1);
  // HTTP APIs hand the path over decoded (rawPath and requestContext.http.path alike).
  const rawPath = safeDecode(rawTarget);

  const headers: Record<string, string> = {};
  let cookies: string[] | undefined;
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    if (lower === 'cookie') {
      const all = (Array.isArray(value) ? value : [value]).flatMap((line) => line.split(/;\s*/));
      cookies = all.filter((cookie) => cookie !== '');
      continue;
    }
    headers[lower] = Array.isArray(value) ? value.join(',') : value;
  }
  headers['x-forwarded-for'] = headers['x-forwarded-for']
    ? `${headers['x-forwarded-for']}, ${request.sourceIp}`
    : request.sourceIp;
  headers['x-forwarded-proto'] ??= 'http';
  const host = headers.host ?? 'localhost';
  const [hostname = 'localhost', port] = host.split(':');
  headers['x-forwarded-port'] ??= port ?? '80';

  let queryStringParameters: Record<string, string> | undefined;
  if (rawQueryString !== '') {
    queryStringParameters = {};
    for (const pair of rawQueryString.split('&')) {
      if (pair === '') continue;
      const equals = pair.indexOf('=');
      const name = safeDecode((equals === -1 ? pair : pair.slice(0, equals)).replace(/\+/g, ' '));
      const value = equals === -1 ? '' : safeDecode(pair.slice(equals + 1).replace(/\+/g, ' '));
      const existing = queryStringParameters[name];
      queryStringParameters[name] = existing === undefined ? value : `${existing},${value}`;
    }
  }

  const hasBody = request.body.length > 0;
  const textual = isTextual(headers['content-type']);
  const event: APIGatewayProxyEventV2 = {
    version: '2.0',
    routeKey: match.routeKey,
    rawPath,
    rawQueryString,
    ...(cookies === undefined ? {} : { cookies }),
    headers,
    ...(queryStringParameters === undefined ? {} : { queryStringParameters }),
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: hostname,
      domainPrefix: hostname.split('.')[0] ?? hostname,
      http: {
        method: request.method,
        path: rawPath,
        protocol: request.protocol,
        sourceIp: request.sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: context.requestId,
      routeKey: match.routeKey,
      stage: '$default',
      time: requestTime(context.now),
      timeEpoch: context.now.getTime(),
      ...(context.authorizer === undefined ? {} : { authorizer: context.authorizer }),
    } as APIGatewayProxyEventV2['requestContext'],
    ...(match.pathParameters === undefined ? {} : { pathParameters: match.pathParameters }),
    ...(hasBody
      ? {
          body: textual ? request.body.toString('utf8') : request.body.toString('base64'),
        }
      : {}),
    isBase64Encoded: hasBody && !textual,
  };
  return event;
}

/** A Lambda-like context for an in-process invocation. */
export function lambdaContext(handler: string, timeoutMs: number, startedAt: number): Context {
  const functionName = `market-local-${handler.replace(/[^A-Za-z0-9-_]/g, '-')}`;
  const awsRequestId = randomUUID();
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: `local/[$LATEST]${awsRequestId.replace(/-/g, '')}`,
    getRemainingTimeInMillis: () => Math.max(0, startedAt + timeoutMs - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

// ---------------------------------------------------------------------------------------------
// The result

export interface HttpAnswer {
  status: number;
  headers: [string, string][];
  body: Buffer;
}

export class InvalidLambdaResult extends Error {}

/**
 * Maps a payload-2.0 result to HTTP: an object with `statusCode` is a structured result (headers,
 * cookies as Set-Cookie, body, isBase64Encoded); anything else (an object without statusCode, a
 * string, a number) is answered 200 application/json with the value serialized as the body.
 */
export function toHttpAnswer(result: unknown): HttpAnswer {
  if (
    typeof result !== 'object' ||
    result === null ||
    Array.isArray(result) ||
    !('statusCode' in result)
  ) {
    return {
      status: 200,
      headers: [['content-type', 'application/json']],
      body: Buffer.from(JSON.stringify(result ?? null), 'utf8'),
    };
  }
  const structured = result as APIGatewayProxyStructuredResultV2;
  const status = Number(structured.statusCode);
  if (!Number.isInteger(status) || status < 100 || status > 599) {
    throw new InvalidLambdaResult(`invalid statusCode ${String(structured.statusCode)}`);
  }
  const headers: [string, string][] = [];
  for (const [name, value] of Object.entries(structured.headers ?? {})) {
    if (value === undefined) continue;
    headers.push([name.toLowerCase(), String(value)]);
  }
  for (const cookie of structured.cookies ?? []) headers.push(['set-cookie', cookie]);
  const rawBody = structured.body ?? '';
  if (typeof rawBody !== 'string') throw new InvalidLambdaResult('body must be a string');
  const body = structured.isBase64Encoded
    ? Buffer.from(rawBody, 'base64')
    : Buffer.from(rawBody, 'utf8');
  return { status, headers, body };
}
