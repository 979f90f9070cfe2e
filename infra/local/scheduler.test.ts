import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { timeoutOf } from '../../functions/core/budgets';
import {
  scheduledJobs,
  streamTriggers,
  type ScheduledJob,
  type StreamTrigger,
} from '../../functions/routes';
import { scheduledEvent, startScheduler, type Scheduler } from './scheduler';
import type { LambdaHandler } from './workflows/invoke';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const MINUTE = 60_000;
const T0 = Date.parse('2030-01-01T00:00:00.000Z');

const schedulers: Scheduler[] = [];

afterEach(async () => {
  await Promise.all(schedulers.splice(0).map((scheduler) => scheduler.stop()));
  vi.useRealTimers();
});

function start(options: Parameters<typeof startScheduler>[0]): Scheduler {
  const scheduler = startScheduler({ errorLog: () => undefined, ...options });
  schedulers.push(scheduler);
  return scheduler;
}

/** Handlers by path, recording each event they get; `fail` throws. */
function recording(behaviour: Record<string, 'ok' | 'fail'>) {
  const calls: [string, { time: string; 'detail-type': string }][] = [];
  const loadHandler = async (handlerPath: string): Promise<LambdaHandler> => {
    const mode = behaviour[handlerPath];
    if (mode === undefined) throw new Error(`no handler ${handlerPath}`);
    return (async (event: { time: string; 'detail-type': string }) => {
      calls.push([handlerPath, event]);
      if (mode === 'fail') throw new Error(`${handlerPath} broke`);
      return { ran: handlerPath };
    }) as unknown as LambdaHandler;
  };
  return { calls, loadHandler };
}

/** Lets the ticks' promises settle (only the intervals are fake). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

const JOBS: Record<string, ScheduledJob> = {
  everyMinute: { handler: 'jobs/every-minute', rateMinutes: 1 },
  everyFive: { handler: 'jobs/every-five', rateMinutes: 5 },
};

describe('startScheduler', () => {
  it('schedules exactly the jobs of scheduledJobs by default, with their handlers and rates', () => {
    const scheduler = start({ timers: false });
    expect(scheduler.jobs).toEqual(
      Object.fromEntries(
        Object.entries(scheduledJobs).map(([name, job]) => [
          name,
          {
            handler: job.handler,
            rateMinutes: job.rateMinutes,
            // A job that runs on a stream trigger runs with the trigger's budget.
            timeoutSeconds: timeoutOf(
              job.runsOn === undefined ? job : (streamTriggers[job.runsOn] as StreamTrigger),
            ),
          },
        ]),
      ),
    );
  });

  it('fires each job on its own timer, every rateMinutes, starting one period in', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'], now: T0 });
    const { calls, loadHandler } = recording({
      'jobs/every-minute': 'ok',
      'jobs/every-five': 'ok',
    });
    start({ jobs: JOBS, loadHandler });
    await settle();
    expect(calls).toEqual([]);
    for (let minute = 1; minute <= 10; minute += 1) {
      await vi.advanceTimersByTimeAsync(MINUTE);
      await settle();
    }
    const counts = (path: string) => calls.filter(([handler]) => handler === path).length;
    expect(counts('jobs/every-minute')).toBe(10);
    expect(counts('jobs/every-five')).toBe(2);
    // The event a scheduled rule sends.
    expect(calls[0]?.[1]).toMatchObject({ 'detail-type': 'Scheduled Event' });
  });

  it('logs a failing tick and keeps firing, the other jobs untouched', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { calls, loadHandler } = recording({
      'jobs/every-minute': 'fail',
      'jobs/every-five': 'ok',
    });
    const errors: string[] = [];
    start({ jobs: JOBS, loadHandler, errorLog: (line) => errors.push(line) });
    for (let minute = 1; minute <= 5; minute += 1) {
      await vi.advanceTimersByTimeAsync(MINUTE);
      await settle();
    }
    expect(calls.filter(([handler]) => handler === 'jobs/every-minute')).toHaveLength(5);
    expect(calls.filter(([handler]) => handler === 'jobs/every-five')).toHaveLength(1);
    expect(errors).toHaveLength(5);
    expect(errors[0]).toContain(
      '[jobs] everyMinute (jobs/every-minute) failed: Error: jobs/every-minute broke',
    );
  });

  it('runs a job at once with runJob: its result, or its error', async () => {
    const { loadHandler } = recording({ 'jobs/every-minute': 'ok', 'jobs/every-five': 'fail' });
    const scheduler = start({ jobs: JOBS, loadHandler, timers: false });
    await expect(scheduler.runJob('everyMinute')).resolves.toEqual({ ran: 'jobs/every-minute' });
    await expect(scheduler.runJob('everyFive')).rejects.toThrow('jobs/every-five broke');
    await expect(scheduler.runJob('nothing')).rejects.toThrow(
      'no scheduled job nothing (scheduledJobs: everyMinute, everyFive)',
    );
  });

  it('runs the module of the handler path in-process, with a scheduled event and a Lambda context', async () => {
    const scheduler = start({
      jobs: { echo: { handler: 'jobs/echo', rateMinutes: 1 } },
      functionsDir: FIXTURES,
      timers: false,
    });
    await expect(scheduler.runJob('echo')).resolves.toEqual({
      source: 'aws.events',
      detailType: 'Scheduled Event',
      functionName: 'echo',
    });
  });

  it('refuses to start with a missing handler module or a rate that is not whole minutes', () => {
    expect(() =>
      startScheduler({
        jobs: { ghost: { handler: 'jobs/ghost', rateMinutes: 1 } },
        functionsDir: FIXTURES,
        timers: false,
      }),
    ).toThrow(/handler module not found: .*jobs\/ghost\.ts/);
    expect(() =>
      startScheduler({ jobs: { fast: { handler: 'jobs/echo', rateMinutes: 0 } }, timers: false }),
    ).toThrow(/fast: rateMinutes must be a whole number of minutes/);
  });

  it("fails a run past its budget as Lambda does, and refuses the run's later calls", async () => {
    let hits = 0;
    const server = createServer((_request, response) => {
      hits += 1;
      response.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    let late: Promise<string> = Promise.resolve('never ran');
    let remaining = 0;
    const errors: string[] = [];
    const scheduler = start({
      jobs: {
        sweep: { handler: 'jobs/sweep', rateMinutes: 1, timeoutSeconds: 1 },
        replay: { handler: 'jobs/events', rateMinutes: 5, runsOn: 'events' },
      },
      streams: {
        events: {
          handler: 'jobs/events',
          filters: [],
          batchSize: 1,
          maxRetryAttempts: 0,
          maxRecordAgeSeconds: 60,
          timeoutSeconds: 90,
        },
      },
      loadHandler: async () =>
        (async (_event: unknown, context: { getRemainingTimeInMillis(): number }) => {
          remaining = context.getRemainingTimeInMillis();
          await new Promise((resolve) => setTimeout(resolve, 1_300));
          late = fetch(`http://127.0.0.1:${port}/`).then(
            (response) => response.text(),
            (error: Error) => `${(error.cause as Error | undefined)?.message}`,
          );
          await late;
        }) as unknown as LambdaHandler,
      errorLog: (line) => errors.push(line),
      timers: false,
    });
    try {
      expect(scheduler.jobs.replay?.timeoutSeconds).toBe(90);
      const started = Date.now();
      await expect(scheduler.runJob('sweep')).rejects.toThrow(
        /^RequestId: [0-9a-f-]{36} Error: Task timed out after 1\.00 seconds$/,
      );
      expect(Date.now() - started).toBeLessThan(1_250);
      expect(remaining).toBeGreaterThan(900);
      expect(remaining).toBeLessThanOrEqual(1_000);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await late).toMatch(/^Lambda timed out: jobs\/sweep after 1 s/);
      expect(hits).toBe(0);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('stops its timers and waits for the runs under way; runJob is refused after', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let release: () => void = () => undefined;
    let finished = false;
    const scheduler = start({
      jobs: { slow: { handler: 'jobs/slow', rateMinutes: 1 } },
      loadHandler: async () =>
        (async () => {
          await new Promise<void>((resolve) => {
            release = resolve;
          });
          finished = true;
        }) as unknown as LambdaHandler,
    });
    await vi.advanceTimersByTimeAsync(MINUTE);
    await settle();
    const stopping = scheduler.stop();
    expect(vi.getTimerCount()).toBe(0);
    release();
    await stopping;
    expect(finished).toBe(true);
    await expect(scheduler.runJob('slow')).rejects.toThrow('the scheduler is stopped');
  });
});

describe('scheduledEvent', () => {
  it("is EventBridge's scheduled event, time to the second", () => {
    expect(scheduledEvent('auctionSweep', 'us-east-1', T0 + 1234)).toEqual({
      version: '0',
      id: expect.any(String),
      'detail-type': 'Scheduled Event',
      source: 'aws.events',
      account: '000000000000',
      time: '2030-01-01T00:00:01Z',
      region: 'us-east-1',
      resources: ['arn:aws:events:us-east-1:000000000000:rule/auctionSweep'],
      detail: {},
    });
  });
});
