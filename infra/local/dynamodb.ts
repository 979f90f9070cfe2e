import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdirSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  ListTablesCommand,
  ResourceNotFoundException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  type CreateTableCommandInput,
  type GlobalSecondaryIndex,
} from '@aws-sdk/client-dynamodb';
import { TABLE, tableAttributeNames } from '../../functions/core/table';
import {
  TWIN_CREDENTIALS,
  TWIN_REGION,
  TwinError,
  assertPortFree,
  freePort,
  silentLog,
  type Log,
} from './support';

/**
 * DynamoDB Local, the official emulator, from the jar inside the npm package
 * `amplify-dynamodb-simulator` (Java 17+). `-sharedDb` makes every credential and region see the
 * same tables (without it DynamoDB Local keeps one database per access key and region, and a
 * seed run with other credentials would write where the handlers never look).
 */

export interface DynamoLocalOptions {
  /** Fixed port (npm start) or omitted for a free one (tests). */
  port?: number;
  /** Directory of the database file; omitted means `-inMemory`. */
  dbPath?: string;
  log?: Log;
  /** Extra JVM options, e.g. ['-Xmx512m']. */
  javaOptions?: string[];
  startTimeoutMs?: number;
}

export interface DynamoLocal {
  url: string;
  port: number;
  pid: number;
  /** Time from spawn to the first answered ListTables, in ms. */
  startMs: number;
  stop(): Promise<void>;
}

export const JAVA_MIN_MAJOR = 17;
const JAVA_HINT =
  'Java 17+ is required for DynamoDB Local: apt-get install openjdk-17-jre-headless';

/** The directory holding DynamoDBLocal.jar inside amplify-dynamodb-simulator. */
export function dynamoJarDir(): string {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve('amplify-dynamodb-simulator/package.json');
  const dir = path.join(path.dirname(pkg), 'emulator');
  if (!existsSync(path.join(dir, 'DynamoDBLocal.jar'))) {
    throw new TwinError(
      `DynamoDBLocal.jar is missing from ${dir}: reinstall the package (npm ci) so its emulator is present.`,
    );
  }
  return dir;
}

/** Parses `java -version` output ("17.0.15", "1.8.0_392", "21") into the major version. */
export function javaMajor(versionOutput: string): number | undefined {
  const match = /version "(\d+)(?:\.(\d+))?/.exec(versionOutput);
  if (match === null) return undefined;
  const first = Number(match[1]);
  return first === 1 ? Number(match[2]) : first;
}

/** Resolves with the Java major version, or throws a TwinError saying how to install Java 17+. */
export async function checkJava(): Promise<number> {
  const output = await new Promise<string>((resolve, reject) => {
    execFile('java', ['-version'], { timeout: 15_000 }, (error, stdout, stderr) => {
      if (error !== null && (error as NodeJS.ErrnoException).code === 'ENOENT') {
        reject(new TwinError(`Java was not found on the PATH. ${JAVA_HINT}`));
        return;
      }
      if (error !== null) {
        reject(new TwinError(`\`java -version\` failed (${error.message}). ${JAVA_HINT}`));
        return;
      }
      resolve(`${stderr}${stdout}`);
    });
  });
  const major = javaMajor(output);
  if (major === undefined) {
    throw new TwinError(`Could not read the Java version from: ${output.trim()}. ${JAVA_HINT}`);
  }
  if (major < JAVA_MIN_MAJOR) {
    throw new TwinError(`Java ${major} was found. ${JAVA_HINT}`);
  }
  return major;
}

export function dynamoClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: TWIN_REGION,
    credentials: TWIN_CREDENTIALS,
    maxAttempts: 1,
  });
}

/**
 * Starts DynamoDB Local and resolves once it answers ListTables. A watchdog shell kills the JVM
 * if this Node process dies without stopping it (SIGKILL, crash), so no Java process is orphaned.
 */
export async function startDynamoLocal(options: DynamoLocalOptions = {}): Promise<DynamoLocal> {
  const log = options.log ?? silentLog;
  await checkJava();
  const port = options.port ?? (await freePort());
  if (options.port !== undefined) await assertPortFree(port, 'DynamoDB Local');
  const jarDir = dynamoJarDir();
  const args = [
    ...(options.javaOptions ?? []),
    `-Djava.library.path=${path.join(jarDir, 'DynamoDBLocal_lib')}`,
    '-jar',
    path.join(jarDir, 'DynamoDBLocal.jar'),
    '-port',
    String(port),
    '-sharedDb',
    '-disableTelemetry',
  ];
  if (options.dbPath === undefined) {
    args.push('-inMemory');
  } else {
    mkdirSync(options.dbPath, { recursive: true });
    args.push('-dbPath', options.dbPath);
  }

  const started = Date.now();
  const child = spawn('java', args, { cwd: jarDir, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const keep = (chunk: Buffer): void => {
    output.push(chunk.toString('utf8'));
    if (output.length > 200) output.shift();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const watchdog = startWatchdog(child);

  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exit = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = { code, signal };
      watchdog?.kill('SIGKILL');
      resolve();
    });
  });
  child.once('error', (error) => {
    output.push(String(error));
  });

  const url = `http://localhost:${port}`;
  const client = dynamoClient(url);
  try {
    const deadline = started + (options.startTimeoutMs ?? 30_000);
    for (;;) {
      if (exited !== undefined) {
        throw new TwinError(describeEarlyExit(port, exited.code, output.join('')));
      }
      const answered = await client.send(new ListTablesCommand({ Limit: 1 })).then(
        () => true,
        () => false,
      );
      if (answered) break;
      if (Date.now() > deadline) {
        throw new TwinError(
          `DynamoDB Local did not answer on port ${port} within ${deadline - started} ms:\n` +
            output.join('').trim().split('\n').slice(-15).join('\n'),
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } catch (error) {
    child.kill('SIGKILL');
    await exit;
    client.destroy();
    throw error;
  }
  client.destroy();
  const startMs = Date.now() - started;
  log(`[dynamodb] DynamoDB Local on ${url} (${options.dbPath ?? 'in memory'}) in ${startMs} ms`);

  let stopping: Promise<void> | undefined;
  return {
    url,
    port,
    pid: child.pid ?? -1,
    startMs,
    stop() {
      stopping ??= (async () => {
        if (exited === undefined) {
          child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
          await exit;
          clearTimeout(timer);
        }
        watchdog?.kill('SIGKILL');
      })();
      return stopping;
    },
  };
}

function describeEarlyExit(port: number, code: number | null, output: string): string {
  if (/Address already in use|BindException|Failed to bind/i.test(output)) {
    return `Port ${port} (DynamoDB Local) is already in use.`;
  }
  if (/UnsupportedClassVersionError/.test(output)) {
    return `DynamoDB Local needs a newer Java. ${JAVA_HINT}`;
  }
  const tail = output.trim().split('\n').slice(-15).join('\n');
  return `DynamoDB Local exited with code ${code ?? 'null'} before answering:\n${tail}`;
}

/** A shell loop that kills the JVM once this Node process is gone; ignores Ctrl-C itself. */
function startWatchdog(child: ChildProcess): ChildProcess | undefined {
  if (child.pid === undefined || process.platform === 'win32') return undefined;
  const script =
    `trap '' INT; while kill -0 ${process.pid} 2>/dev/null && kill -0 ${child.pid} 2>/dev/null; ` +
    `do sleep 1; done; kill ${child.pid} 2>/dev/null; sleep 5; kill -9 ${child.pid} 2>/dev/null; exit 0`;
  const watchdog = spawn('sh', ['-c', script], { stdio: 'ignore', detached: true });
  watchdog.unref();
  return watchdog;
}

/** The CreateTable input for the single table, from TABLE (functions/core/table.ts). */
export function tableDefinition(tableName: string): CreateTableCommandInput {
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: tableAttributeNames().map((name) => ({
      AttributeName: name,
      AttributeType: 'S',
    })),
    KeySchema: [
      { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
      { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: TABLE.globalIndexes.map(globalIndex),
    StreamSpecification: { StreamEnabled: true, StreamViewType: TABLE.streamViewType },
  };
}

function globalIndex(index: (typeof TABLE.globalIndexes)[number]): GlobalSecondaryIndex {
  return {
    IndexName: index.indexName,
    KeySchema: [
      { AttributeName: index.partitionKey, KeyType: 'HASH' },
      { AttributeName: index.sortKey, KeyType: 'RANGE' },
    ],
    Projection: { ProjectionType: 'ALL' },
  };
}

/**
 * Creates the table from TABLE with TTL and its stream enabled. Idempotent: an existing table (a
 * kept `.data/`) gets the indexes TABLE gained since it was created, its stream and TTL if off.
 */
export async function ensureTable(endpoint: string, tableName: string): Promise<void> {
  const client = dynamoClient(endpoint);
  try {
    let existing;
    try {
      existing = await client.send(new DescribeTableCommand({ TableName: tableName }));
    } catch (error) {
      if (!(error instanceof ResourceNotFoundException)) throw error;
    }
    if (existing === undefined) {
      await client.send(new CreateTableCommand(tableDefinition(tableName)));
    } else {
      const have = new Set(
        (existing.Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName),
      );
      if (existing.Table?.StreamSpecification?.StreamEnabled !== true) {
        await client.send(
          new UpdateTableCommand({
            TableName: tableName,
            StreamSpecification: { StreamEnabled: true, StreamViewType: TABLE.streamViewType },
          }),
        );
      }
      for (const index of TABLE.globalIndexes) {
        if (have.has(index.indexName)) continue;
        await client.send(
          new UpdateTableCommand({
            TableName: tableName,
            AttributeDefinitions: [index.partitionKey, index.sortKey].map((name) => ({
              AttributeName: name,
              AttributeType: 'S',
            })),
            GlobalSecondaryIndexUpdates: [{ Create: globalIndex(index) }],
          }),
        );
      }
    }
    const ttl = await client.send(new DescribeTimeToLiveCommand({ TableName: tableName }));
    const status = ttl.TimeToLiveDescription?.TimeToLiveStatus;
    if (status !== 'ENABLED' && status !== 'ENABLING') {
      await client.send(
        new UpdateTimeToLiveCommand({
          TableName: tableName,
          TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true },
        }),
      );
    }
  } finally {
    client.destroy();
  }
}
