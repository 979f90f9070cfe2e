import { randomBytes, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, rmSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import busboy from 'busboy';
import {
  MAX_POST_PRE_DATA_BYTES,
  S3PolicyError,
  checkPostPolicy,
  checkSize,
  type FormField,
  type PolicyApproval,
  type S3ErrorInfo,
} from './s3-post-policy';
import { AwsChunkedDecoder, isAwsChunked, withoutAwsChunked } from './aws-chunked';
import { isAuthenticated, verifySignature } from './s3-sigv4';
import { assertPortFree, closeServer, escapeXml, listen, silentLog, type Log } from './support';

/**
 * Local S3: s3rver (in this process, on an internal port) behind a guard that listens on the
 * public port. The guard enforces what s3rver ignores and the product relies on:
 * - browser uploads (POST Object) are checked against their SigV4 POST policy exactly as S3 does
 *   (signature, expiry, conditions incl. `content-length-range` and Content-Type, key, bucket);
 * - CORS for the web origin, as the buckets' CORS rule in AWS (BUCKET_CORS_RULE).
 * Every other request is proxied to s3rver unchanged.
 */

/** The CORS rule of the buckets; the CDK stack should configure the same one. */
export const BUCKET_CORS_RULE = {
  allowedMethods: ['GET', 'HEAD', 'PUT', 'POST', 'DELETE'],
  allowedHeaders: ['*'],
  exposedHeaders: ['ETag', 'Location'],
  maxAgeSeconds: 3000,
} as const;

export interface S3TwinOptions {
  /** Public (guard) port; omitted for a free one. */
  port?: number;
  /** s3rver's data directory. */
  directory: string;
  buckets: string[];
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** Origins allowed by the buckets' CORS rule (the web origin). */
  corsOrigins: string[];
  log?: Log;
  /** Remove the directory on stop (tests). */
  removeOnStop?: boolean;
}

export interface S3Twin {
  /** The endpoint clients use (S3_ENDPOINT), path-style: `${url}/${bucket}/${key}`. */
  url: string;
  port: number;
  /** s3rver itself, for in-process readers such as the gateway's /media. */
  internalUrl: string;
  /** Adds an origin to the buckets' CORS rule (the web origin, once its port is known). */
  allowOrigin(origin: string): void;
  stop(): Promise<void>;
}

interface S3rverInstance {
  run(): Promise<{ port: number; address: string }>;
  close(): Promise<void>;
}

interface S3rverModule {
  new (options: Record<string, unknown>): S3rverInstance;
}

interface AwsAccountModule {
  DUMMY_ACCOUNT: { createKeyPair(accessKeyId: string, secretAccessKey: string): void };
}

const require = createRequire(import.meta.url);

export async function startS3(options: S3TwinOptions): Promise<S3Twin> {
  const log = options.log ?? silentLog;
  if (options.port !== undefined) await assertPortFree(options.port, 'S3 (s3rver guard)');
  mkdirSync(options.directory, { recursive: true });

  const S3rver = require('s3rver') as S3rverModule;
  // s3rver accepts requests signed by the access keys it knows; teach it the twin's.
  const accounts = require('s3rver/lib/models/account') as AwsAccountModule;
  accounts.DUMMY_ACCOUNT.createKeyPair(
    options.credentials.accessKeyId,
    options.credentials.secretAccessKey,
  );
  const s3rver = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: options.directory,
    vhostBuckets: false,
    configureBuckets: options.buckets.map((name) => ({ name })),
  });
  const internal = await s3rver.run();
  const internalUrl = `http://127.0.0.1:${internal.port}`;

  const corsOrigins = [...options.corsOrigins];
  const guard = createGuard({
    internalPort: internal.port,
    region: options.region,
    credentials: options.credentials,
    corsOrigins,
    log,
  });
  const server = createServer((req, res) => {
    guard(req, res).catch((error: unknown) => {
      log(`[s3] guard failure: ${error instanceof Error ? error.stack : String(error)}`);
      if (!res.headersSent) sendS3Error(req, res, internalError(), corsOrigins);
      else res.destroy();
    });
  });
  const port = await listen(server, options.port ?? 0);
  const url = `http://localhost:${port}`;
  log(
    `[s3] s3rver behind the POST-policy guard on ${url} (buckets: ${options.buckets.join(', ')})`,
  );

  let stopping: Promise<void> | undefined;
  return {
    url,
    port,
    internalUrl,
    allowOrigin(origin) {
      if (!corsOrigins.includes(origin)) corsOrigins.push(origin);
    },
    stop() {
      stopping ??= (async () => {
        await closeServer(server);
        await s3rver.close().catch(() => undefined);
        if (options.removeOnStop) rmSync(options.directory, { recursive: true, force: true });
      })();
      return stopping;
    },
  };
}

interface GuardConfig {
  internalPort: number;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  corsOrigins: string[];
  log: Log;
}

function internalError(): S3ErrorInfo {
  return {
    status: 500,
    code: 'InternalError',
    message: 'We encountered an internal error. Please try again.',
  };
}

function corsHeaders(
  req: IncomingMessage,
  corsOrigins: string[],
): Record<string, string> | undefined {
  const origin = req.headers.origin;
  if (origin === undefined || !corsOrigins.includes(origin)) return undefined;
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    'access-control-expose-headers': BUCKET_CORS_RULE.exposedHeaders.join(', '),
    vary: 'Origin, Access-Control-Request-Headers, Access-Control-Request-Method',
  };
}

export function s3ErrorXml(info: S3ErrorInfo, requestId: string): string {
  const details = (info.details ?? [])
    .map(([name, value]) => `<${name}>${escapeXml(value)}</${name}>`)
    .join('');
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<Error><Code>${escapeXml(info.code)}</Code><Message>${escapeXml(info.message)}</Message>` +
    `${details}<RequestId>${requestId}</RequestId><HostId>${requestId}</HostId></Error>`
  );
}

function sendS3Error(
  req: IncomingMessage,
  res: ServerResponse,
  info: S3ErrorInfo,
  corsOrigins: string[],
): void {
  const requestId = randomBytes(8).toString('hex').toUpperCase();
  const body = s3ErrorXml(info, requestId);
  res.writeHead(info.status, {
    'content-type': 'application/xml',
    'content-length': Buffer.byteLength(body),
    'x-amz-request-id': requestId,
    ...corsHeaders(req, corsOrigins),
  });
  res.end(body);
}

function createGuard(config: GuardConfig) {
  const secretFor = (accessKeyId: string): string | undefined =>
    accessKeyId === config.credentials.accessKeyId ? config.credentials.secretAccessKey : undefined;

  return async function guard(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'OPTIONS') {
      preflight(req, res, config.corsOrigins);
      return;
    }
    const bucketOnly = /^\/([^/]+)\/?$/.exec(url.pathname);
    if (req.method === 'POST' && bucketOnly !== null && url.search === '') {
      await postObject(req, res, decodeURIComponent(bucketOnly[1] as string), {
        ...config,
        secretFor,
      });
      return;
    }

    // Both buckets are private in AWS: every other request must be signed, and correctly.
    const target = req.url ?? '/';
    const queryIndex = target.indexOf('?');
    const signed = {
      method: req.method ?? 'GET',
      rawPath: queryIndex === -1 ? target : target.slice(0, queryIndex),
      rawQuery: queryIndex === -1 ? '' : target.slice(queryIndex + 1),
      headers: req.headers,
      now: new Date(),
      region: config.region,
      secretFor,
    };
    if (!isAuthenticated(signed)) {
      req.resume();
      sendS3Error(
        req,
        res,
        { status: 403, code: 'AccessDenied', message: 'Access Denied' },
        config.corsOrigins,
      );
      return;
    }
    try {
      verifySignature(signed);
    } catch (error) {
      if (!(error instanceof S3PolicyError)) throw error;
      req.resume();
      sendS3Error(req, res, error.info, config.corsOrigins);
      return;
    }

    if (isAwsChunked(req.headers)) {
      // s3rver would store the chunk framing: decode it and send a plain body.
      const decoded = req.headers['x-amz-decoded-content-length'];
      const headers: IncomingHttpHeaders = { ...req.headers };
      const encoding = withoutAwsChunked(req.headers['content-encoding']);
      delete headers['content-encoding'];
      if (encoding !== undefined) headers['content-encoding'] = encoding;
      delete headers['transfer-encoding'];
      delete headers['x-amz-trailer'];
      delete headers['x-amz-decoded-content-length'];
      headers['x-amz-content-sha256'] = 'UNSIGNED-PAYLOAD';
      if (typeof decoded === 'string') headers['content-length'] = decoded;
      else delete headers['content-length'];
      const decoder = new AwsChunkedDecoder();
      decoder.on('error', (error) => {
        config.log(`[s3] aws-chunked body refused: ${error.message}`);
        req.unpipe(decoder);
        req.resume();
        if (!res.headersSent) {
          sendS3Error(
            req,
            res,
            { status: 400, code: 'IncompleteBody', message: error.message },
            config.corsOrigins,
          );
        }
      });
      req.pipe(decoder);
      proxy(req, res, config, decoder, { path: target, headers });
      return;
    }
    proxy(req, res, config, req);
  };
}

/** Answers a CORS preflight as S3 does for a bucket with BUCKET_CORS_RULE. */
function preflight(req: IncomingMessage, res: ServerResponse, corsOrigins: string[]): void {
  const origin = req.headers.origin;
  const method = req.headers['access-control-request-method'];
  if (origin === undefined) {
    sendS3Error(
      req,
      res,
      {
        status: 400,
        code: 'BadRequest',
        message: 'Insufficient information. Origin request header needed.',
      },
      corsOrigins,
    );
    return;
  }
  if (method === undefined) {
    sendS3Error(
      req,
      res,
      { status: 400, code: 'BadRequest', message: 'Invalid Access-Control-Request-Method: null' },
      corsOrigins,
    );
    return;
  }
  const allowedMethods: readonly string[] = BUCKET_CORS_RULE.allowedMethods;
  if (!corsOrigins.includes(origin) || !allowedMethods.includes(method.toUpperCase())) {
    sendS3Error(
      req,
      res,
      {
        status: 403,
        code: 'AccessForbidden',
        message: 'CORSResponse: This CORS request is not allowed.',
        details: [
          ['Method', method],
          ['ResourceType', 'OBJECT'],
        ],
      },
      [],
    );
    return;
  }
  const requested = req.headers['access-control-request-headers'];
  res.writeHead(200, {
    'access-control-allow-origin': origin,
    'access-control-allow-methods': BUCKET_CORS_RULE.allowedMethods.join(', '),
    ...(requested === undefined ? {} : { 'access-control-allow-headers': requested }),
    'access-control-allow-credentials': 'true',
    'access-control-expose-headers': BUCKET_CORS_RULE.exposedHeaders.join(', '),
    'access-control-max-age': String(BUCKET_CORS_RULE.maxAgeSeconds),
    vary: 'Origin, Access-Control-Request-Headers, Access-Control-Request-Method',
    'content-length': '0',
  });
  res.end();
}

/** Copies s3rver's answer to the client, with the bucket CORS headers instead of s3rver's own. */
function relayResponse(
  upstream: IncomingMessage,
  req: IncomingMessage,
  res: ServerResponse,
  corsOrigins: string[],
): void {
  const headers: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(upstream.headers)) {
    if (name.startsWith('access-control-') || name === 'vary' || value === undefined) continue;
    headers[name] = value;
  }
  res.writeHead(upstream.statusCode ?? 502, { ...headers, ...corsHeaders(req, corsOrigins) });
  upstream.pipe(res);
}

function proxy(
  req: IncomingMessage,
  res: ServerResponse,
  config: GuardConfig,
  body: Readable,
  override?: { path: string; headers: IncomingHttpHeaders },
): void {
  const upstream = httpRequest(
    {
      host: '127.0.0.1',
      port: config.internalPort,
      method: req.method,
      path: override?.path ?? req.url,
      headers: override?.headers ?? req.headers,
    },
    (response) => relayResponse(response, req, res, config.corsOrigins),
  );
  upstream.on('error', (error) => {
    config.log(`[s3] s3rver request failed: ${error.message}`);
    if (!res.headersSent) sendS3Error(req, res, internalError(), config.corsOrigins);
    else res.destroy();
  });
  body.pipe(upstream);
}

interface PostConfig extends GuardConfig {
  secretFor: (accessKeyId: string) => string | undefined;
}

/**
 * POST Object: parses the form, checks the policy once the file part starts (all fields that
 * count precede it), streams the file to a temporary file while enforcing the size range, then
 * hands s3rver a rebuilt form. On refusal the rest of the body is drained before answering, so
 * clients that upload before reading the answer still see the S3 error.
 */
async function postObject(
  req: IncomingMessage,
  res: ServerResponse,
  bucket: string,
  config: PostConfig,
): Promise<void> {
  const contentType = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data/i.test(contentType)) {
    sendS3Error(
      req,
      res,
      {
        status: 412,
        code: 'PreconditionFailed',
        message: 'At least one of the pre-conditions you specified did not hold',
        details: [['Condition', 'Bucket POST must be of the enclosure-type multipart/form-data']],
      },
      config.corsOrigins,
    );
    req.resume();
    return;
  }

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      defParamCharset: 'utf8',
      limits: { fieldSize: MAX_POST_PRE_DATA_BYTES + 1 },
    });
  } catch {
    sendS3Error(
      req,
      res,
      {
        status: 400,
        code: 'MalformedPOSTRequest',
        message: 'The body of your POST request is not well-formed multipart/form-data.',
      },
      config.corsOrigins,
    );
    req.resume();
    return;
  }

  const tempFile = path.join(os.tmpdir(), `twin-s3-post-${randomUUID()}`);
  const fields: (FormField | Promise<FormField>)[] = [];
  let preDataBytes = 0;
  let fileSeen = false;
  let finished = false;
  let fileWritten:
    Promise<{ size: number; approval: PolicyApproval; partType: string }> | undefined;
  let filename: string | undefined;

  const refuse = (info: S3ErrorInfo): void => {
    if (finished) return;
    finished = true;
    req.unpipe(parser);
    parser.removeAllListeners();
    parser.on('error', () => undefined);
    const answer = (): void => {
      sendS3Error(req, res, info, config.corsOrigins);
      void unlink(tempFile).catch(() => undefined);
    };
    if (req.readableEnded) answer();
    else {
      req.on('end', answer);
      req.on('error', answer);
      req.resume();
    }
  };
  const refuseWith = (error: unknown): void => {
    if (error instanceof S3PolicyError) refuse(error.info);
    else {
      config.log(`[s3] POST check failed: ${error instanceof Error ? error.stack : String(error)}`);
      refuse(internalError());
    }
  };
  const tooMuchPreData = (): void =>
    refuse({
      status: 400,
      code: 'MaxPostPreDataLengthExceeded',
      message: 'Your POST request fields preceeding the upload file was too large.',
      details: [['MaxPostPreDataLengthBytes', String(MAX_POST_PRE_DATA_BYTES)]],
    });

  const startFile = (stream: Readable, partType: string): void => {
    fileSeen = true;
    fileWritten = (async () => {
      const resolved = await Promise.all(fields);
      const approval = checkPostPolicy({
        bucket,
        fields: resolved,
        filename,
        now: new Date(),
        region: config.region,
        secretFor: config.secretFor,
      });
      let size = 0;
      const sink = createWriteStream(tempFile);
      await new Promise<void>((resolve, reject) => {
        stream.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > approval.maxSize) {
            stream.unpipe(sink);
            sink.destroy();
            stream.resume();
            try {
              checkSize(approval, size);
            } catch (error) {
              reject(error);
            }
          }
        });
        stream.on('error', reject);
        sink.on('error', reject);
        sink.on('finish', resolve);
        stream.pipe(sink);
      });
      checkSize(approval, size);
      return { size, approval, partType };
    })();
    fileWritten.catch(refuseWith);
  };

  parser.on('field', (name, value, info) => {
    if (fileSeen || finished) return;
    if (name.toLowerCase() === 'file') {
      // A file part without a filename arrives as a field (its text is the content).
      startFile(Readable.from([Buffer.from(value, 'utf8')]), info.mimeType);
      return;
    }
    preDataBytes += Buffer.byteLength(name) + Buffer.byteLength(value);
    if (info.valueTruncated || preDataBytes > MAX_POST_PRE_DATA_BYTES) {
      tooMuchPreData();
      return;
    }
    fields.push({ name, value });
  });

  parser.on('file', (name, stream, info) => {
    if (fileSeen || finished) {
      stream.resume();
      return;
    }
    if (name.toLowerCase() === 'file') {
      filename = info.filename;
      startFile(stream, info.mimeType);
      return;
    }
    // Any other part with a filename is a form field whose value is its content.
    fields.push(
      new Promise<FormField>((resolve) => {
        const chunks: Buffer[] = [];
        let size = 0;
        stream.on('data', (chunk: Buffer) => {
          size += chunk.length;
          preDataBytes += chunk.length;
          if (size <= MAX_POST_PRE_DATA_BYTES) chunks.push(chunk);
          if (preDataBytes > MAX_POST_PRE_DATA_BYTES) tooMuchPreData();
        });
        stream.on('end', () => resolve({ name, value: Buffer.concat(chunks).toString('utf8') }));
      }),
    );
  });

  parser.on('error', () =>
    refuse({
      status: 400,
      code: 'MalformedPOSTRequest',
      message: 'The body of your POST request is not well-formed multipart/form-data.',
    }),
  );

  parser.on('close', () => {
    if (finished) return;
    if (fileWritten === undefined) {
      refuse({
        status: 400,
        code: 'InvalidArgument',
        message: 'POST requires exactly one file upload per request.',
        details: [
          ['ArgumentName', 'file'],
          ['ArgumentValue', '0'],
        ],
      });
      return;
    }
    fileWritten.then(
      ({ size, approval, partType }) => {
        if (finished) return;
        finished = true;
        forward(req, res, bucket, approval, tempFile, size, partType, filename, config);
      },
      () => undefined,
    );
  });

  req.pipe(parser);
}

/** Hands s3rver a rebuilt form: the expanded fields (no policy, no signature), then the file. */
function forward(
  req: IncomingMessage,
  res: ServerResponse,
  bucket: string,
  approval: PolicyApproval,
  tempFile: string,
  size: number,
  partType: string,
  filename: string | undefined,
  config: GuardConfig,
): void {
  const boundary = `----twin${randomBytes(12).toString('hex')}`;
  const quote = (text: string): string => text.replace(/"/g, '%22').replace(/[\r\n]/g, ' ');
  const head = approval.fields
    .filter((field) => !['policy', 'x-amz-signature'].includes(field.name.toLowerCase()))
    .map((field) => {
      // s3rver recognises `key`, `success_action_*` and metadata by their lower-case names.
      const name = field.name.toLowerCase() === 'key' ? 'key' : field.name.toLowerCase();
      return `--${boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"\r\n\r\n${field.value}\r\n`;
    })
    .join('');
  const fileHead =
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quote(filename ?? 'file')}"\r\n` +
    `Content-Type: ${partType || 'application/octet-stream'}\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const prefix = Buffer.from(head + fileHead, 'utf8');
  const suffix = Buffer.from(tail, 'utf8');

  const body = new PassThrough();
  body.write(prefix);
  const file = createReadStream(tempFile);
  file.on('end', () => {
    body.end(suffix);
    void unlink(tempFile).catch(() => undefined);
  });
  file.on('error', (error) => body.destroy(error));
  file.pipe(body, { end: false });

  const headers: IncomingHttpHeaders = {
    host: req.headers.host ?? 'localhost',
    'content-type': `multipart/form-data; boundary=${boundary}`,
    'content-length': String(prefix.length + size + suffix.length),
  };
  if (req.headers.origin !== undefined) headers.origin = req.headers.origin;
  proxy(req, res, config, body, { path: `/${encodeURIComponent(bucket)}`, headers });
}
