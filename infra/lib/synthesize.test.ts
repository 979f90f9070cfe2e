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
import { timeoutOf, type Budgeted } from '../../functions/core/budgets';
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
    // Each function's timeout is its declaration's budget (functions/core/budgets.ts); a job that
    // runs on a stream trigger runs with the trigger's.
    const budgets = (entries: [string, Budgeted][]) =>
      Object.fromEntries(entries.map(([key, declared]) => [key, timeoutOf(declared)]));
    const used = new Set(discoverWorkflows(undefined, workflowTasks).flatMap((w) => w.taskKeys));
    expect(inventory.timeouts).toEqual({
      httpRoutes: budgets(httpRoutes.map((route) => [routeKey(route), route])),
      webSocketRoutes: budgets(webSocketRoutes.map((route) => [route.routeKey, route])),
      tasks: budgets(Object.entries(workflowTasks).filter(([key]) => used.has(key))),
      jobs: budgets(
        Object.entries(scheduledJobs).map(([key, job]) => [
          key,
          job.runsOn === undefined ? job : (streamTriggers[job.runsOn] as Budgeted),
        ]),
      ),
      streams: budgets(Object.values(streamTriggers).map((trigger) => [trigger.handler, trigger])),
    });
  });
});
