import type { TestProject } from 'vitest/node';
import type { SchedulerJob } from '../scheduler';
import type { StreamMapping } from '../streams';
import type { TwinBudgets, TwinUrls } from '../twin';

/**
 * The globalSetup of the 'integration' project: one twin for the whole run, in test mode
 * (DynamoDB Local in memory, a temporary S3 directory, free ports), seeded with nothing.
 * Tests are HTTP clients of the gateway; they read the twin's URLs and handler environment with
 * `inject('twin')` (or the helpers in ./twin-context.ts). TWIN_LOG=1 prints the twin's log, its
 * access log and the handlers' INFO logs. The scheduled jobs run when a test asks
 * (twin-context.ts `runJob`); TWIN_JOB_TIMERS=1 also fires them on their timers, as `npm start`.
 */

export interface TwinContext {
  urls: TwinUrls;
  /** The handler environment (TABLE_NAME, endpoints, dummy credentials…). */
  env: Record<string, string>;
  /** State machine name (ASL file name) → ARN on the local runner. */
  stateMachineArns: Record<string, string>;
  /** The local user pool and the web's app client (Amplify: userPoolEndpoint = urls.cognito). */
  userPoolId: string;
  userPoolClientId: string;
  /** The scheduled jobs the twin runs, by name (handler and rate). */
  jobs: Record<string, SchedulerJob>;
  /** The stream triggers the twin runs (streams.ts). */
  streams: Record<string, StreamMapping>;
  /** The budgets the twin holds the routes and tasks to (jobs' and triggers' are above). */
  budgets: TwinBudgets;
}

declare module 'vitest' {
  export interface ProvidedContext {
    twin: TwinContext;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const verbose = process.env.TWIN_LOG === '1';
  // The handlers' structured logs: warnings and errors only, unless TWIN_LOG=1.
  if (!verbose) process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
  const log = verbose ? (line: string) => console.log(line) : undefined;
  // Imported after the log level is set: modules the twin loads build their logger on import.
  const { startTwin } = await import('../twin');
  const twin = await startTwin({
    mode: 'test',
    jobTimers: process.env.TWIN_JOB_TIMERS === '1',
    ...(log === undefined ? {} : { log, accessLog: log }),
  });
  console.log(
    `[twin] test twin ready in ${twin.timings.startMs} ms (DynamoDB Local ${twin.timings.dynamodbMs} ms) at ${twin.urls.http}`,
  );
  project.provide('twin', {
    urls: twin.urls,
    env: twin.env,
    stateMachineArns: twin.stateMachineArns,
    userPoolId: twin.userPoolId,
    userPoolClientId: twin.userPoolClientId,
    jobs: twin.jobs,
    streams: twin.streams,
    budgets: twin.budgets,
  });
  return async () => {
    await twin.stop();
  };
}
