import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { S3PolicyError, signingKey, type S3ErrorInfo } from './s3-post-policy';

/**
 * SigV4 verification of ordinary S3 requests (header-signed SDK calls and presigned URLs),
 * which s3rver does not do: it accepts any signature from a known access key, so a presigned GET
 * whose key was edited, or a request signed with a wrong secret, would succeed locally.
 * The payload hash is taken as declared (x-amz-content-sha256); the body is not re-hashed.
 */

export interface SignedRequest {
  method: string;
  /** The path as received (percent-encoded), e.g. `/market-files/a%20b.txt`. */
  rawPath: string;
  /** The query as received, without '?'. */
  rawQuery: string;
  headers: IncomingHttpHeaders;
  now: Date;
  region: string;
  secretFor: (accessKeyId: string) => string | undefined;
}

const ALGORITHM = 'AWS4-HMAC-SHA256';
const MAX_SKEW_MS = 15 * 60 * 1000;
const MAX_PRESIGN_SECONDS = 604_800;

function fail(status: number, code: string, message: string, details?: [string, string][]): never {
  const info: S3ErrorInfo = { status, code, message, ...(details ? { details } : {}) };
  throw new S3PolicyError(info);
}

/** RFC 3986 encoding as SigV4 wants it (unreserved characters kept). */
function encode(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function parseQuery(rawQuery: string): [string, string][] {
  if (rawQuery === '') return [];
  return rawQuery
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => {
      const equals = pair.indexOf('=');
      return equals === -1
        ? [decode(pair), '']
        : [decode(pair.slice(0, equals)), decode(pair.slice(equals + 1))];
    });
}

function canonicalQuery(parameters: [string, string][]): string {
  return parameters
    .map(([name, value]) => [encode(name), encode(value)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(',') : value;
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** A request's canonical form and string to sign (exported for tests). */
export function stringToSign(input: {
  method: string;
  rawPath: string;
  query: [string, string][];
  headers: IncomingHttpHeaders;
  signedHeaders: string[];
  payloadHash: string;
  amzDate: string;
  scope: string;
}): { canonicalRequest: string; stringToSign: string } {
  const canonicalHeaders = input.signedHeaders
    .map((name) => {
      const value = (headerValue(input.headers, name) ?? '').trim().replace(/\s+/g, ' ');
      return `${name}:${value}\n`;
    })
    .join('');
  const canonicalRequest = [
    input.method,
    input.rawPath === '' ? '/' : input.rawPath,
    canonicalQuery(input.query),
    canonicalHeaders,
    input.signedHeaders.join(';'),
    input.payloadHash,
  ].join('\n');
  return {
    canonicalRequest,
    stringToSign: [ALGORITHM, input.amzDate, input.scope, sha256(canonicalRequest)].join('\n'),
  };
}

interface Credential {
  accessKeyId: string;
  date: string;
  region: string;
  scope: string;
}

function parseCredential(
  credential: string,
  region: string,
  malformed: (message: string) => never,
): Credential {
  const parts = credential.split('/');
  const [accessKeyId, date, credentialRegion, service, terminal] = parts;
  if (
    parts.length !== 5 ||
    accessKeyId === undefined ||
    date === undefined ||
    credentialRegion === undefined ||
    !/^\d{8}$/.test(date) ||
    service !== 's3' ||
    terminal !== 'aws4_request'
  ) {
    malformed(
      'the Credential is mal-formed; expecting "<YOUR-AKID>/YYYYMMDD/REGION/SERVICE/aws4_request".',
    );
  }
  if (credentialRegion !== region) {
    malformed(`the region '${credentialRegion}' is wrong; expecting '${region}'`);
  }
  return { accessKeyId, date, region, scope: [date, region, 's3', 'aws4_request'].join('/') };
}

function parseAmzDate(text: string): Date | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  if (match === null) return undefined;
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
  return new Date(Date.UTC(y as number, (mo as number) - 1, d, h, mi, s));
}

function compare(
  provided: string,
  secret: string,
  credential: Credential,
  signed: { canonicalRequest: string; stringToSign: string },
): void {
  const expected = createHmac(
    'sha256',
    signingKey(secret, credential.date, credential.region, 's3'),
  )
    .update(signed.stringToSign, 'utf8')
    .digest('hex');
  const ok =
    provided.length === expected.length &&
    timingSafeEqual(Buffer.from(provided), Buffer.from(expected));
  if (!ok) {
    fail(
      403,
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
      [
        ['AWSAccessKeyId', credential.accessKeyId],
        ['StringToSign', signed.stringToSign],
        ['SignatureProvided', provided],
        ['CanonicalRequest', signed.canonicalRequest],
      ],
    );
  }
}

/** Whether the request carries any authentication (header or query). */
export function isAuthenticated(request: { rawQuery: string; headers: IncomingHttpHeaders }) {
  if (request.headers.authorization !== undefined) return true;
  return parseQuery(request.rawQuery).some(
    ([name]) => name === 'X-Amz-Signature' || name === 'Signature',
  );
}

/** Verifies a header-signed or presigned request; throws S3PolicyError with S3's answer. */
export function verifySignature(request: SignedRequest): void {
  const authorization = headerValue(request.headers, 'authorization');
  const query = parseQuery(request.rawQuery);
  if (authorization !== undefined) {
    verifyHeader(request, authorization, query);
    return;
  }
  verifyQuery(request, query);
}

function verifyHeader(
  request: SignedRequest,
  authorization: string,
  query: [string, string][],
): void {
  const malformed: (message: string) => never = (message) =>
    fail(400, 'AuthorizationHeaderMalformed', `The authorization header is malformed; ${message}`);
  const space = authorization.indexOf(' ');
  const algorithm = space === -1 ? authorization : authorization.slice(0, space);
  if (algorithm !== ALGORITHM) {
    fail(
      400,
      'InvalidArgument',
      `Authorization ${algorithm} is not emulated by the local twin; sign with ${ALGORITHM}.`,
    );
  }
  const components = new Map(
    authorization
      .slice(space + 1)
      .split(',')
      .map((part) => {
        const equals = part.indexOf('=');
        return [part.slice(0, equals).trim(), part.slice(equals + 1).trim()] as const;
      }),
  );
  const credentialText = components.get('Credential');
  const signedHeadersText = components.get('SignedHeaders');
  const provided = components.get('Signature');
  if (credentialText === undefined || signedHeadersText === undefined || provided === undefined) {
    malformed(
      'the authorization header requires three components: Credential, SignedHeaders, and Signature.',
    );
  }
  const credential = parseCredential(credentialText, request.region, malformed);
  const secret = request.secretFor(credential.accessKeyId);
  if (secret === undefined) {
    fail(
      403,
      'InvalidAccessKeyId',
      'The AWS Access Key Id you provided does not exist in our records.',
      [['AWSAccessKeyId', credential.accessKeyId]],
    );
  }
  const payloadHash = headerValue(request.headers, 'x-amz-content-sha256');
  if (payloadHash === undefined) {
    fail(400, 'InvalidRequest', 'Missing required header for this request: x-amz-content-sha256');
  }
  const amzDate = headerValue(request.headers, 'x-amz-date');
  const date = amzDate === undefined ? undefined : parseAmzDate(amzDate);
  if (amzDate === undefined || date === undefined) {
    fail(403, 'AccessDenied', 'AWS authentication requires a valid Date or x-amz-date header');
  }
  if (Math.abs(request.now.getTime() - date.getTime()) > MAX_SKEW_MS) {
    fail(
      403,
      'RequestTimeTooSkewed',
      'The difference between the request time and the current time is too large.',
      [
        ['RequestTime', amzDate],
        ['ServerTime', request.now.toISOString()],
        ['MaxAllowedSkewMilliseconds', String(MAX_SKEW_MS)],
      ],
    );
  }
  const signed = stringToSign({
    method: request.method,
    rawPath: request.rawPath,
    query,
    headers: request.headers,
    signedHeaders: signedHeadersText.split(';'),
    payloadHash,
    amzDate,
    scope: credential.scope,
  });
  compare(provided, secret, credential, signed);
}

function verifyQuery(request: SignedRequest, query: [string, string][]): void {
  const get = (name: string): string | undefined => query.find(([key]) => key === name)?.[1];
  const malformed: (message: string) => never = (message) =>
    fail(
      400,
      'AuthorizationQueryParametersError',
      `Error parsing the X-Amz-Credential parameter; ${message}`,
    );
  if (get('Signature') !== undefined) {
    fail(
      400,
      'InvalidArgument',
      'Signature Version 2 query authentication is not emulated by the local twin.',
    );
  }
  if (get('X-Amz-Algorithm') !== ALGORITHM) {
    fail(
      400,
      'AuthorizationQueryParametersError',
      'X-Amz-Algorithm only supports "AWS4-HMAC-SHA256"',
    );
  }
  const credentialText = get('X-Amz-Credential');
  const amzDate = get('X-Amz-Date');
  const expires = get('X-Amz-Expires');
  const signedHeaders = get('X-Amz-SignedHeaders');
  const provided = get('X-Amz-Signature');
  if (
    credentialText === undefined ||
    amzDate === undefined ||
    expires === undefined ||
    signedHeaders === undefined ||
    provided === undefined
  ) {
    fail(
      400,
      'AuthorizationQueryParametersError',
      'Query-string authentication version 4 requires the X-Amz-Algorithm, X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires parameters.',
    );
  }
  const credential = parseCredential(credentialText, request.region, malformed);
  const secret = request.secretFor(credential.accessKeyId);
  if (secret === undefined) {
    fail(
      403,
      'InvalidAccessKeyId',
      'The AWS Access Key Id you provided does not exist in our records.',
      [['AWSAccessKeyId', credential.accessKeyId]],
    );
  }
  const date = parseAmzDate(amzDate);
  if (date === undefined) {
    fail(
      400,
      'AuthorizationQueryParametersError',
      "X-Amz-Date must be in the ISO8601 Long Format \"yyyyMMdd'T'HHmmss'Z'\"",
    );
  }
  const seconds = Number(expires);
  if (!Number.isInteger(seconds) || seconds < 0) {
    fail(400, 'AuthorizationQueryParametersError', 'X-Amz-Expires should be a number');
  }
  if (seconds > MAX_PRESIGN_SECONDS) {
    fail(
      400,
      'AuthorizationQueryParametersError',
      'X-Amz-Expires must be less than a week (in seconds); that is, the given X-Amz-Expires must be less than 604800 seconds',
    );
  }
  const expiresAt = date.getTime() + seconds * 1000;
  if (request.now.getTime() > expiresAt) {
    fail(403, 'AccessDenied', 'Request has expired', [
      ['X-Amz-Expires', expires],
      ['Expires', new Date(expiresAt).toISOString().replace(/\.\d+Z$/, 'Z')],
      ['ServerTime', request.now.toISOString().replace(/\.\d+Z$/, 'Z')],
    ]);
  }
  const signed = stringToSign({
    method: request.method,
    rawPath: request.rawPath,
    query: query.filter(([name]) => name !== 'X-Amz-Signature'),
    headers: request.headers,
    signedHeaders: signedHeaders.split(';'),
    payloadHash: get('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD',
    amzDate,
    scope: credential.scope,
  });
  compare(provided, secret, credential, signed);
}
