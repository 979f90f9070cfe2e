import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A counting HTTP proxy in front of DynamoDB Local: every request's operation (X-Amz-Target,
 * e.g. `DynamoDB_20120810.TransactWriteItems`) is counted, then forwarded unchanged. Pointing the
 * handlers' DYNAMODB_ENDPOINT at it tells how many DynamoDB requests a call makes.
 */
export interface DynamoCounter {
  url: string;
  counts(): Record<string, number>;
  total(): number;
  reset(): void;
  stop(): Promise<void>;
}

export async function startDynamoCounter(target: string): Promise<DynamoCounter> {
  const upstream = new URL(target);
  let counts: Record<string, number> = {};
  const server: Server = createServer((req, res) => {
    const operation = String(req.headers['x-amz-target'] ?? 'unknown').replace(
      /^DynamoDB_\d+\./,
      '',
    );
    counts[operation] = (counts[operation] ?? 0) + 1;
    const forward = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', (error) => {
      res.writeHead(502);
      res.end(String(error));
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts: () => ({ ...counts }),
    total: () => Object.values(counts).reduce((sum, count) => sum + count, 0),
    reset: () => {
      counts = {};
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
