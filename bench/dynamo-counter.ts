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
  /**
   * Write capacity units of the write requests, by DynamoDB's pricing rules applied to the
   * request bodies: a put costs ceil(item size / 1 KB) units, doubled inside a transaction;
   * updates, deletes and condition checks are counted as 1 unit (2 in a transaction), a lower
   * bound, since their cost depends on the stored item's size. DynamoDB Local's own
   * ConsumedCapacity is not used: it under-reports transactions (10 puts of 3 KB in one
   * transaction: 12 units reported, 60 by the rules).
   */
  writeUnits(): number;
  total(): number;
  reset(): void;
  stop(): Promise<void>;
}

const WRITE_OPERATIONS = new Set([
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'BatchWriteItem',
  'TransactWriteItems',
]);

type AttributeValue = Record<string, unknown>;

/** DynamoDB's item size: attribute names plus values (strings and binaries by bytes). */
export function attributeSize(value: AttributeValue): number {
  const [kind, inner] = Object.entries(value)[0] ?? ['NULL', true];
  switch (kind) {
    case 'S':
      return Buffer.byteLength(String(inner));
    case 'N':
      return Math.ceil(String(inner).replace(/^-/, '').length / 2) + 1;
    case 'B':
      return Buffer.from(String(inner), 'base64').length;
    case 'BOOL':
    case 'NULL':
      return 1;
    case 'SS':
    case 'NS':
    case 'BS':
      return (inner as unknown[]).reduce<number>(
        (sum, member) => sum + attributeSize({ [kind.slice(0, 1)]: member }),
        0,
      );
    case 'L':
      return (inner as AttributeValue[]).reduce(
        (sum, member) => sum + 1 + attributeSize(member),
        3,
      );
    case 'M':
      return 3 + itemSize(inner as Record<string, AttributeValue>);
    default:
      return 0;
  }
}

export function itemSize(item: Record<string, AttributeValue>): number {
  return Object.entries(item).reduce(
    (sum, [name, value]) => sum + Buffer.byteLength(name) + attributeSize(value),
    0,
  );
}

const units = (item: Record<string, AttributeValue>) =>
  Math.max(1, Math.ceil(itemSize(item) / 1024));

/** Write units of one write request (see DynamoCounter.writeUnits). */
export function requestWriteUnits(operation: string, body: Record<string, unknown>): number {
  switch (operation) {
    case 'PutItem':
      return units(body.Item as Record<string, AttributeValue>);
    case 'UpdateItem':
    case 'DeleteItem':
      return 1;
    case 'BatchWriteItem':
      return Object.values(body.RequestItems as Record<string, Record<string, unknown>[]>)
        .flat()
        .reduce<number>((sum, entry) => {
          const put = entry.PutRequest as { Item: Record<string, AttributeValue> } | undefined;
          return sum + (put === undefined ? 1 : units(put.Item));
        }, 0);
    case 'TransactWriteItems':
      return (body.TransactItems as Record<string, { Item?: Record<string, AttributeValue> }>[])
        .map((entry) => (entry.Put?.Item === undefined ? 1 : units(entry.Put.Item)))
        .reduce((sum, value) => sum + 2 * value, 0);
    default:
      return 0;
  }
}

export async function startDynamoCounter(target: string): Promise<DynamoCounter> {
  const upstream = new URL(target);
  let counts: Record<string, number> = {};
  let writeUnits = 0;
  const server: Server = createServer((req, res) => {
    const operation = String(req.headers['x-amz-target'] ?? 'unknown').replace(
      /^DynamoDB_\d+\./,
      '',
    );
    counts[operation] = (counts[operation] ?? 0) + 1;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (WRITE_OPERATIONS.has(operation)) {
        writeUnits += requestWriteUnits(operation, JSON.parse(body.toString('utf8')));
      }
      const forward = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, 'content-length': String(body.length) },
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
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts: () => ({ ...counts }),
    writeUnits: () => writeUnits,
    total: () => Object.values(counts).reduce((sum, count) => sum + count, 0),
    reset: () => {
      counts = {};
      writeUnits = 0;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
