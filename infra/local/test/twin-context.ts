import { inject } from 'vitest';
import type { TwinContext } from './global-setup';

/**
 * For integration tests: the twin the global setup started. `useTwinEnv()` puts the handler
 * environment into the test worker's process.env, for tests that call repos or use cases
 * directly against the twin's DynamoDB Local and S3 (the handlers themselves run in the twin).
 */
export function twin(): TwinContext {
  return inject('twin');
}

export function useTwinEnv(): TwinContext {
  const context = inject('twin');
  Object.assign(process.env, context.env);
  return context;
}

/** `fetch` against the gateway: `gatewayFetch('/api/health')`. */
export function gatewayFetch(pathAndQuery: string, init?: RequestInit): Promise<Response> {
  return fetch(`${inject('twin').urls.http}${pathAndQuery}`, init);
}

/**
 * Runs a scheduled job of the twin now (`POST /dev/jobs`) and answers its handler's result:
 * `await runJob('auctionSweep')` makes the sweeper race a workflow. A failing job rejects with
 * its error's message.
 */
export async function runJob(name: string): Promise<unknown> {
  const response = await gatewayFetch('/dev/jobs', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  const answer = (await response.json()) as { data?: unknown; error?: { message?: string } };
  if (!response.ok) {
    throw new Error(`scheduled job ${name}: ${answer.error?.message ?? response.status}`);
  }
  return answer.data;
}

/**
 * Resolves once the twin's stream triggers have handled every record written before the call
 * (`POST /dev/streams/settled`): what follows a bid (its live events, notifications) is done.
 */
export async function streamsSettled(): Promise<void> {
  const response = await gatewayFetch('/dev/streams/settled', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  if (!response.ok) throw new Error(`streams settled: ${response.status}`);
}
