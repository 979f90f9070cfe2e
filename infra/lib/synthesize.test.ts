/**
 * The helpers a parity test uses: synthesize the real app (stub bundles, no build, no AWS) and
 * list what the templates contain.
 */
import { describe, expect, it } from 'vitest';
import {
  httpRoutes,
  scheduledJobs,
  streamTriggers,
  webSocketRoutes,
  workflowTasks,
} from '../../functions/routes';
import { routeKey, synthesizeTemplates, templateInventory } from './app';
import { bundledHandlers } from './identity';
import { discoverWorkflows } from './workflows';

describe('synthesizeTemplates + templateInventory', () => {
  it('lists the route keys, WebSocket routes, workflows, schedules and handlers of the real app', () => {
    const inventory = templateInventory(synthesizeTemplates());
    expect(inventory.httpRouteKeys).toEqual(httpRoutes.map(routeKey).sort());
    expect(inventory.webSocketRouteKeys).toEqual(webSocketRoutes.map((r) => r.routeKey).sort());
    expect(inventory.workflows).toEqual(
      discoverWorkflows(undefined, workflowTasks).map((w) => w.name),
    );
    expect(inventory.schedules).toEqual(
      Object.values(scheduledJobs)
        .map(({ handler, rateMinutes }) => ({ handler, rateMinutes }))
        .sort((a, b) => a.handler.localeCompare(b.handler)),
    );
    expect(inventory.streamMappings).toEqual(
      Object.values(streamTriggers)
        .map(({ handler, filters, batchSize, maxRetryAttempts, maxRecordAgeSeconds }) => ({
          handler,
          filters,
          batchSize,
          maxRetryAttempts,
          maxRecordAgeSeconds,
        }))
        .sort((a, b) => a.handler.localeCompare(b.handler)),
    );
    // The route table's handlers (calls, live channel, workflow tasks, scheduled jobs, stream
    // triggers) and the
    // Cognito triggers (those whose module exists).
    expect([...new Set(inventory.handlers)].sort()).toEqual(bundledHandlers());
  });
});
