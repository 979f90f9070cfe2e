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
