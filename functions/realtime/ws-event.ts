/**
 * The event API Gateway WebSocket APIs send a Lambda proxy integration, and its answer. One shape
 * for the three event types: CONNECT carries the handshake's headers and query string, MESSAGE the
 * frame's body, DISCONNECT the close status. The local WebSocket gateway (infra/local/ws-gateway.ts)
 * builds exactly this.
 */
export type WsEventType = 'CONNECT' | 'MESSAGE' | 'DISCONNECT';

export interface WsRequestContext {
  routeKey: string;
  eventType: WsEventType;
  /** Only for MESSAGE. */
  messageId?: string;
  connectionId: string;
  /** Epoch ms of the handshake. */
  connectedAt: number;
  requestId: string;
  extendedRequestId: string;
  /** `dd/MMM/yyyy:HH:mm:ss +0000` */
  requestTime: string;
  requestTimeEpoch: number;
  messageDirection: 'IN';
  stage: string;
  domainName: string;
  apiId: string;
  identity: { sourceIp: string; userAgent?: string };
  /** Only for DISCONNECT. */
  disconnectStatusCode?: number;
  disconnectReason?: string;
}

export interface WsEvent {
  requestContext: WsRequestContext;
  headers?: Record<string, string>;
  multiValueHeaders?: Record<string, string[]>;
  queryStringParameters?: Record<string, string>;
  multiValueQueryStringParameters?: Record<string, string[]>;
  body?: string;
  isBase64Encoded: boolean;
}

/** A non-2xx status from `$connect` refuses the connection; other routes' answers are dropped. */
export interface WsResult {
  statusCode: number;
  headers?: Record<string, string>;
  body?: string;
}
