import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DescribeExecutionCommand,
  ListExecutionsCommand,
  SendTaskFailureCommand,
  SendTaskHeartbeatCommand,
  SendTaskSuccessCommand,
  SFNClient,
  StartExecutionCommand,
  StopExecutionCommand,
  type DescribeExecutionCommandOutput,
} from '@aws-sdk/client-sfn';
import { startWorkflowRunner, type TaskResolver, type WorkflowRunner } from './runner';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const DAY = 86_400_000;

/** A clock the test moves by hand. */
function manualClock(start = T0) {
  let current = start;
  return {
    now: () => current,
    advance(ms: number) {
      current += ms;
    },
  };
}

const runners: WorkflowRunner[] = [];
const dirs: string[] = [];

afterEach(async () => {
  await Promise.all(runners.splice(0).map((runner) => runner.stop()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'workflows-'));
  dirs.push(dir);
  return dir;
}

async function start(options: Parameters<typeof startWorkflowRunner>[0]) {
  const runner = await startWorkflowRunner({ log: () => undefined, ...options });
  runners.push(runner);
  const sfn = new SFNClient({
    endpoint: runner.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  return { runner, sfn };
}

async function stopRunner(runner: WorkflowRunner) {
  await runner.stop();
  runners.splice(runners.indexOf(runner), 1);
}

async function waitFor<T>(read: () => Promise<T> | T, ok: (value: T) => boolean, ms = 5000) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > end)
      throw new Error(`condition not met in ${ms} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function describeExecution(sfn: SFNClient, executionArn: string) {
  return sfn.send(new DescribeExecutionCommand({ executionArn }));
}

function finished(sfn: SFNClient, executionArn: string): Promise<DescribeExecutionCommandOutput> {
  return waitFor(
    () => describeExecution(sfn, executionArn),
    (out) => out.status !== 'RUNNING',
  );
}

function persisted(dataDir: string): string {
  const dir = path.join(dataDir, 'executions');
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .map((file) => readFileSync(path.join(dir, file), 'utf8'))
    .join('\n');
}

const tasks = (table: Record<string, (event: never) => unknown>): TaskResolver => {
  return (key) => table[key] as ((event: unknown) => unknown) | undefined;
};

describe('workflow runner', () => {
  it('names state machines after their files', async () => {
    const { runner } = await start({ workflowsDir: FIXTURES, tasks: tasks({}) }).catch(() => ({
      runner: undefined,
    }));
    // An unknown ${Task_*} key fails loudly at startup.
    expect(runner).toBeUndefined();

    const { runner: ok } = await start({
      workflowsDir: FIXTURES,
      tasks: tasks({ stamp: () => 1, double: () => 1, sum: () => 1, requestDecision: () => 1 }),
    });
    expect(ok.stateMachineArns).toEqual({
      callback: 'arn:aws:states:us-east-1:000000000000:stateMachine:callback',
      'choice-map': 'arn:aws:states:us-east-1:000000000000:stateMachine:choice-map',
      'long-wait': 'arn:aws:states:us-east-1:000000000000:stateMachine:long-wait',
      timeout: 'arn:aws:states:us-east-1:000000000000:stateMachine:timeout',
      'wait-until': 'arn:aws:states:us-east-1:000000000000:stateMachine:wait-until',
    });
  });

  it('waits until a timestamp (TimestampPath), then runs a handler module in-process', async () => {
    const { runner, sfn } = await start({
      workflowsDir: FIXTURES,
      tasks: {
        stamp: { handler: 'handlers/stamp' },
        double: { handler: 'handlers/stamp' },
        sum: { handler: 'handlers/stamp' },
        requestDecision: { handler: 'handlers/stamp' },
      },
      functionsDir: FIXTURES,
    });
    const startedAt = Date.now();
    const until = new Date(startedAt + 300).toISOString();
    const { executionArn } = await sfn.send(
      new StartExecutionCommand({
        stateMachineArn: runner.stateMachineArns['wait-until'],
        name: 'wait-1',
        input: JSON.stringify({ until }),
      }),
    );
    expect(executionArn).toBe('arn:aws:states:us-east-1:000000000000:execution:wait-until:wait-1');
    expect((await describeExecution(sfn, executionArn ?? '')).status).toBe('RUNNING');
    const out = await finished(sfn, executionArn ?? '');
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(until));
    expect(out.status).toBe('SUCCEEDED');
    expect(JSON.parse(out.output ?? '')).toEqual({ until, stamp: { stampedFor: until } });
    expect(out.startDate).toBeInstanceOf(Date);
    expect(out.stopDate).toBeInstanceOf(Date);
  });

  it('runs a Choice, a Map of tasks and a lambda:invoke task; a Fail state fails the execution', async () => {
    const seen: number[] = [];
    const { runner, sfn } = await start({
      workflowsDir: FIXTURES,
      tasks: tasks({
        stamp: () => null,
        requestDecision: () => null,
        double: (n: number) => {
          seen.push(n);
          return n * 2;
        },
        sum: (event: { values: number[] }) => event.values.reduce((a, b) => a + b, 0),
      }),
    });
    const arn = runner.stateMachineArns['choice-map'];
    const ok = await sfn.send(
      new StartExecutionCommand({
        stateMachineArn: arn,
        input: JSON.stringify({ kind: 'numbers', numbers: [1, 2, 3] }),
      }),
    );
    const out = await finished(sfn, ok.executionArn ?? '');
    expect(out.status).toBe('SUCCEEDED');
    expect(JSON.parse(out.output ?? '')).toEqual({
      kind: 'numbers',
      numbers: [1, 2, 3],
      doubled: [2, 4, 6],
      sum: { total: 12 },
    });
    expect(seen.sort()).toEqual([1, 2, 3]);

    const bad = await sfn.send(
      new StartExecutionCommand({ stateMachineArn: arn, input: JSON.stringify({ kind: 'words' }) }),
    );
    const failed = await finished(sfn, bad.executionArn ?? '');
    expect(failed).toMatchObject({
      status: 'FAILED',
      error: 'Fixture.UnknownKind',
      cause: 'kind must be numbers',
    });
  });

  it('reports a handler error the way Lambda does', async () => {
    class OfferingGone extends Error {
      override name = 'OfferingGone';
    }
    const { runner, sfn } = await start({
      workflowsDir: FIXTURES,
      tasks: tasks({
        stamp: () => null,
        requestDecision: () => null,
        double: () => {
          throw new OfferingGone('offering oF1 is gone');
        },
        sum: () => 0,
      }),
    });
    const { executionArn } = await sfn.send(
      new StartExecutionCommand({
        stateMachineArn: runner.stateMachineArns['choice-map'],
        input: JSON.stringify({ kind: 'numbers', numbers: [1] }),
      }),
    );
    const out = await finished(sfn, executionArn ?? '');
    expect(out.status).toBe('FAILED');
    expect(out.error).toBe('OfferingGone');
    expect(JSON.parse(out.cause ?? '')).toMatchObject({
      errorType: 'OfferingGone',
      errorMessage: 'offering oF1 is gone',
    });
  });

  describe('callback tasks', () => {
    function callbackRunner(extra: Partial<Parameters<typeof startWorkflowRunner>[0]> = {}) {
      const received: { offeringId: string; taskToken: string }[] = [];
      const started = start({
        workflowsDir: FIXTURES,
        tasks: tasks({
          stamp: () => null,
          double: () => null,
          sum: () => null,
          requestDecision: (event: { offeringId: string; taskToken: string }) => {
            received.push(event);
            return { queued: true };
          },
        }),
        ...extra,
      });
      return { started, received };
    }

    async function startCallback(sfn: SFNClient, runner: WorkflowRunner, offeringId: string) {
      const { executionArn } = await sfn.send(
        new StartExecutionCommand({
          stateMachineArn: runner.stateMachineArns.callback,
          input: JSON.stringify({ offeringId }),
        }),
      );
      return executionArn ?? '';
    }

    it('completes with the output of our SendTaskSuccess', async () => {
      const { started, received } = callbackRunner();
      const { runner, sfn } = await started;
      const arn = await startCallback(sfn, runner, 'oF1');
      const [request] = await waitFor(
        () => received,
        (list) => list.length === 1,
      );
      expect(request?.offeringId).toBe('oF1');
      expect(request?.taskToken).toMatch(/^AQ/);
      await sfn.send(new SendTaskHeartbeatCommand({ taskToken: request?.taskToken }));
      await sfn.send(
        new SendTaskSuccessCommand({
          taskToken: request?.taskToken,
          output: JSON.stringify({ approved: true }),
        }),
      );
      const out = await finished(sfn, arn);
      expect(out.status).toBe('SUCCEEDED');
      expect(JSON.parse(out.output ?? '')).toEqual({
        offeringId: 'oF1',
        decision: { approved: true },
      });
      // A token settles once.
      await expect(
        sfn.send(new SendTaskSuccessCommand({ taskToken: request?.taskToken, output: '{}' })),
      ).rejects.toMatchObject({ name: 'TaskTimedOut' });
      await expect(
        sfn.send(new SendTaskSuccessCommand({ taskToken: 'nonsense', output: '{}' })),
      ).rejects.toMatchObject({ name: 'InvalidToken' });
    });

    it('fails with the error of our SendTaskFailure, which Catch can route', async () => {
      const { started, received } = callbackRunner();
      const { runner, sfn } = await started;
      const caught = await startCallback(sfn, runner, 'oF2');
      const uncaught = await startCallback(sfn, runner, 'oF3');
      const requests = await waitFor(
        () => received,
        (list) => list.length === 2,
      );
      const tokenOf = (id: string) => requests.find((r) => r.offeringId === id)?.taskToken;
      await sfn.send(
        new SendTaskFailureCommand({
          taskToken: tokenOf('oF2'),
          error: 'Fixture.Rejected',
          cause: 'blurry images',
        }),
      );
      await sfn.send(
        new SendTaskFailureCommand({
          taskToken: tokenOf('oF3'),
          error: 'Fixture.Broken',
          cause: 'no reviewer',
        }),
      );
      const caughtOut = await finished(sfn, caught);
      expect(caughtOut.status).toBe('SUCCEEDED');
      expect(JSON.parse(caughtOut.output ?? '')).toEqual({
        offeringId: 'oF2',
        rejection: { Error: 'Fixture.Rejected', Cause: 'blurry images' },
      });
      expect(await finished(sfn, uncaught)).toMatchObject({
        status: 'FAILED',
        error: 'Fixture.Broken',
        cause: 'no reviewer',
      });
    });

    it('fails with States.HeartbeatTimeout when heartbeats stop (runner clock)', async () => {
      const clock = manualClock();
      const { started, received } = callbackRunner({ now: clock.now, timerChunkMs: 5 });
      const { runner, sfn } = await started;
      const arn = await startCallback(sfn, runner, 'oF4');
      const [request] = await waitFor(
        () => received,
        (list) => list.length === 1,
      );
      clock.advance(3_000_000);
      await sfn.send(new SendTaskHeartbeatCommand({ taskToken: request?.taskToken }));
      clock.advance(3_000_000); // 100 min since start, 50 since the heartbeat: still alive
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect((await describeExecution(sfn, arn)).status).toBe('RUNNING');
      clock.advance(700_000);
      expect(await finished(sfn, arn)).toMatchObject({
        status: 'FAILED',
        error: 'States.HeartbeatTimeout',
      });
    });

    it('can be stopped', async () => {
      const { started, received } = callbackRunner();
      const { runner, sfn } = await started;
      const arn = await startCallback(sfn, runner, 'oF5');
      const [request] = await waitFor(
        () => received,
        (list) => list.length === 1,
      );
      await sfn.send(
        new StopExecutionCommand({ executionArn: arn, error: 'Ops', cause: 'manual' }),
      );
      expect(await describeExecution(sfn, arn)).toMatchObject({
        status: 'ABORTED',
        error: 'Ops',
        cause: 'manual',
      });
      await expect(
        sfn.send(new SendTaskSuccessCommand({ taskToken: request?.taskToken, output: '{}' })),
      ).rejects.toMatchObject({ name: 'TaskTimedOut' });
    });
  });

  it('holds a wait longer than 24.8 days (chunked, yielding before the library timer)', async () => {
    const clock = manualClock();
    const dataDir = tempDir();
    const { runner, sfn } = await start({
      workflowsDir: FIXTURES,
      dataDir,
      tasks: tasks({ stamp: () => 1, double: () => 1, sum: () => 1, requestDecision: () => 1 }),
      now: clock.now,
      timerChunkMs: 5,
      invocationBudgetMs: 20,
    });
    const { executionArn } = await sfn.send(
      new StartExecutionCommand({ stateMachineArn: runner.stateMachineArns['long-wait'] }),
    );
    const arn = executionArn ?? '';
    await waitFor(
      () => persisted(dataDir),
      (text) => text.includes('"FortyDays":{"kind":"wait"'),
    );
    // Several invocation budgets go by: the wait yields and is picked up again, never fires early.
    await new Promise((resolve) => setTimeout(resolve, 120));
    clock.advance(39 * DAY);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect((await describeExecution(sfn, arn)).status).toBe('RUNNING');
    clock.advance(DAY);
    const out = await finished(sfn, arn);
    expect(out.status).toBe('SUCCEEDED');
    expect(JSON.parse(out.output ?? '')).toEqual({ waited: true });
  });

  it('times an execution out after the machine TimeoutSeconds (runner clock)', async () => {
    const clock = manualClock();
    const { runner, sfn } = await start({
      workflowsDir: FIXTURES,
      tasks: tasks({ stamp: () => 1, double: () => 1, sum: () => 1, requestDecision: () => 1 }),
      now: clock.now,
      timerChunkMs: 5,
    });
    const { executionArn } = await sfn.send(
      new StartExecutionCommand({ stateMachineArn: runner.stateMachineArns.timeout }),
    );
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect((await describeExecution(sfn, executionArn ?? '')).status).toBe('RUNNING');
    clock.advance(61_000);
    expect(await finished(sfn, executionArn ?? '')).toMatchObject({
      status: 'TIMED_OUT',
      error: 'States.Timeout',
    });
  });

  describe('after a restart', () => {
    it('resumes a relative Wait (Seconds) at its original due time', async () => {
      const clock = manualClock();
      const dataDir = tempDir();
      const resolver = tasks({
        stamp: () => 1,
        double: () => 1,
        sum: () => 1,
        requestDecision: () => 1,
      });
      const options = {
        workflowsDir: FIXTURES,
        dataDir,
        tasks: resolver,
        now: clock.now,
        timerChunkMs: 5,
      };
      const first = await start(options);
      const { executionArn } = await first.sfn.send(
        new StartExecutionCommand({ stateMachineArn: first.runner.stateMachineArns['long-wait'] }),
      );
      await waitFor(
        () => persisted(dataDir),
        (text) => text.includes('"FortyDays":{"kind":"wait"'),
      );
      await stopRunner(first.runner);
      clock.advance(30 * DAY);
      const second = await start(options);
      await new Promise((resolve) => setTimeout(resolve, 30));
      // Re-entering the state does not restart the 40 days.
      expect((await describeExecution(second.sfn, executionArn ?? '')).status).toBe('RUNNING');
      clock.advance(10 * DAY);
      expect((await finished(second.sfn, executionArn ?? '')).status).toBe('SUCCEEDED');
    });

    it('resumes a Wait and fires it at its timestamp, not before', async () => {
      const clock = manualClock();
      const dataDir = tempDir();
      const stamps: string[] = [];
      const resolver = tasks({
        stamp: (event: { until: string }) => {
          stamps.push(event.until);
          return 'stamped';
        },
        double: () => 1,
        sum: () => 1,
        requestDecision: () => 1,
      });
      const until = new Date(T0 + 3_600_000).toISOString();
      const first = await start({
        workflowsDir: FIXTURES,
        dataDir,
        tasks: resolver,
        now: clock.now,
        timerChunkMs: 5,
      });
      const { executionArn } = await first.sfn.send(
        new StartExecutionCommand({
          stateMachineArn: first.runner.stateMachineArns['wait-until'],
          name: 'auction-1',
          input: JSON.stringify({ until }),
        }),
      );
      const arn = executionArn ?? '';
      await waitFor(
        () => persisted(dataDir),
        (text) => text.includes('"WaitUntil":{"kind":"wait"'),
      );
      await stopRunner(first.runner);

      clock.advance(1_800_000);
      const second = await start({
        workflowsDir: FIXTURES,
        dataDir,
        tasks: resolver,
        now: clock.now,
        timerChunkMs: 5,
      });
      await new Promise((resolve) => setTimeout(resolve, 40));
      expect((await describeExecution(second.sfn, arn)).status).toBe('RUNNING');
      expect(stamps).toEqual([]);
      clock.advance(1_800_000);
      const out = await finished(second.sfn, arn);
      expect(out.status).toBe('SUCCEEDED');
      expect(JSON.parse(out.output ?? '')).toEqual({ until, stamp: 'stamped' });
      expect(stamps).toEqual([until]);
      expect(out.startDate?.getTime()).toBe(T0);
      expect(out.stopDate?.getTime()).toBe(T0 + 3_600_000);

      // Finished executions are still described after another restart.
      await stopRunner(second.runner);
      const third = await start({ workflowsDir: FIXTURES, dataDir, tasks: resolver });
      expect((await describeExecution(third.sfn, arn)).status).toBe('SUCCEEDED');
      await expect(
        third.sfn.send(
          new StartExecutionCommand({
            stateMachineArn: third.runner.stateMachineArns['wait-until'],
            name: 'auction-1',
            input: '{}',
          }),
        ),
      ).rejects.toMatchObject({ name: 'ExecutionAlreadyExists' });
    });

    it('keeps a callback settleable with the same token, without invoking the handler again', async () => {
      const dataDir = tempDir();
      const received: string[] = [];
      const resolver = tasks({
        stamp: () => 1,
        double: () => 1,
        sum: () => 1,
        requestDecision: (event: { taskToken: string }) => {
          received.push(event.taskToken);
          return null;
        },
      });
      const first = await start({ workflowsDir: FIXTURES, dataDir, tasks: resolver });
      const { executionArn } = await first.sfn.send(
        new StartExecutionCommand({
          stateMachineArn: first.runner.stateMachineArns.callback,
          input: JSON.stringify({ offeringId: 'oF9' }),
        }),
      );
      await waitFor(
        () => persisted(dataDir),
        (text) => text.includes('"invoked":true'),
      );
      await stopRunner(first.runner);

      const second = await start({
        workflowsDir: FIXTURES,
        dataDir,
        tasks: resolver,
        autoResume: false,
      });
      // Held back until resume(): the twin sets the handler environment first.
      expect((await describeExecution(second.sfn, executionArn ?? '')).status).toBe('RUNNING');
      await expect(
        second.sfn.send(new SendTaskSuccessCommand({ taskToken: received[0], output: '{}' })),
      ).rejects.toMatchObject({ name: 'TaskDoesNotExist' });
      expect(second.runner.resume()).toBe(1);
      await second.sfn.send(
        new SendTaskSuccessCommand({ taskToken: received[0], output: '"approved"' }),
      );
      const out = await finished(second.sfn, executionArn ?? '');
      expect(out.status).toBe('SUCCEEDED');
      expect(JSON.parse(out.output ?? '')).toEqual({ offeringId: 'oF9', decision: 'approved' });
      expect(received).toHaveLength(1);
    });
  });

  describe('API', () => {
    it('answers Step Functions errors and refuses what it does not emulate', async () => {
      const { runner, sfn } = await start({
        workflowsDir: FIXTURES,
        tasks: tasks({ stamp: () => 1, double: () => 1, sum: () => 1, requestDecision: () => 1 }),
      });
      await expect(
        sfn.send(
          new StartExecutionCommand({
            stateMachineArn: 'arn:aws:states:us-east-1:000000000000:stateMachine:nope',
          }),
        ),
      ).rejects.toMatchObject({ name: 'StateMachineDoesNotExist' });
      await expect(
        sfn.send(
          new StartExecutionCommand({
            stateMachineArn: runner.stateMachineArns['choice-map'],
            input: '{not json',
          }),
        ),
      ).rejects.toMatchObject({ name: 'InvalidExecutionInput' });
      await expect(
        sfn.send(
          new StartExecutionCommand({
            stateMachineArn: runner.stateMachineArns['choice-map'],
            name: 'has space',
          }),
        ),
      ).rejects.toMatchObject({ name: 'InvalidName' });
      await expect(
        describeExecution(sfn, 'arn:aws:states:us-east-1:000000000000:execution:x:y'),
      ).rejects.toMatchObject({ name: 'ExecutionDoesNotExist' });
      await expect(
        sfn.send(
          new ListExecutionsCommand({ stateMachineArn: runner.stateMachineArns['choice-map'] }),
        ),
      ).rejects.toMatchObject({ name: 'UnknownOperationException' });
    });
  });

  describe("a task past its Lambda's budget", () => {
    /** One Task state with the given Retry, caught into `$.error`. */
    const SLOW_FLOW = (retry: unknown[]) =>
      JSON.stringify({
        StartAt: 'Slow',
        States: {
          Slow: {
            Type: 'Task',
            Resource: '${Task_slow}',
            TimeoutSeconds: 11,
            Retry: retry,
            Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'Caught' }],
            End: true,
          },
          Caught: { Type: 'Pass', End: true },
        },
      });

    it('fails the state as Lambda reports a timeout, and its Retry on States.TaskFailed applies', async () => {
      const dir = tempDir();
      writeFileSync(
        path.join(dir, 'slow.asl.json'),
        SLOW_FLOW([{ ErrorEquals: ['States.TaskFailed'], IntervalSeconds: 1, MaxAttempts: 1 }]),
      );
      // A server the task calls once it wakes up: a stopped Lambda's call never arrives.
      let hits = 0;
      const server = createServer((_request, response) => {
        hits += 1;
        response.end('ok');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      const attempts: { remaining: number; outcome?: string }[] = [];
      const slow = async (_event: unknown, context: { getRemainingTimeInMillis(): number }) => {
        const attempt: { remaining: number; outcome?: string } = {
          remaining: context.getRemainingTimeInMillis(),
        };
        attempts.push(attempt);
        // The first attempt outlives its 1 s budget; the retry answers in time.
        if (attempts.length === 1) await new Promise((resolve) => setTimeout(resolve, 1_300));
        attempt.outcome = await fetch(`http://127.0.0.1:${port}/`).then(
          async (response) => response.text(),
          (error: Error) => `${error.message}: ${(error.cause as Error | undefined)?.message}`,
        );
        return { attempt: attempts.length };
      };
      try {
        const { runner, sfn } = await start({
          workflowsDir: dir,
          tasks: (key) => (key === 'slow' ? (slow as never) : undefined),
          taskTimeoutSeconds: () => 1,
        });
        expect(runner.taskTimeouts).toEqual({ slow: 1 });
        const { executionArn } = await sfn.send(
          new StartExecutionCommand({ stateMachineArn: runner.stateMachineArns.slow, input: '{}' }),
        );
        const out = await waitFor(
          () => describeExecution(sfn, executionArn as string),
          (value) => value.status !== 'RUNNING',
          10_000,
        );
        expect(out.status).toBe('SUCCEEDED');
        expect(JSON.parse(out.output ?? '{}')).toEqual({ attempt: 2 });
        expect(attempts[0]?.remaining).toBeGreaterThan(900);
        expect(attempts[0]?.remaining).toBeLessThanOrEqual(1_000);
        // The timed-out attempt's call, made after its deadline, was refused before it was sent.
        expect(attempts[0]?.outcome).toMatch(/Lambda timed out: slow after 1 s/);
        expect(attempts[1]?.outcome).toBe('ok');
        expect(hits).toBe(1);
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    });

    it('hands a Catch the error Lambda reports: Sandbox.Timedout, "Task timed out after 1.00 seconds"', async () => {
      const dir = tempDir();
      writeFileSync(path.join(dir, 'slow.asl.json'), SLOW_FLOW([]));
      const { runner, sfn } = await start({
        workflowsDir: dir,
        tasks: (key) =>
          key === 'slow'
            ? () => new Promise((resolve) => setTimeout(() => resolve('late'), 1_300))
            : undefined,
        taskTimeoutSeconds: () => 1,
      });
      const { executionArn } = await sfn.send(
        new StartExecutionCommand({ stateMachineArn: runner.stateMachineArns.slow, input: '{}' }),
      );
      const out = await waitFor(
        () => describeExecution(sfn, executionArn as string),
        (value) => value.status !== 'RUNNING',
        10_000,
      );
      expect(out.status).toBe('SUCCEEDED');
      const { error } = JSON.parse(out.output ?? '{}') as {
        error: { Error: string; Cause: string };
      };
      expect(error.Error).toBe('Sandbox.Timedout');
      expect(JSON.parse(error.Cause)).toEqual({
        errorType: 'Sandbox.Timedout',
        errorMessage: expect.stringMatching(
          /^RequestId: [0-9a-f-]{36} Error: Task timed out after 1\.00 seconds$/,
        ) as unknown,
      });
    });
  });
});
