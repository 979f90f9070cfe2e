import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  ApiGatewayManagementApiClient,
  DeleteConnectionCommand,
  GetConnectionCommand,
  PostToConnectionCommand,
} from '@aws-sdk/client-apigatewaymanagementapi';
import type { WsEvent, WsResult } from '../../functions/realtime/index';
import { requestTime, startWsGateway, type WsGateway, type WsHandler } from './ws-gateway';

const ROUTES = [
  { routeKey: '$connect', handler: 'connect' },
  { routeKey: '$disconnect', handler: 'disconnect' },
  { routeKey: '$default', handler: 'default' },
  { routeKey: 'echo', handler: 'echo' },
  { routeKey: 'boom', handler: 'boom' },
];

const gateways: WsGateway[] = [];
const sockets: WebSocket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.terminate();
  await Promise.all(gateways.splice(0).map((gateway) => gateway.stop()));
});

function waitFor<T>(read: () => T | undefined, ms = 3000): Promise<T> {
  const end = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const check = () => {
      const value = read();
      if (value !== undefined) return resolve(value);
      if (Date.now() > end) return reject(new Error('timed out'));
      setTimeout(check, 5);
    };
    check();
  });
}

/** A gateway whose routes call the functions of `handlers` (by handler path). */
async function gateway(
  handlers: Record<string, (event: WsEvent) => unknown>,
  options: Partial<Parameters<typeof startWsGateway>[0]> = {},
) {
  const events: WsEvent[] = [];
  const gw = await startWsGateway({
    routes: ROUTES,
    log: () => undefined,
    resolveHandler: async (path) => {
      const fn = handlers[path];
      return (async (event: WsEvent) => {
        events.push(event);
        return fn === undefined ? { statusCode: 200 } : fn(event);
      }) as WsHandler;
    },
    ...options,
  });
  gateways.push(gw);
  const management = new ApiGatewayManagementApiClient({
    endpoint: gw.connectionsEndpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  return { gw, events, management };
}

interface Client {
  socket: WebSocket;
  messages: string[];
  closed: Promise<{ code: number; reason: string }>;
}

function connect(url: string, protocols?: string[]): Promise<Client> {
  const socket = new WebSocket(url, protocols, { headers: { 'User-Agent': 'vitest-ws' } });
  sockets.push(socket);
  const messages: string[] = [];
  socket.on('message', (data) => messages.push(String(data)));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve({ socket, messages, closed }));
    socket.once('unexpected-response', (_request, response) =>
      reject(new Error(`refused ${response.statusCode}`)),
    );
    socket.once('error', reject);
  });
}

const ofRoute = (events: WsEvent[], routeKey: string) =>
  events.filter((event) => event.requestContext.routeKey === routeKey);

describe('local WebSocket gateway', () => {
  it('sends $connect an API Gateway CONNECT event and accepts on 2xx', async () => {
    const { gw, events } = await gateway({});
    expect(gw.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/local$/);
    await connect(`${gw.url}?userid=u-1&tag=a&tag=b`);
    const [event] = ofRoute(events, '$connect');
    expect(event?.requestContext).toMatchObject({
      routeKey: '$connect',
      eventType: 'CONNECT',
      messageDirection: 'IN',
      stage: 'local',
      apiId: 'local',
      identity: { sourceIp: '127.0.0.1', userAgent: 'vitest-ws' },
    });
    const context = event?.requestContext;
    expect(context?.connectionId).toMatch(/^[A-Za-z0-9+/]{15}=$/);
    expect(context?.requestId).toBe(context?.extendedRequestId);
    expect(context?.connectedAt).toBeTypeOf('number');
    expect(context?.requestTime).toBe(requestTime(context?.requestTimeEpoch ?? 0));
    expect(context?.domainName).toBe(new URL(gw.url).host);
    expect(event?.queryStringParameters).toEqual({ userid: 'u-1', tag: 'b' });
    expect(event?.multiValueQueryStringParameters).toEqual({ userid: ['u-1'], tag: ['a', 'b'] });
    expect(event?.headers?.['Sec-WebSocket-Version']).toBe('13');
    expect(event?.headers?.['User-Agent']).toBe('vitest-ws');
    expect(event?.multiValueHeaders?.['X-Forwarded-For']).toEqual(['127.0.0.1']);
    expect(event?.isBase64Encoded).toBe(false);
  });

  it('refuses the handshake with the status of a non-2xx $connect answer, or 500 on a throw', async () => {
    const { gw } = await gateway({
      connect: (event): WsResult => ({
        statusCode: event.queryStringParameters?.deny === '1' ? 401 : 200,
      }),
    });
    await expect(connect(`${gw.url}?deny=1`)).rejects.toThrow('refused 401');
    await expect(connect(gw.url.replace('/local', '/other'))).rejects.toThrow('refused 404');

    const throwing = await gateway({
      connect: () => {
        throw new Error('boom');
      },
    });
    await expect(connect(throwing.gw.url)).rejects.toThrow('refused 500');
  });

  it('selects routes by the action field, else $default, and reports handler errors', async () => {
    const { gw, events } = await gateway({
      boom: () => {
        throw new Error('handler bug');
      },
    });
    const client = await connect(gw.url);
    client.socket.send(JSON.stringify({ action: 'echo', text: 'hi' }));
    client.socket.send('not json');
    client.socket.send(JSON.stringify({ action: 'unknown' }));
    client.socket.send(JSON.stringify({ action: '$connect' }));
    await waitFor(() => (ofRoute(events, '$default').length === 3 ? true : undefined));
    const [echo] = ofRoute(events, 'echo');
    expect(echo?.requestContext).toMatchObject({ eventType: 'MESSAGE', routeKey: 'echo' });
    expect(echo?.requestContext.messageId).toMatch(/=$/);
    expect(echo?.body).toBe(JSON.stringify({ action: 'echo', text: 'hi' }));
    expect(ofRoute(events, '$default').map((event) => event.body)).toEqual([
      'not json',
      JSON.stringify({ action: 'unknown' }),
      JSON.stringify({ action: '$connect' }),
    ]);

    client.socket.send(JSON.stringify({ action: 'boom' }));
    const error = await waitFor(() => client.messages[0]);
    expect(JSON.parse(error)).toMatchObject({
      message: 'Internal server error',
      connectionId: echo?.requestContext.connectionId,
    });
  });

  it('answers Forbidden when no route matches and there is no $default', async () => {
    const { gw } = await gateway(
      {},
      { routes: ROUTES.filter((route) => route.routeKey !== '$default') },
    );
    const client = await connect(gw.url);
    client.socket.send('{}');
    expect(JSON.parse(await waitFor(() => client.messages[0]))).toMatchObject({
      message: 'Forbidden',
    });
  });

  it('implements @connections for the real ApiGatewayManagementApiClient', async () => {
    const { gw, events, management } = await gateway({});
    const client = await connect(gw.url);
    const connectionId = ofRoute(events, '$connect')[0]?.requestContext.connectionId ?? '';

    await management.send(
      new PostToConnectionCommand({ ConnectionId: connectionId, Data: '{"type":"pong"}' }),
    );
    expect(await waitFor(() => client.messages[0])).toBe('{"type":"pong"}');

    const info = await management.send(new GetConnectionCommand({ ConnectionId: connectionId }));
    expect(info.ConnectedAt).toBeInstanceOf(Date);
    expect(info.LastActiveAt).toBeInstanceOf(Date);
    expect(info.Identity).toEqual({ SourceIp: '127.0.0.1', UserAgent: 'vitest-ws' });

    await expect(
      management.send(
        new PostToConnectionCommand({ ConnectionId: connectionId, Data: 'x'.repeat(129 * 1024) }),
      ),
    ).rejects.toMatchObject({ name: 'PayloadTooLargeException' });

    await management.send(new DeleteConnectionCommand({ ConnectionId: connectionId }));
    expect((await client.closed).code).toBe(1000);
    const [disconnect] = await waitFor(() => {
      const found = ofRoute(events, '$disconnect');
      return found.length > 0 ? found : undefined;
    });
    expect(disconnect?.requestContext).toMatchObject({
      eventType: 'DISCONNECT',
      connectionId,
      disconnectStatusCode: 1000,
    });

    for (const command of [
      new PostToConnectionCommand({ ConnectionId: connectionId, Data: 'late' }),
      new GetConnectionCommand({ ConnectionId: connectionId }),
      new DeleteConnectionCommand({ ConnectionId: connectionId }),
    ]) {
      await expect(management.send(command as never)).rejects.toMatchObject({
        name: 'GoneException',
        $metadata: { httpStatusCode: 410 },
      });
    }
  });

  it('reports a client close to $disconnect with its status and reason', async () => {
    const { gw, events } = await gateway({});
    const client = await connect(gw.url);
    client.socket.close(4000, 'bye');
    const [event] = await waitFor(() => {
      const found = ofRoute(events, '$disconnect');
      return found.length > 0 ? found : undefined;
    });
    expect(event?.requestContext).toMatchObject({
      disconnectStatusCode: 4000,
      disconnectReason: 'bye',
    });
  });

  it('closes idle connections (1001) like API Gateway', async () => {
    const { gw, events } = await gateway({}, { idleTimeoutMs: 60 });
    const client = await connect(gw.url);
    expect((await client.closed).code).toBe(1001);
    await waitFor(() => (ofRoute(events, '$disconnect').length === 1 ? true : undefined));
  });

  it('accepts a subprotocol only when $connect answers it', async () => {
    const { gw } = await gateway({
      connect: (event): WsResult => {
        const offered = event.headers?.['Sec-WebSocket-Protocol'];
        return offered === 'token-abc'
          ? { statusCode: 200, headers: { 'Sec-WebSocket-Protocol': 'token-abc' } }
          : { statusCode: 200 };
      },
    });
    const client = await connect(gw.url, ['token-abc']);
    expect(client.socket.protocol).toBe('token-abc');
    await expect(connect(gw.url, ['other'])).rejects.toThrow(/subprotocol/);
  });
});
