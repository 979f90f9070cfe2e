import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { register, type NamespacedUnregister } from 'tsx/esm/api';
import { httpRoutes, type HttpRoute } from '../../functions/routes';
import { API_INTEGRATION_TIMEOUT_SECONDS, timeoutOf } from '../../functions/core/budgets';
import { readEnv } from '../../functions/core/env';
import type { ErrorBody, ErrorCode } from '../../shared/errors/registry';
import {
  InvalidLambdaResult,
  buildEvent,
  compileRoutes,
  lambdaContext,
  newRequestId,
  safeDecode,
  selectRoute,
  toHttpAnswer,
  type RouteMatch,
} from './api-gateway-v2';
import { invokeWithin, LambdaTimeout } from './invocation';
import { pageCallOf, SPA_SHELL, webFileOf } from '../lib/web-pages';
import { renderOutboxPage, type Outbox } from './outbox';
import { renderStripePage, stripeListing } from './stripe/dev-page';
import type { StripeTwin } from './stripe/server';
import {
  REPO_ROOT,
  assertPortFree,
  closeServer,
  escapeHtml,
  listen,
  readBody,
  silentLog,
  type Log,
} from './support';

/**
 * The local HTTP gateway on one origin, as CloudFront + API Gateway serve it in AWS:
 * - `/api/*`: the route table (functions/routes.ts) with HTTP API semantics; each request becomes
 *   a payload-format-2.0 event for the route's handler, invoked in this process;
 * - `/media/*`: objects of the images bucket (CloudFront's second origin in AWS);
 * - `/dev/outbox`: the captured e-mails and SMS (absent when STAGE is 'prod');
 * - everything else: the web build (dist/web): a file as it is; a client route gets its page
 *   rendered at build time (infra/lib/web-pages.ts) or else the SPA shell, index.html.
 */

/** API Gateway's payload limit for HTTP APIs. */
export const MAX_API_PAYLOAD_BYTES = 10 * 1024 * 1024;
/**
 * Lambda's limit for a synchronous invocation's request payload (the whole event as JSON, a
 * base64-encoded body included). API Gateway answers 413 when the event it would send is larger,
 * so in AWS a body over about 6 MB never reaches a handler.
 */
export const MAX_LAMBDA_PAYLOAD_BYTES = 6 * 1024 * 1024;

export type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<unknown>;

/**
 * The JWT authorizer of routes whose auth level is 'user' or 'admin'; the single place where the
 * twin checks tokens (the twin plugs in cognito/authorizer.ts, the local user pool's). It returns what
 * API Gateway's JWT authorizer puts in requestContext.authorizer (`{ jwt: { claims, scopes } }`;
 * `scopes` is null for a route without authorization scopes, as ours are),
 * or null when the token is missing or invalid (answered 401 as API Gateway does).
 */
export type Authorizer = (
  route: HttpRoute,
  request: { headers: Record<string, string | string[] | undefined> },
) => Promise<{ jwt: { claims: Record<string, unknown>; scopes: string[] | null } } | null>;

export interface HttpGatewayOptions {
  port?: number;
  routes?: readonly HttpRoute[];
  /** Where `<handler>.ts` modules live (functions/); ignored when loadHandler is given. */
  functionsDir?: string;
  /** Loads a handler path of the route table (default: handlerLoader(functionsDir)). */
  loadHandler?: (handler: string) => Promise<Handler>;
  /** The web build (dist/web). */
  webDir?: string;
  /** s3rver's own URL and the images bucket, for /media. */
  images?: { s3Url: string; bucket: string };
  outbox?: Outbox;
  authorizer?: Authorizer;
  /** The Stripe twin, listed at /dev/stripe (a getter: it starts after the gateway). */
  stripe?: () => Pick<StripeTwin, 'state' | 'deliveries' | 'faults'> | undefined;
  /**
   * Twin-only drivers for tests and demos, `POST /dev/<name>` with a JSON body (absent in
   * production): e.g. `/dev/notifications` emits notifications as the later features will.
   */
  devCalls?: Record<string, (body: unknown) => Promise<unknown>>;
  /** Extra headers on web responses (the CloudFront response headers policy). */
  webHeaders?: Record<string, string>;
  /**
   * API Gateway's integration timeout (default 30 s, the HTTP API's): past it the client gets 503
   * while the handler may run on. Each handler's own budget (its route's `timeoutSeconds`) is
   * shorter, so in practice the handler is stopped first; tests shorten this to see the 503.
   */
  timeoutMs?: number;
  /** Progress lines; silent if omitted. */
  log?: Log;
  /** Handler failures, timeouts and load errors (default console.error): never silent. */
  errorLog?: Log;
  /** One line per request (method, path, status, ms); off when omitted. */
  accessLog?: Log;
}

export interface HttpGateway {
  url: string;
  port: number;
  /** Each route's budget in seconds, by route key (`GET /api/health`): the parity test reads it. */
  budgets: Record<string, number>;
  stop(): Promise<void>;
}

export async function startHttpGateway(options: HttpGatewayOptions = {}): Promise<HttpGateway> {
  const log = options.log ?? silentLog;
  const errorLog = options.errorLog ?? ((line: string) => console.error(line));
  if (options.port !== undefined) await assertPortFree(options.port, 'HTTP gateway');
  const compiled = compileRoutes(options.routes ?? httpRoutes);
  // Each route's budget, checked at start: a route API Gateway could not honour stops the twin,
  // as it stops CDK's synth.
  const budgets = Object.fromEntries(
    compiled.map(({ route, routeKey }) => [routeKey, timeoutOf(route)]),
  );
  const functionsDir = options.functionsDir ?? path.join(REPO_ROOT, 'functions');
  const webDir = options.webDir ?? path.join(REPO_ROOT, 'dist', 'web');
  const loader = options.loadHandler ?? handlerLoader(functionsDir);

  const server = createServer((req, res) => {
    const started = Date.now();
    res.on('finish', () =>
      options.accessLog?.(
        `${req.method ?? '?'} ${req.url ?? ''} ${res.statusCode} ${Date.now() - started}ms`,
      ),
    );
    route(req, res).catch((error: unknown) => {
      errorLog(
        `[http] failure on ${req.url ?? ''}: ${error instanceof Error ? error.stack : error}`,
      );
      if (!res.headersSent) sendText(res, 500, 'Internal error of the local gateway.');
      else res.destroy();
    });
  });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? '/';
    const pathname = url.split('?')[0] ?? '/';
    if (pathname.startsWith('/api/')) {
      await api(req, res);
      return;
    }
    if (pathname.startsWith('/media/')) {
      media(req, res, pathname);
      return;
    }
    if (pathname === '/dev/stripe' || pathname === '/dev/stripe.json') {
      const stripe = options.stripe?.();
      if (stripe !== undefined && readEnv().stage !== 'prod') {
        const listing = stripeListing(stripe.state(), stripe.deliveries(), stripe.faults());
        if (pathname.endsWith('.json')) {
          sendJson(res, 200, listing, { 'cache-control': 'no-store' });
          return;
        }
        const html = renderStripePage(listing);
        res.writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-store',
          'content-length': Buffer.byteLength(html),
        });
        res.end(html);
        return;
      }
    }
    if (pathname === '/dev/outbox' || pathname === '/dev/outbox.json') {
      if (options.outbox !== undefined && readEnv().stage !== 'prod') {
        outboxPage(req, res, pathname, options.outbox);
        return;
      }
    }
    const devCall = options.devCalls?.[pathname];
    if (devCall !== undefined && req.method === 'POST' && readEnv().stage !== 'prod') {
      const raw = await readBody(req, 1024 * 1024);
      let body: unknown;
      try {
        body = JSON.parse(raw?.toString('utf8') || '{}');
      } catch {
        sendJson(res, 400, { error: { code: 'invalid_json', message: 'Body is not JSON.' } });
        return;
      }
      try {
        sendJson(res, 200, { data: await devCall(body) }, { 'cache-control': 'no-store' });
      } catch (error) {
        sendJson(res, 400, {
          error: {
            code: 'invalid_request',
            message: error instanceof Error ? error.message : String(error),
          },
        });
      }
      return;
    }
    await web(req, res, pathname);
  }

  /**
   * An API call; or, with `page`, the page call the CDN's viewer-request function sends a web path
   * to (infra/lib/stacks/web-stack.ts), answered as the default behaviour answers: compressed,
   * with the web's headers.
   */
  async function api(
    req: IncomingMessage,
    res: ServerResponse,
    page?: { target: string },
  ): Promise<void> {
    const requestId = newRequestId();
    const now = new Date();
    res.setHeader('apigw-requestid', requestId);
    const declared = Number(req.headers['content-length'] ?? '0');
    if (declared > MAX_API_PAYLOAD_BYTES) {
      req.resume();
      sendApiError(res, 413, 'payload_too_large', 'Request Entity Too Large', requestId);
      return;
    }
    const body = await readBody(req, MAX_API_PAYLOAD_BYTES);
    if (body === null) {
      sendApiError(res, 413, 'payload_too_large', 'Request Entity Too Large', requestId);
      return;
    }
    const method = req.method ?? 'GET';
    const target = page?.target ?? req.url ?? '/';
    const decodedPath = safeDecode(target.split('?')[0] ?? '/');
    const match = selectRoute(compiled, method, decodedPath);
    if (match === undefined) {
      // Only reachable with a route table lacking the catch-all: API Gateway's own answer.
      sendJson(res, 404, { message: 'Not Found' });
      return;
    }

    let authorizer: unknown;
    if (match.route.auth !== 'public') {
      if (options.authorizer === undefined) {
        errorLog(
          `[http] ${match.routeKey} needs auth '${match.route.auth}' but no JWT authorizer is wired into the local gateway`,
        );
        sendApiError(
          res,
          500,
          'unexpected',
          `The local gateway has no JWT authorizer yet: ${match.routeKey} (auth '${match.route.auth}') cannot be served.`,
          requestId,
        );
        return;
      }
      authorizer = await options.authorizer(match.route, { headers: req.headers });
      if (authorizer === null) {
        // API Gateway's JWT authorizer answers this itself; the handler never runs.
        sendJson(res, 401, { message: 'Unauthorized' }, { 'www-authenticate': 'Bearer' });
        return;
      }
    }

    const event = buildEvent(
      {
        method,
        url: target,
        headers: req.headers,
        body,
        sourceIp: normalizeIp(req.socket.remoteAddress),
        protocol: `HTTP/${req.httpVersion}`,
      },
      match,
      { requestId, now, ...(authorizer === undefined ? {} : { authorizer }) },
    );
    if (Buffer.byteLength(JSON.stringify(event), 'utf8') > MAX_LAMBDA_PAYLOAD_BYTES) {
      sendApiError(res, 413, 'payload_too_large', 'Request Entity Too Large', requestId);
      return;
    }
    await invoke(res, match, event, requestId, page ? req : undefined);
  }

  async function invoke(
    res: ServerResponse,
    match: RouteMatch,
    event: APIGatewayProxyEventV2,
    requestId: string,
    /** The viewer's request of a page call (its answer is compressed as CloudFront does). */
    pageRequest?: IncomingMessage,
  ): Promise<void> {
    const integrationMs = options.timeoutMs ?? API_INTEGRATION_TIMEOUT_SECONDS * 1000;
    const timeoutSeconds = budgets[match.routeKey] ?? timeoutOf(match.route);
    let handler: Handler;
    try {
      handler = await loader(match.route.handler);
    } catch (error) {
      errorLog(`[http] cannot load handler ${match.route.handler}: ${describeError(error)}`);
      sendApiError(res, 500, 'unexpected', 'Internal Server Error', requestId);
      return;
    }
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const integrationTimeout = new Promise<typeof INTEGRATION_TIMED_OUT>((resolve) => {
      timer = setTimeout(() => resolve(INTEGRATION_TIMED_OUT), integrationMs);
    });
    let result: unknown;
    try {
      result = await Promise.race([
        invokeWithin(
          {
            functionName: match.route.handler,
            handler: match.route.handler,
            timeoutSeconds,
            region: 'us-east-1',
            context: (timeoutMs) => lambdaContext(match.route.handler, timeoutMs, started),
          },
          (context) => handler(event, context),
        ),
        integrationTimeout,
      ]);
    } catch (error) {
      if (error instanceof LambdaTimeout) {
        // The function was stopped at its budget: API Gateway answers a failed Lambda integration.
        errorLog(`[http] ${match.routeKey} (${match.route.handler}) ${error.message}`);
        sendGatewayError(res, 500, 'Internal Server Error');
        return;
      }
      errorLog(`[http] ${match.routeKey} (${match.route.handler}) threw: ${describeError(error)}`);
      sendApiError(res, 500, 'unexpected', 'Internal Server Error', requestId);
      return;
    } finally {
      clearTimeout(timer);
    }
    if (result === INTEGRATION_TIMED_OUT) {
      errorLog(
        `[http] ${match.routeKey} (${match.route.handler}) gave no answer within API Gateway's ` +
          `${integrationMs / 1000} s integration timeout`,
      );
      sendGatewayError(res, 503, 'Service Unavailable');
      return;
    }
    let answer;
    try {
      answer = toHttpAnswer(result);
    } catch (error) {
      if (!(error instanceof InvalidLambdaResult)) throw error;
      errorLog(`[http] ${match.routeKey} returned an invalid result: ${error.message}`);
      sendApiError(res, 500, 'unexpected', 'Internal Server Error', requestId);
      return;
    }
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of answer.headers) {
      const existing = headers[name];
      headers[name] =
        existing === undefined
          ? value
          : name === 'set-cookie'
            ? [...(Array.isArray(existing) ? existing : [existing]), value]
            : `${Array.isArray(existing) ? existing.join(',') : existing},${value}`;
    }
    let body = answer.body;
    if (pageRequest !== undefined) {
      Object.assign(headers, options.webHeaders);
      const encoding = compressible(String(headers['content-type'] ?? ''), body.length)
        ? pickEncoding(pageRequest.headers['accept-encoding'])
        : null;
      if (encoding) {
        body = compress(body, encoding);
        headers['content-encoding'] = encoding;
        headers.vary = 'Accept-Encoding';
      }
    }
    headers['content-length'] = String(body.length);
    res.writeHead(answer.status, headers);
    res.end(pageRequest?.method === 'HEAD' ? undefined : body);
  }

  function media(req: IncomingMessage, res: ServerResponse, pathname: string): void {
    if (options.images === undefined) {
      sendText(res, 404, 'No images bucket is configured.');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendText(res, 405, 'Method Not Allowed', { allow: 'GET, HEAD' });
      return;
    }
    const key = safeDecode(pathname.slice('/media/'.length));
    const target = new URL(options.images.s3Url);
    const forward: Record<string, string> = {};
    for (const name of ['range', 'if-none-match', 'if-modified-since', 'if-match']) {
      const value = req.headers[name];
      if (typeof value === 'string') forward[name] = value;
    }
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: `/${encodeURIComponent(options.images.bucket)}/${key
          .split('/')
          .map(encodeURIComponent)
          .join('/')}`,
        headers: forward,
      },
      (response) => {
        const headers: Record<string, string> = {};
        for (const name of [
          'content-type',
          'content-length',
          'content-range',
          'accept-ranges',
          'etag',
          'last-modified',
          'cache-control',
        ]) {
          const value = response.headers[name];
          if (typeof value === 'string') headers[name] = value;
        }
        res.writeHead(response.statusCode ?? 502, headers);
        response.pipe(res);
      },
    );
    upstream.on('error', (error) => {
      log(`[http] /media read failed: ${error.message}`);
      if (!res.headersSent) sendText(res, 502, 'The images bucket did not answer.');
    });
    upstream.end();
  }

  function outboxPage(
    req: IncomingMessage,
    res: ServerResponse,
    pathname: string,
    outbox: Outbox,
  ): void {
    const wantsJson =
      pathname.endsWith('.json') || (req.headers.accept ?? '').includes('application/json');
    if (wantsJson) {
      sendJson(res, 200, { messages: outbox.messages() }, { 'cache-control': 'no-store' });
      return;
    }
    const html = renderOutboxPage(outbox.messages());
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-length': Buffer.byteLength(html),
    });
    res.end(html);
  }

  async function web(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendText(res, 405, 'Method Not Allowed', { allow: 'GET, HEAD' });
      return;
    }
    const indexFile = path.join(webDir, 'index.html');
    if (!existsSync(indexFile)) {
      const page = missingBuildPage(webDir);
      res.writeHead(503, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'content-length': Buffer.byteLength(page),
      });
      res.end(req.method === 'HEAD' ? undefined : page);
      return;
    }
    // A public profile is rendered on request by its page call, as the CDN's function routes it.
    const call = pageCallOf(pathname);
    if (call !== undefined && selectRoute(compiled, 'GET', call)?.route.html === true) {
      await api(req, res, { target: call });
      return;
    }
    const relative = path.normalize(safeDecode(pathname)).replace(/^([/\\])+/, '');
    const file = path.join(webDir, relative);
    const inside = file === webDir || file.startsWith(webDir + path.sep);
    const stat = inside && existsSync(file) ? statSync(file) : undefined;
    if (stat?.isFile()) {
      serveFile(req, res, file, stat, relative, options.webHeaders);
      return;
    }
    const last = pathname.split('/').pop() ?? '';
    if (last.includes('.')) {
      sendText(res, 404, 'Not Found');
      return;
    }
    // A page rendered at build time gets its own HTML; the client router answers every other
    // path from the shell (infra/lib/web-pages.ts, as the CloudFront function does).
    const page = webFileOf(pathname);
    const pageFile = path.join(webDir, page);
    const served = existsSync(pageFile) ? page : SPA_SHELL;
    const servedFile = path.join(webDir, served);
    serveFile(req, res, servedFile, statSync(servedFile), served, options.webHeaders);
  }

  const port = await listen(server, options.port ?? 0);
  const url = `http://localhost:${port}`;
  log(`[http] gateway on ${url} (${compiled.length} API routes, web from ${webDir})`);
  return { url, port, budgets, stop: () => closeServer(server) };
}

/**
 * Imports handler modules once each, through tsx (its own namespace, so the same loader works
 * under `node --import tsx` and inside vitest's global setup): `.ts` handlers run as they are.
 */
export function handlerLoader(functionsDir: string): (handler: string) => Promise<Handler> {
  const cache = new Map<string, Promise<Handler>>();
  let api: NamespacedUnregister | undefined;
  return (handler) => {
    let loading = cache.get(handler);
    if (loading === undefined) {
      loading = (async () => {
        const file = path.join(functionsDir, `${handler}.ts`);
        if (!existsSync(file)) throw new Error(`handler module ${file} does not exist`);
        api ??= register({ namespace: 'twin-http-gateway' });
        const module = (await api.import(pathToFileURL(file).href, import.meta.url)) as {
          handler?: unknown;
        };
        if (typeof module.handler !== 'function') {
          throw new Error(`${file} does not export a handler function`);
        }
        return module.handler as Handler;
      })();
      cache.set(handler, loading);
      loading.catch(() => cache.delete(handler));
    }
    return loading;
  };
}

function describeError(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

function normalizeIp(address: string | undefined): string {
  if (address === undefined) return '127.0.0.1';
  return address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/**
 * API Gateway's own answer (HTTP API): `{"message": ...}` as JSON, with the `apigw-requestid`
 * header already set. 500 "Internal Server Error" when the Lambda integration failed (the function
 * timed out, among others); 503 "Service Unavailable" past the integration timeout.
 */
function sendGatewayError(res: ServerResponse, status: 500 | 503, message: string): void {
  sendJson(res, status, { message });
}

/** Marks the integration timeout in the race with the handler (no handler result can equal it). */
const INTEGRATION_TIMED_OUT = Symbol('integration timed out');

/** The gateway's own error answers, in the API's error shape. */
function sendApiError(
  res: ServerResponse,
  status: number,
  code: ErrorCode,
  message: string,
  requestId: string,
): void {
  const body: ErrorBody = { error: { code, message, requestId } };
  sendJson(res, status, body, { 'x-request-id': requestId });
}

function sendText(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.pdf': 'application/pdf',
};

function serveFile(
  req: IncomingMessage,
  res: ServerResponse,
  file: string,
  stat: { size: number; mtimeMs: number; mtime: Date },
  relative: string,
  extraHeaders: Record<string, string> | undefined,
): void {
  const etag = `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
  // Vite's hashed assets never change; everything else is revalidated.
  const immutable = relative.startsWith(`assets${path.sep}`) || relative.startsWith('assets/');
  const headers: Record<string, string> = {
    'content-type': MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
    'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    etag,
    'last-modified': stat.mtime.toUTCString(),
    ...extraHeaders,
  };
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  const encoding = compressible(headers['content-type'] ?? '', stat.size)
    ? pickEncoding(req.headers['accept-encoding'])
    : null;
  if (encoding) {
    const body = compressed(file, etag, encoding);
    headers['content-encoding'] = encoding;
    headers['content-length'] = String(body.length);
    headers.vary = 'Accept-Encoding';
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
    return;
  }
  headers['content-length'] = String(stat.size);
  res.writeHead(200, headers);
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(file).pipe(res);
}

/*
 * Compression as CloudFront applies it in AWS (the web stack's behaviours use the
 * CachingOptimized policy, which enables Brotli and gzip): text types between 1,000 bytes and
 * 10 MB, Brotli when the browser accepts it, else gzip. Each file is compressed once per version.
 */
const COMPRESSIBLE = /^(text\/|application\/(json|javascript|manifest\+json|xml)|image\/svg\+xml)/;

function compressible(contentType: string, size: number): boolean {
  return COMPRESSIBLE.test(contentType) && size >= 1_000 && size <= 10_000_000;
}

type Encoding = 'br' | 'gzip';

function pickEncoding(acceptEncoding: string | string[] | undefined): Encoding | null {
  const accepted = String(acceptEncoding ?? '')
    .split(',')
    .map((part) => part.trim().split(';')[0]?.toLowerCase());
  if (accepted.includes('br')) return 'br';
  if (accepted.includes('gzip')) return 'gzip';
  return null;
}

const compressedCache = new Map<string, Buffer>();

function compress(raw: Buffer, encoding: Encoding): Buffer {
  return encoding === 'br'
    ? brotliCompressSync(raw, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } })
    : gzipSync(raw);
}

function compressed(file: string, etag: string, encoding: Encoding): Buffer {
  const key = `${encoding} ${file} ${etag}`;
  let body = compressedCache.get(key);
  if (!body) {
    body = compress(readFileSync(file), encoding);
    compressedCache.set(key, body);
  }
  return body;
}

function missingBuildPage(webDir: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Web build missing</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem}</style>
</head><body>
<h1>The web app is not built</h1>
<p>The local gateway serves the web build from <code>${escapeHtml(webDir)}</code>, which has no
<code>index.html</code>. Build it with <code>npm run build:web</code> (or restart
<code>npm start</code>, which builds it when it is missing or older than <code>web/</code>).</p>
<p>The API answers under <a href="/api/health">/api/health</a>.</p>
</body></html>`;
}
