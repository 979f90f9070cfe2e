import { createServer, type IncomingMessage, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

/**
 * Small helpers shared by the twin's parts: repository paths, ports, waiting, logging.
 */

/** The repository root (this file lives in infra/local/). */
export const REPO_ROOT = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

/** The gitignored data directory of `npm start` and `npm run seed`. */
/** Where `npm start` keeps its data: `.data/`, or MARKET_DATA_DIR (the e2e journeys use a fresh one). */
export const DEFAULT_DATA_DIR =
  process.env.MARKET_DATA_DIR !== undefined && process.env.MARKET_DATA_DIR !== ''
    ? path.resolve(process.env.MARKET_DATA_DIR)
    : path.join(REPO_ROOT, '.data');

/** Dummy credentials of the twin: every emulator knows them, AWS does not. Letters only. */
export const TWIN_CREDENTIALS = {
  accessKeyId: 'LOCALTWINKEY',
  secretAccessKey: 'localtwinsecret',
} as const;

export const TWIN_REGION = 'us-east-1';

/** A failure with a message meant for a person: printed without a stack trace by start/seed. */
export class TwinError extends Error {
  override readonly name = 'TwinError';
}

export type Log = (line: string) => void;

export const silentLog: Log = () => undefined;

/** Resolves with a port the OS considers free right now (there is a small race until it is used). */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** True when nothing listens on the port (checked by binding it on every interface). */
export async function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, () => server.close(() => resolve(true)));
  });
}

/** Throws a TwinError naming the part when the port is taken. */
export async function assertPortFree(port: number, what: string): Promise<void> {
  if (!(await isPortFree(port))) {
    throw new TwinError(
      `Port ${port} (${what}) is already in use. Another \`npm start\` may be running: stop it ` +
        `(Ctrl-C in its terminal), or find the process with \`lsof -i :${port}\` or \`ss -ltnp\`.`,
    );
  }
}

/** Polls `probe` until it returns true or the deadline passes. */
export async function waitUntil(
  probe: () => Promise<boolean>,
  options: { timeoutMs: number; intervalMs?: number; what: string },
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) {
      throw new TwinError(`${options.what} did not answer within ${options.timeoutMs} ms.`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 50));
  }
}

/** Reads a request body up to `limit` bytes; resolves null when the body is larger. */
export async function readBody(request: IncomingMessage, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) tooLarge = true;
    if (!tooLarge) chunks.push(chunk);
  }
  return tooLarge ? null : Buffer.concat(chunks);
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

export function escapeXml(text: string): string {
  return escapeHtml(text).replace(/&#39;/g, '&apos;');
}

export async function listen(server: Server, port: number, host = '127.0.0.1'): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new TwinError(`Port ${port} is already in use.`)
          : (error as Error),
      );
    });
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('server has no address');
  return address.port;
}

export async function closeServer(server: Server): Promise<void> {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
