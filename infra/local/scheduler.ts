import { randomUUID } from 'node:crypto';
import type { ScheduledEvent } from 'aws-lambda';
import * as z from 'zod';
import { timeoutOf } from '../../functions/core/budgets';
import {
  scheduledJobs,
  streamTriggers,
  type ScheduledJob,
  type StreamTrigger,
} from '../../functions/routes';
import { invokeWithin } from './invocation';
import type { Log } from './support';
import { handlerResolver, type HandlerSource } from './workflows/invoke';

/**
 * The twin's EventBridge schedules: every job of `scheduledJobs` (functions/routes.ts) runs its
 * handler in-process on its own timer every `rateMinutes`, as the workflow runner runs a task
 * (invoke.ts: the module `functions/<handler>.ts`, a Lambda-like context), with the event a
 * scheduled rule sends. As in AWS, a tick does not wait for the previous one, and the first tick
 * comes one period after the start. Each run is held to its function's budget (the job's
 * `timeoutSeconds`, or its trigger's for a `runsOn` job: invocation.ts stops it there as Lambda
 * does). A failure (a timeout too) is logged and never stops the scheduler or the twin; the next
 * tick runs again (CDK retries no tick either).
 *
 * `runJob(name)` runs a job at once and answers its result (or its error): the integration tests
 * make a sweeper race a workflow with it (`POST /dev/jobs` on the twin's gateway).
 */

/** What runs, and how often: the parity test compares it with CDK's rules. */
export interface SchedulerJob {
  handler: string;
  rateMinutes: number;
  /** The budget of the function it runs in (seconds). */
  timeoutSeconds: number;
}

/**
 * `functionsDir`, `loadHandler` (HandlerSource): without a given `loadHandler`, every job's module
 * must exist when the scheduler starts.
 */
export interface SchedulerOptions extends HandlerSource {
  /** Default: `scheduledJobs` of functions/routes.ts. */
  jobs?: Readonly<Record<string, ScheduledJob>>;
  /** The stream triggers `runsOn` jobs run on (their budget): `streamTriggers` by default. */
  streams?: Readonly<Record<string, StreamTrigger>>;
  /** Fire each job on its timer (default true); off, jobs run only through `runJob`. */
  timers?: boolean;
  region?: string;
  /** Failures of timer ticks; default console.error, so a failing job is never silent. */
  errorLog?: Log;
  /** The clock of the events' `time` and the contexts' deadlines (tests). */
  now?: () => number;
}

export interface Scheduler {
  /** The jobs by name, as scheduled. */
  jobs: Record<string, SchedulerJob>;
  /** Runs a job now; resolves with its handler's result, rejects with its error. */
  runJob(name: string): Promise<unknown>;
  /** Stops the timers and waits for the runs under way. */
  stop(): Promise<void>;
}

const ACCOUNT = '000000000000';

/** The event an EventBridge scheduled rule sends its target (no milliseconds in `time`). */
export function scheduledEvent(name: string, region: string, at: number): ScheduledEvent {
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: ACCOUNT,
    time: new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    region,
    resources: [`arn:aws:events:${region}:${ACCOUNT}:rule/${name}`],
    detail: {},
  };
}

export function startScheduler(options: SchedulerOptions = {}): Scheduler {
  const definitions = options.jobs ?? scheduledJobs;
  const handlers = handlerResolver(options);
  const region = options.region ?? 'us-east-1';
  const errorLog = options.errorLog ?? ((line: string) => console.error(line));
  const now = options.now ?? Date.now;
  const streams = options.streams ?? streamTriggers;

  const jobs: Record<string, SchedulerJob> = {};
  for (const [name, job] of Object.entries(definitions)) {
    // As CDK refuses them (app.ts checkScheduledJobs): a timer of 0 ms would spin.
    if (!Number.isInteger(job.rateMinutes) || job.rateMinutes < 1) {
      throw new Error(`scheduled job ${name}: rateMinutes must be a whole number of minutes`);
    }
    // A missing module fails the start, loudly, rather than every tick.
    handlers.check(job.handler);
    // The function it runs in: its own, or the stream trigger's (`runsOn`), whose budget it has.
    const trigger = job.runsOn === undefined ? undefined : streams[job.runsOn];
    if (job.runsOn !== undefined && trigger === undefined) {
      throw new Error(`scheduled job ${name} runs on ${job.runsOn}, which is no stream trigger`);
    }
    jobs[name] = {
      handler: job.handler,
      rateMinutes: job.rateMinutes,
      timeoutSeconds: timeoutOf(trigger ?? job),
    };
  }

  const running = new Set<Promise<unknown>>();
  let stopped = false;

  const runJob = (name: string): Promise<unknown> => {
    const job = Object.hasOwn(jobs, name) ? jobs[name] : undefined;
    if (job === undefined) {
      return Promise.reject(
        new Error(`no scheduled job ${name} (scheduledJobs: ${Object.keys(jobs).join(', ')})`),
      );
    }
    if (stopped) return Promise.reject(new Error(`the scheduler is stopped (job ${name})`));
    const run = (async () => {
      const handler = await handlers.load(job.handler);
      return invokeWithin(
        {
          // The function it runs in: its own, or the stream trigger's it runs on (`runsOn`), whose
          // name the trigger's kept failed batches carry (the poller names it the same).
          functionName: definitions[name]?.runsOn ?? name,
          handler: job.handler,
          timeoutSeconds: job.timeoutSeconds,
          region,
          now,
        },
        (context) => handler(scheduledEvent(name, region, now()) as never, context),
      );
    })();
    running.add(run);
    const forget = () => running.delete(run);
    run.then(forget, forget);
    return run;
  };

  const timers: NodeJS.Timeout[] = [];
  if (options.timers !== false) {
    for (const [name, job] of Object.entries(jobs)) {
      const timer = setInterval(() => {
        runJob(name).catch((error: unknown) => {
          errorLog(
            `[jobs] ${name} (${job.handler}) failed: ` +
              (error instanceof Error ? (error.stack ?? error.message) : String(error)),
          );
        });
      }, job.rateMinutes * 60_000);
      // The twin's servers keep the process alive; a schedule alone must not.
      timer.unref();
      timers.push(timer);
    }
  }

  return {
    jobs,
    runJob,
    async stop() {
      stopped = true;
      for (const timer of timers.splice(0)) clearInterval(timer);
      await Promise.allSettled([...running]);
    },
  };
}

const devJobBody = z.object({ name: z.string().min(1).max(100) });

/**
 * `POST /dev/jobs {"name": "<job>"}` on the twin's gateway (never in production): runs the job
 * now and answers its result, a failure as a 400 with its message. The integration tests' worker
 * cannot reach the twin's objects, only its gateway (test/twin-context.ts `runJob`).
 */
export function devRunJob(
  scheduler: () => Scheduler | undefined,
): (body: unknown) => Promise<unknown> {
  return async (body) => {
    const { name } = devJobBody.parse(body);
    const current = scheduler();
    if (current === undefined) throw new Error('the scheduler has not started yet');
    return current.runJob(name);
  };
}
