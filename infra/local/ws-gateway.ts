/**
 * The local API Gateway WebSocket API: the `ws` package serving the route table's WebSocket routes
 * (functions/routes.ts `webSocketRoutes`), with handlers invoked in-process, plus the `@connections`
 * management API on the same port for the real `ApiGatewayManagementApiClient`.
 *
 * What it emulates (and nothing more; anything else is refused):
 * - URL `ws://<host>:<port>/<stage>`; management endpoint `http://<host>:<port>/<stage>`
 *   (set WS_CONNECTIONS_ENDPOINT to it). Connection ids look like API Gateway's.
 * - `$connect`: the handshake waits for the handler; a non-2xx status (or a throw, 500) refuses it
 *   with that status. Its event has the handshake headers (case kept), `multiValueHeaders`,
 *   `queryStringParameters`/`multiValueQueryStringParameters` (absent when empty). A requested
 *   subprotocol is accepted only if the handler answers a `Sec-WebSocket-Protocol` header (as in
 *   AWS, where browsers otherwise drop the connection).
 * - Messages: route selection `$request.body.action` (a JSON body whose `action` names a route),
 *   else `$default`; with no route, the client gets `{"message":"Forbidden",...}`; a throwing handler
 *   gets `{"message":"Internal server error",...}` as in AWS. Route responses are not configured, so
 *   handlers answer through `@connections` and their return value is dropped. Frames over 128 KiB
 *   close the connection (1009); binary frames go to `$default` base64-encoded.
 * - Each handler is held to its route's budget (`timeoutSeconds`, default 10 s; invocation.ts):
 *   one still running then is answered as a throwing one, and its later I/O is refused.
 * - Close (either side, idle 10 min, 2 h maximum) → `$disconnect` with `disconnectStatusCode` and
 *   `disconnectReason`.
 * - `@connections/{id}`: POST sends the body (text frame when UTF-8, 128 KiB max, 413
 *   PayloadTooLargeException beyond), GET answers `connectedAt`/`identity`/`lastActiveAt` (ISO 8601),
 *   DELETE closes (204), each 410 GoneException for an unknown or not-yet-connected id. Requests are
 *   not signature-checked.
 * Gaps: no authorizers (JWT is checked by the `$connect` handler), no route responses, no API keys,
 * no throttling; on `stop()` open connections are dropped without `$disconnect` (their table items
 * expire by TTL).
 */
import http, { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { WebSocketServer, type WebSocket } from 'ws';
import { webSocketRoutes, type WebSocketRoute } from '../../functions/routes';
import type { WsEvent, WsEventType, WsResult } from '../../functions/realtime/index';
import { timeoutOf } from '../../functions/core/budgets';
import { invokeWithin } from './invocation';
import type { Context } from 'aws-lambda';
import { FUNCTIONS_DIR, loadHandler } from './workflows/invoke';

export type WsHandler = (event: WsEvent, context: Context) => unknown;

export interface WsGatewayOptions {
  /** 0 or absent picks a free port. */
  port?: number;
  host?: string;
  stage?: string;
  region?: string;
  routes?: readonly WebSocketRoute[];
  /** Loads a handler path of the route table (default: `functions/<path>.ts`, export `handler`). */
  resolveHandler?: (handlerPath: string) => Promise<WsHandler>;
  functionsDir?: string;
  idleTimeoutMs?: number;
  maxConnectionMs?: number;
  now?: () => number;
  log?: (line: string) => void;
}

export interface WsGateway {
  /** The WebSocket URL clients connect to. */
  url: string;
  /** The `@connections` endpoint (WS_CONNECTIONS_ENDPOINT). */
  connectionsEndpoint: string;
  /** Each route's budget in seconds, by route key: the parity test reads it. */
  budgets: Record<string, number>;
  stop(): Promise<void>;
}

const MAX_MESSAGE_BYTES = 128 * 1024;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

interface ConnectionInfo {
  id: string;
  connectedAt: number;
  sourceIp: string;
  userAgent: string | undefined;
  host: string;
}

interface Connection extends ConnectionInfo {
  socket: WebSocket;
  lastActiveAt: number;
  timers: NodeJS.Timeout[];
  idle: NodeJS.Timeout | undefined;
}

/** API Gateway ids: 16 base64 characters ending in '='. */
function awsId(): string {
  return randomBytes(11).toString('base64');
}

/** `dd/MMM/yyyy:HH:mm:ss +0000`, API Gateway's requestTime. */
export function requestTime(epochMs: number): string {
  const d = new Date(epochMs);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`;
}

function isUtf8(buffer: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(buffer);
    return true;
  } catch {
    return false;
  }
}

function rejectUpgrade(socket: Duplex, status: number, message: string) {
  const body = JSON.stringify({ message });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
      `Connection: close\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

function headersOf(request: http.IncomingMessage) {
  const headers: Record<string, string> = {};
  const multi: Record<string, string[]> = {};
  const raw = request.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] ?? '';
    const value = raw[i + 1] ?? '';
    headers[name] = value;
    (multi[name] ??= []).push(value);
  }
  return { headers, multi };
}

function queryOf(url: URL) {
  const single: Record<string, string> = {};
  const multi: Record<string, string[]> = {};
  for (const [name, value] of url.searchParams) {
    single[name] = value;
    (multi[name] ??= []).push(value);
  }
  return Object.keys(single).length === 0 ? undefined : { single, multi };
}

export async function startWsGateway(options: WsGatewayOptions = {}): Promise<WsGateway> {
  const host = options.host ?? '127.0.0.1';
  const stage = options.stage ?? 'local';
  const region = options.region ?? process.env.AWS_REGION ?? 'us-east-1';
  const routes = new Map((options.routes ?? webSocketRoutes).map((r) => [r.routeKey, r.handler]));
  // Each route's budget (its declaration's, as CDK sets it), checked at start.
  const budgets = Object.fromEntries(
    (options.routes ?? webSocketRoutes).map((r) => [r.routeKey, timeoutOf(r)]),
  );
  const now = options.now ?? Date.now;
  const idleTimeoutMs = options.idleTimeoutMs ?? 10 * 60_000;
  const maxConnectionMs = options.maxConnectionMs ?? 2 * 3_600_000;
  const log = options.log ?? ((line: string) => console.error(line));
  const functionsDir = options.functionsDir ?? FUNCTIONS_DIR;
  const resolve =
    options.resolveHandler ??
    ((handlerPath: string) => loadHandler(handlerPath, functionsDir) as Promise<WsHandler>);
  const connections = new Map<string, Connection>();
  let stopping = false;
  let apiDomain = host;

  const context = (eventType: WsEventType, routeKey: string, conn: ConnectionInfo) => {
    const at = now();
    const requestId = awsId();
    return {
      routeKey,
      eventType,
      extendedRequestId: requestId,
      requestTime: requestTime(at),
      messageDirection: 'IN' as const,
      stage,
      connectedAt: conn.connectedAt,
      requestTimeEpoch: at,
      identity: {
        sourceIp: conn.sourceIp,
        ...(conn.userAgent === undefined ? {} : { userAgent: conn.userAgent }),
      },
      requestId,
      domainName: conn.host,
      connectionId: conn.id,
      apiId: 'local',
    };
  };

  /** Handler invocations under way: stop() waits for them, so none outlives the table. */
  const inFlight = new Set<Promise<unknown>>();
  const invoke = (routeKey: string, event: WsEvent): Promise<WsResult | undefined> => {
    const running = invokeHandler(routeKey, event);
    inFlight.add(running);
    void running.then(
      () => inFlight.delete(running),
      () => inFlight.delete(running),
    );
    return running;
  };
  const invokeHandler = async (routeKey: string, event: WsEvent): Promise<WsResult | undefined> => {
    const handlerPath = routes.get(routeKey);
    if (handlerPath === undefined) return undefined;
    const handler = await resolve(handlerPath);
    const functionName = handlerPath.replaceAll('/', '-');
    // Held to the route's budget: a handler still running then fails as a throwing one does
    // (invocation.ts stops its later I/O).
    const result = await invokeWithin(
      {
        functionName,
        handler: handlerPath,
        timeoutSeconds: budgets[routeKey] ?? timeoutOf({ routeKey, handler: handlerPath }),
        region,
      },
      (context) => handler(event, context),
    );
    if (typeof result === 'object' && result !== null && 'statusCode' in result) {
      return result as WsResult;
    }
    return { statusCode: 200 };
  };

  const resetIdle = (conn: Connection) => {
    if (conn.idle !== undefined) clearTimeout(conn.idle);
    conn.idle = setTimeout(() => conn.socket.close(1001, 'Going away'), idleTimeoutMs);
  };

  const onMessage = async (conn: Connection, data: Buffer, isBinary: boolean) => {
    conn.lastActiveAt = now();
    resetIdle(conn);
    const text = isBinary ? undefined : data.toString('utf8');
    let routeKey = '$default';
    if (text !== undefined) {
      try {
        const parsed: unknown = JSON.parse(text);
        const action =
          typeof parsed === 'object' && parsed !== null
            ? (parsed as Record<string, unknown>).action
            : undefined;
        if (typeof action === 'string' && !action.startsWith('$') && routes.has(action)) {
          routeKey = action;
        }
      } catch {
        // Not JSON: $default.
      }
    }
    const requestContext = { ...context('MESSAGE', routeKey, conn), messageId: awsId() };
    const reply = (message: string) =>
      conn.socket.send(
        JSON.stringify({
          message,
          connectionId: conn.id,
          requestId: requestContext.requestId,
        }),
      );
    if (!routes.has(routeKey)) {
      reply('Forbidden');
      return;
    }
    const event: WsEvent = {
      requestContext,
      body: text ?? data.toString('base64'),
      isBase64Encoded: text === undefined,
    };
    try {
      await invoke(routeKey, event);
    } catch (error) {
      log(
        `ws gateway: ${routeKey} handler failed: ${error instanceof Error ? error.stack : String(error)}`,
      );
      if (conn.socket.readyState === conn.socket.OPEN) reply('Internal server error');
    }
  };

  const onClose = async (conn: Connection, code: number, reason: Buffer) => {
    connections.delete(conn.id);
    for (const timer of conn.timers) clearTimeout(timer);
    if (conn.idle !== undefined) clearTimeout(conn.idle);
    await disconnected(conn, code, reason.toString('utf8'));
  };

  const disconnected = async (conn: ConnectionInfo, code: number, reasonText: string) => {
    if (stopping) return;
    const event: WsEvent = {
      requestContext: {
        ...context('DISCONNECT', '$disconnect', conn),
        disconnectStatusCode: code,
        disconnectReason: reasonText,
      },
      headers: { Host: conn.host, 'X-Forwarded-For': conn.sourceIp },
      multiValueHeaders: { Host: [conn.host], 'X-Forwarded-For': [conn.sourceIp] },
      isBase64Encoded: false,
    };
    try {
      await invoke('$disconnect', event);
    } catch (error) {
      log(
        `ws gateway: $disconnect handler failed: ${error instanceof Error ? error.stack : String(error)}`,
      );
    }
  };

  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE_BYTES,
    handleProtocols: (protocols, request) => {
      const chosen = (request as http.IncomingMessage & { chosenProtocol?: string }).chosenProtocol;
      return chosen !== undefined && protocols.has(chosen) ? chosen : false;
    },
  });

  const server = http.createServer((request, response) => {
    void handleManagement(request, response);
  });

  server.on('upgrade', (request: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => undefined);
    const url = new URL(request.url ?? '/', 'http://local');
    if (stopping || (url.pathname !== `/${stage}` && url.pathname !== `/${stage}/`)) {
      rejectUpgrade(socket, 404, 'Not Found');
      return;
    }
    const { headers, multi } = headersOf(request);
    const sourceIp = (request.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
    headers['X-Forwarded-For'] = sourceIp;
    multi['X-Forwarded-For'] = [sourceIp];
    const userAgent = request.headers['user-agent'];
    const base: ConnectionInfo = {
      id: awsId(),
      connectedAt: now(),
      sourceIp,
      userAgent,
      host: request.headers.host ?? apiDomain,
    };
    const query = queryOf(url);
    const event: WsEvent = {
      requestContext: context('CONNECT', '$connect', base),
      headers,
      multiValueHeaders: multi,
      ...(query === undefined
        ? {}
        : {
            queryStringParameters: query.single,
            multiValueQueryStringParameters: query.multi,
          }),
      isBase64Encoded: false,
    };
    invoke('$connect', event).then(
      (result) => {
        const status = result?.statusCode ?? 200;
        if (status < 200 || status > 299) {
          rejectUpgrade(socket, status, STATUS_CODES[status] ?? 'Refused');
          return;
        }
        if (stopping) return;
        if (socket.destroyed) {
          // The client left during $connect: API Gateway still reports the disconnect.
          void disconnected(base, 1006, '');
          return;
        }
        const protocol = Object.entries(result?.headers ?? {}).find(
          ([name]) => name.toLowerCase() === 'sec-websocket-protocol',
        )?.[1];
        if (protocol !== undefined) {
          (request as http.IncomingMessage & { chosenProtocol?: string }).chosenProtocol = protocol;
        }
        wss.handleUpgrade(request, socket, head, (ws) => {
          const conn: Connection = {
            ...base,
            socket: ws,
            lastActiveAt: base.connectedAt,
            timers: [],
            idle: undefined,
          };
          connections.set(conn.id, conn);
          conn.timers.push(setTimeout(() => ws.close(1001, 'Going away'), maxConnectionMs));
          resetIdle(conn);
          ws.on(
            'message',
            (data: Buffer, isBinary: boolean) => void onMessage(conn, data, isBinary),
          );
          ws.on('close', (code: number, reason: Buffer) => void onClose(conn, code, reason));
          ws.on('error', (error) => log(`ws gateway: connection ${conn.id}: ${error.message}`));
        });
      },
      (error: unknown) => {
        log(
          `ws gateway: $connect handler failed: ${error instanceof Error ? error.stack : String(error)}`,
        );
        rejectUpgrade(socket, 500, 'Internal server error');
      },
    );
  });

  const handleManagement = async (request: http.IncomingMessage, response: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const answer = (status: number, payload?: unknown, errorType?: string) => {
      const text = payload === undefined ? '' : JSON.stringify(payload);
      response.writeHead(status, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(text),
        'x-amzn-requestid': awsId(),
        ...(errorType === undefined ? {} : { 'x-amzn-errortype': errorType }),
      });
      response.end(text);
    };
    const url = new URL(request.url ?? '/', 'http://local');
    const match = /^(?:\/[^/]+)?\/@connections\/([^/]+)$/.exec(url.pathname);
    if (match?.[1] === undefined) {
      answer(404, { message: 'Not Found' });
      return;
    }
    const conn = connections.get(decodeURIComponent(match[1]));
    if (conn === undefined || conn.socket.readyState !== conn.socket.OPEN) {
      answer(410, { message: null }, 'GoneException');
      return;
    }
    switch (request.method) {
      case 'POST':
        if (body.length > MAX_MESSAGE_BYTES) {
          answer(413, { message: 'Message too long' }, 'PayloadTooLargeException');
          return;
        }
        conn.socket.send(body, { binary: !isUtf8(body) });
        answer(200);
        return;
      case 'GET':
        answer(200, {
          connectedAt: new Date(conn.connectedAt).toISOString(),
          identity: { sourceIp: conn.sourceIp, userAgent: conn.userAgent ?? '' },
          lastActiveAt: new Date(conn.lastActiveAt).toISOString(),
        });
        return;
      case 'DELETE':
        conn.socket.close(1000, 'Connection closed by server');
        answer(204);
        return;
      default:
        answer(403, { message: 'Forbidden' }, 'ForbiddenException');
    }
  };

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolveListen();
    });
  });
  const { port } = server.address() as AddressInfo;
  apiDomain = `${host}:${port}`;

  return {
    url: `ws://${host}:${port}/${stage}`,
    connectionsEndpoint: `http://${host}:${port}/${stage}`,
    budgets,
    async stop() {
      if (stopping) return;
      stopping = true;
      for (const conn of connections.values()) {
        for (const timer of conn.timers) clearTimeout(timer);
        if (conn.idle !== undefined) clearTimeout(conn.idle);
        conn.socket.terminate();
      }
      connections.clear();
      await Promise.allSettled([...inFlight]);
      await new Promise<void>((done) => wss.close(() => done()));
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
