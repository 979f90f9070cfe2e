import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

/**
 * Starts the marketplace exactly as a user does, with `npm start`, on a fresh temporary data
 * directory (so the first-start seeding runs), waits until the web and the API answer, and stops
 * it with one SIGINT at the end, as Ctrl-C would. E2E_BASE_URL runs the journeys against an
 * already running marketplace instead.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

const REPO = join(import.meta.dirname, '..');
const START_TIMEOUT_MS = 240_000;

/** Ready when the web and the API answer and, for our own `npm start`, it said so (after seeding). */
async function waitForReady(
  baseUrl: string,
  child: ChildProcess | undefined,
  output: () => string,
): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child !== undefined && child.exitCode !== null) {
      throw new Error(`npm start exited with ${child.exitCode} before it was ready:\n${output()}`);
    }
    const announced = child === undefined || output().includes('Press Ctrl-C to stop.');
    if (announced) {
      try {
        const [web, sellers] = await Promise.all([
          fetch(`${baseUrl}/`),
          fetch(`${baseUrl}/api/users/sellers?limit=1`),
        ]);
        const body = sellers.ok ? ((await sellers.json()) as { data: { items: unknown[] } }) : null;
        if (web.ok && body !== null && body.data.items.length > 0) return;
      } catch {
        // not listening yet
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`npm start was not ready within ${START_TIMEOUT_MS / 1000} s:\n${output()}`);
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const external = process.env.E2E_BASE_URL;
  if (external !== undefined && external !== '') {
    await waitForReady(external, undefined, () => '');
    project.provide('baseUrl', external);
    return async () => undefined;
  }

  const dataDir = mkdtempSync(join(tmpdir(), 'market-e2e-'));
  let log = '';
  const child = spawn('npm', ['start'], {
    cwd: REPO,
    // One creation per user reaches the limit, so the journeys can show the creation-limit block.
    env: { ...process.env, MARKET_DATA_DIR: dataDir, MINT_LIMIT_ITEMS: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so the teardown can send SIGINT to the whole group as Ctrl-C does.
    detached: true,
  });
  const interrupt = (signal: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  };
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const baseUrl = 'http://localhost:3000';
  const started = Date.now();
  try {
    await waitForReady(baseUrl, child, () => log.slice(-4000));
  } catch (error) {
    interrupt('SIGINT');
    throw error;
  }
  console.log(`[e2e] npm start ready in ${Date.now() - started} ms`);
  project.provide('baseUrl', baseUrl);

  return async () => {
    const exited = new Promise<number | null>((resolve) =>
      child.once('exit', (code) => resolve(code)),
    );
    interrupt('SIGINT');
    let timer: NodeJS.Timeout | undefined;
    const code = await Promise.race([
      exited,
      new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), 20_000);
      }),
    ]);
    // A pending timer would keep vitest from exiting (its "Vite servers" close timeout).
    clearTimeout(timer);
    if (code === 'timeout') {
      interrupt('SIGKILL');
      throw new Error(`npm start did not stop within 20 s of Ctrl-C:\n${log.slice(-2000)}`);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
}
