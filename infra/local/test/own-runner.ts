import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startWorkflowRunner, type WorkflowRunner } from '../workflows/runner';

/**
 * For integration tests of a restart of the twin's workflow runner: a runner of the test's own
 * (the same ASL and handlers, executions kept in a data dir of its own), which the test stops and
 * starts again on the same data dir. While it is up, SFN_ENDPOINT and WORKFLOW_ARN_PREFIX point at
 * it, so the workflows the test starts run on it; `dispose()` (in afterAll) stops it, puts the
 * twin's endpoint back and deletes the data dir.
 */
export interface OwnRunner {
  /** Starts the runner on the data dir (made at the first start); it resumes what was left. */
  start(): Promise<void>;
  /** Stops it; unfinished executions stay on disk for the next start. */
  stop(): Promise<void>;
  dispose(): Promise<void>;
}

const ENV = ['SFN_ENDPOINT', 'WORKFLOW_ARN_PREFIX'] as const;

/** `prefix`: the data dir's name prefix under the system's temporary directory. */
export function ownWorkflowRunner(prefix: string): OwnRunner {
  let dataDir: string | undefined;
  let runner: WorkflowRunner | undefined;
  let saved: Record<(typeof ENV)[number], string | undefined> | undefined;

  const stop = async () => {
    const running = runner;
    runner = undefined;
    await running?.stop();
  };

  return {
    async start() {
      if (runner !== undefined) throw new Error('the test runner is already up');
      dataDir ??= mkdtempSync(path.join(tmpdir(), prefix));
      saved ??= {
        SFN_ENDPOINT: process.env.SFN_ENDPOINT,
        WORKFLOW_ARN_PREFIX: process.env.WORKFLOW_ARN_PREFIX,
      };
      runner = await startWorkflowRunner({
        workflowsDir: path.resolve('infra/workflows'),
        dataDir,
        port: 0,
        log: () => undefined,
      });
      process.env.SFN_ENDPOINT = runner.endpoint;
      process.env.WORKFLOW_ARN_PREFIX = runner.stateMachineArnPrefix;
    },
    stop,
    async dispose() {
      await stop();
      if (saved !== undefined) {
        for (const name of ENV) {
          const value = saved[name];
          if (value === undefined) Reflect.deleteProperty(process.env, name);
          else process.env[name] = value;
        }
      }
      if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
