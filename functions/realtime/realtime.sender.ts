import {
  DeleteConnectionCommand,
  GoneException,
  PostToConnectionCommand,
  type ApiGatewayManagementApiClient,
} from '@aws-sdk/client-apigatewaymanagementapi';

/** What happened to a message for one connection: delivered, or the connection is gone (410). */
export type SendOutcome = 'sent' | 'gone';

/** The live channel's only caller of the `@connections` management API. */
export interface ConnectionSender {
  send(connectionId: string, data: string): Promise<SendOutcome>;
  /** Closes the connection from the server side. */
  disconnect(connectionId: string): Promise<SendOutcome>;
}

function isGone(error: unknown): boolean {
  if (error instanceof GoneException) return true;
  const meta = (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata;
  return meta?.httpStatusCode === 410;
}

/** `client` is resolved at first use, so routes that never send need no endpoint. */
export function createConnectionSender(
  client: () => ApiGatewayManagementApiClient,
): ConnectionSender {
  const attempt = async (call: () => Promise<unknown>): Promise<SendOutcome> => {
    try {
      await call();
      return 'sent';
    } catch (error) {
      if (isGone(error)) return 'gone';
      throw error;
    }
  };
  return {
    send: (connectionId, data) =>
      attempt(() =>
        client().send(
          new PostToConnectionCommand({ ConnectionId: connectionId, Data: Buffer.from(data) }),
        ),
      ),
    disconnect: (connectionId) =>
      attempt(() => client().send(new DeleteConnectionCommand({ ConnectionId: connectionId }))),
  };
}
