import type { Context } from 'aws-lambda';
import { systemClock, type Clock } from '../core/clock';
import { isDomainError } from '../core/errors';
import { logger } from '../core/logger';
import type { ConnectRequest } from './connect';
import type { ConnectionRef } from './ping';
import type { WsEvent, WsResult } from './ws-event';

/**
 * The WebSocket routes' middleware: log context (request id, connection id, route), the clock, and
 * errors. On `$connect` a DomainError refuses the handshake with its status; anything unexpected is
 * logged and rethrown (API Gateway then answers 500, or "Internal server error" to the client).
 */
export function wsHandler(
  run: (event: WsEvent, now: Date) => Promise<WsResult>,
  clock: Clock = systemClock,
) {
  return async (event: WsEvent, context?: Context): Promise<WsResult> => {
    const { requestId, connectionId, routeKey, eventType } = event.requestContext;
    if (context !== undefined) logger.addContext(context);
    logger.appendKeys({ requestId, connectionId, route: routeKey });
    try {
      return await run(event, clock.now());
    } catch (error) {
      if (eventType === 'CONNECT' && isDomainError(error)) {
        logger.info('connection refused', { code: error.code, status: error.status });
        return { statusCode: error.status };
      }
      logger.error('unexpected error', error instanceof Error ? error : new Error(String(error)));
      throw error;
    } finally {
      logger.resetKeys();
    }
  };
}

export function connectionOf(event: WsEvent): ConnectionRef {
  return {
    connectionId: event.requestContext.connectionId,
    connectedAt: event.requestContext.connectedAt,
  };
}

export function connectRequestOf(event: WsEvent): ConnectRequest {
  return {
    ...connectionOf(event),
    query: event.queryStringParameters ?? {},
    headers: event.headers ?? {},
  };
}

/** The text of a message frame (binary frames arrive base64-encoded). */
export function bodyOf(event: WsEvent): string | undefined {
  if (event.body === undefined) return undefined;
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
}
