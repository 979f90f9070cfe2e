import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ExecutionError, StateMachine } from 'aws-local-stepfunctions';
import type { Context } from 'aws-lambda';
import { timeoutOf } from '../../../functions/core/budgets';
import { workflowTasks, type WorkflowTask } from '../../../functions/routes';
import { invokeWithin, LambdaTimeout } from '../invocation';
import {
  CONTINUE_ERROR,
  isRfc3339,
  MAX_TIMER_SECONDS,
  prepareMachine,
  resumeDefinition,
  RESUME_STATE,
  withTaskToken,
  type Json,
  type OverriddenState,
  type PreparedMachine,
  type WaitFields,
} from './asl';
import {
  fileStore,
  HISTORY_LIMIT,
  memoryStore,
  type ActiveState,
  type ExecutionRecord,
  type ExecutionStatus,
  type ExecutionStore,
  type HistoryEntry,
} from './store';
import { assertHandlerExists, FUNCTIONS_DIR, loadHandler } from './invoke';

/**
 * The local Step Functions: `aws-local-stepfunctions` runs the ASL files of a directory, behind an
 * endpoint speaking the Step Functions API (AWS JSON 1.0) for the operations the product calls, so
 * the real `@aws-sdk/client-sfn` drives it. See README.md beside this file for the pitfalls of the
 * library this runner handles and for what it does not emulate.
 */

/** A workflow task handler, called in-process like Lambda calls it. */
export type TaskFunction = (event: unknown, context: Context) => unknown;
/** Resolves a `${Task_<key>}` key to a function (tests); undefined means unknown. */
export type TaskResolver = (key: string) => TaskFunction | undefined;
/** `${Task_<key>}` → its declaration: the handler module and its budget (`timeoutSeconds`). */
export type TaskTable = Readonly<Record<string, WorkflowTask>>;

export interface WorkflowRunnerOptions {
  /** Directory of `<name>.asl.json` files: `infra/workflows` for the product. */
  workflowsDir: string;
  /** Where executions persist (`.data/workflows` for npm start); in memory only when absent. */
  dataDir?: string;
  /** Port of the Step Functions endpoint; 0 or absent picks a free one. */
  port?: number;
  host?: string;
  region?: string;
  /** `${Task_<key>}` → handler: the route table's `workflowTasks` by default. */
  tasks?: TaskTable | TaskResolver;
  /**
   * A resolver's tasks' budgets in seconds (tests); a TaskTable's come from its declarations
   * (`timeoutOf`), as CDK's do. Default: a task's default budget.
   */
  taskTimeoutSeconds?: (key: string) => number | undefined;
  /** Root of handler modules for a TaskTable (`functions/`). */
  functionsDir?: string;
  /** The runner's clock (epoch ms): waits, deadlines and dates follow it. */
  now?: () => number;
  /** Longest single timer: a wait re-reads the clock at least this often (default 1 h). */
  timerChunkMs?: number;
  /**
   * Longest real time one invocation of a wait or callback runs before yielding to the library
   * (whose task timer is one setTimeout); default 20 days. Tests shorten it.
   */
  invocationBudgetMs?: number;
  /** Where the runner reports (default console.error). */
  log?: (line: string) => void;
  /**
   * Resume the unfinished executions of `dataDir` at start (default). With false they wait for
   * `resume()`, so the twin can first put the handler environment in place.
   */
  autoResume?: boolean;
}

export interface WorkflowRunner {
  /** The Step Functions endpoint (SFN_ENDPOINT). */
  endpoint: string;
  /** State machine name (file name without .asl.json) → ARN. */
  stateMachineArns: Record<string, string>;
  /** What precedes a name in those ARNs (WORKFLOW_ARN_PREFIX on the twin). */
  stateMachineArnPrefix: string;
  /** The budget (seconds) of each task the state machines run, by `workflowTasks` key. */
  taskTimeouts: Record<string, number>;
  /** Resumes the executions held back by `autoResume: false`; answers how many. */
  resume(): number;
  /** Stops; unfinished executions stay on disk for the next runner on the same data dir. */
  stop(): Promise<void>;
}

const ACCOUNT = '000000000000';
const ASL_SUFFIX = '.asl.json';
const MAX_PAYLOAD_CHARS = 256 * 1024;
const TOKEN_PREFIX = 'AQ';
/** Step Functions names: 1-80 characters, no whitespace, brackets, wildcards, specials, controls. */
function isValidName(name: string): boolean {
  if (name.length < 1 || name.length > 80 || /[\s<>{}[\]?*"#%\\^|~`$&,;:/]/.test(name))
    return false;
  return [...name].every((char) => {
    const code = char.codePointAt(0) ?? 0;
    return code >= 0x20 && !(code >= 0x7f && code <= 0x9f);
  });
}

const END_EVENT = {
  SUCCEEDED: 'ExecutionSucceeded',
  FAILED: 'ExecutionFailed',
  TIMED_OUT: 'ExecutionTimedOut',
  ABORTED: 'ExecutionAborted',
} as const;

class ApiError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

type FlaggedError = Error & { isRetryable?: boolean; isCatchable?: boolean };

function namedError(name: string, message: string, flags: Partial<FlaggedError> = {}): Error {
  const error: FlaggedError = new Error(message);
  error.name = name;
  return Object.assign(error, flags);
}

/** Ends a state quietly when its execution stops: neither retried nor caught. */
function abortedError(): Error {
  return namedError('Local.Aborted', 'execution stopped', {
    isRetryable: false,
    isCatchable: false,
  });
}

function runtimeError(message: string): Error {
  return namedError('States.Runtime', message, { isRetryable: false, isCatchable: false });
}

/**
 * Lambda's error shape: Error = errorType, Cause = the JSON Lambda reports. A function stopped at
 * its timeout reports `Sandbox.Timedout` with no trace (the Step Functions guide names this
 * `Lambda.Unknown`; either way `States.TaskFailed` matches it, so the state's Retry applies).
 */
function lambdaError(error: unknown): Error {
  if (error instanceof LambdaTimeout) {
    return namedError(
      error.name,
      JSON.stringify({ errorType: error.name, errorMessage: error.message }),
    );
  }
  const errorType = error instanceof Error ? error.name : 'Error';
  const errorMessage = error instanceof Error ? error.message : String(error);
  const trace = error instanceof Error ? (error.stack ?? '').split('\n') : [];
  return namedError(errorType, JSON.stringify({ errorType, errorMessage, trace }));
}

function toJson(value: unknown): Json {
  return value === undefined ? null : (JSON.parse(JSON.stringify(value)) as Json);
}

interface NestedEntry extends ActiveState {
  inFlight: boolean;
}

interface Live {
  record: ExecutionRecord;
  machine: PreparedMachine;
  controller: AbortController;
  abortRun: () => void;
  nested: Map<string, NestedEntry>;
  wakers: Set<() => void>;
  ended: boolean;
}

interface EntryRef {
  live: Live;
  state: string;
  key: string;
  entry: ActiveState;
  nested: boolean;
}

interface TokenRef {
  live: Live;
  state: string;
  key: string;
  nested: boolean;
}

export async function startWorkflowRunner(options: WorkflowRunnerOptions): Promise<WorkflowRunner> {
  const region = options.region ?? process.env.AWS_REGION ?? 'us-east-1';
  const now = options.now ?? Date.now;
  const timerChunkMs = Math.min(options.timerChunkMs ?? 3_600_000, 2_147_483_647);
  const budgetMs = options.invocationBudgetMs ?? 20 * 86_400_000;
  const synthTimeoutSeconds = Math.min(Math.ceil(budgetMs / 1000) + 3600, MAX_TIMER_SECONDS);
  const log = options.log ?? ((line: string) => console.error(line));
  const functionsDir = options.functionsDir ?? FUNCTIONS_DIR;
  const tasks = options.tasks ?? workflowTasks;
  const store: ExecutionStore =
    options.dataDir === undefined ? memoryStore() : fileStore(options.dataDir);

  // Each task's budget, checked at start (a task Lambda could not run stops the runner, as the
  // synth): its declaration's, as CDK sets it.
  const budgets = new Map<string, number>();
  if (typeof tasks !== 'function') {
    for (const [key, task] of Object.entries(tasks)) budgets.set(key, timeoutOf(task));
  }
  const budgetOf = (key: string): number =>
    budgets.get(key) ??
    timeoutOf({ handler: key, timeoutSeconds: options.taskTimeoutSeconds?.(key) });

  const resolveTask = (key: string): (() => Promise<TaskFunction>) | undefined => {
    if (typeof tasks === 'function') {
      const fn = tasks(key);
      return fn === undefined ? undefined : () => Promise.resolve(fn);
    }
    const entry = Object.hasOwn(tasks, key) ? tasks[key] : undefined;
    if (entry === undefined) return undefined;
    return () => loadHandler(entry.handler, functionsDir) as Promise<TaskFunction>;
  };

  const prepare = (name: string, definition: unknown): PreparedMachine => {
    const machine = prepareMachine(definition, { name, region, synthTimeoutSeconds });
    for (const key of machine.taskKeys) {
      if (resolveTask(key) === undefined) {
        throw new Error(`${name}: \${Task_${key}} is not a key of workflowTasks`);
      }
      if (typeof tasks !== 'function') {
        const entry = tasks[key];
        if (entry !== undefined) assertHandlerExists(entry.handler, functionsDir);
      }
    }
    return machine;
  };

  // State machines: every <name>.asl.json of the directory, validated and prepared up front.
  if (!existsSync(options.workflowsDir)) {
    throw new Error(`workflow runner: no such directory ${options.workflowsDir}`);
  }
  const arnPrefix = `arn:aws:states:${region}:${ACCOUNT}:stateMachine:`;
  const machines = new Map<string, { arn: string; raw: Json; prepared: PreparedMachine }>();
  for (const file of readdirSync(options.workflowsDir).sort()) {
    if (!file.endsWith(ASL_SUFFIX)) continue;
    const name = file.slice(0, -ASL_SUFFIX.length);
    const raw = JSON.parse(readFileSync(path.join(options.workflowsDir, file), 'utf8')) as Json;
    machines.set(name, {
      arn: `${arnPrefix}${name}`,
      raw,
      prepared: prepare(name, raw),
    });
  }
  const machineByArn = new Map([...machines].map(([name, m]) => [m.arn, { name, ...m }]));

  const executions = new Map<string, Live>();
  const records = new Map<string, ExecutionRecord>();
  const tokens = new Map<string, TokenRef>();
  const closedTokens = new Set<string>();
  let stopping = false;

  const persist = (record: ExecutionRecord) => store.save(record);
  const pushHistory = (record: ExecutionRecord, entry: Omit<HistoryEntry, 'at'>) => {
    record.history.push({ at: now(), ...entry });
    if (record.history.length > HISTORY_LIMIT) record.history.splice(1, 1);
  };

  // --- waiting --------------------------------------------------------------------------------

  /** Sleeps up to `ms` (capped by the chunk), woken early by a settlement or heartbeat. */
  const pause = (live: Live, ms: number): Promise<void> =>
    new Promise((resolve, reject) => {
      const signal = live.controller.signal;
      if (signal.aborted) {
        reject(abortedError());
        return;
      }
      const done = (error?: Error) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        live.wakers.delete(waker);
        if (error === undefined) resolve();
        else reject(error);
      };
      const waker = () => done();
      const onAbort = () => done(abortedError());
      const timer = setTimeout(waker, Math.max(1, Math.min(ms, timerChunkMs)));
      signal.addEventListener('abort', onAbort, { once: true });
      live.wakers.add(waker);
    });

  const wake = (live: Live) => {
    for (const waker of [...live.wakers]) waker();
  };

  /** Finds (or creates) the wait/callback record of a state: persisted for top-level states. */
  const takeEntry = (
    live: Live,
    state: string,
    input: unknown,
    create: () => ActiveState,
  ): EntryRef => {
    if (live.machine.topLevel.has(state)) {
      let entry = live.record.active[state];
      if (entry === undefined) {
        entry = create();
        live.record.active[state] = entry;
        persist(live.record);
      }
      return { live, state, key: state, entry, nested: false };
    }
    // Inside Map/Parallel: keyed by state and input; a sibling with the same input gets its own.
    const base = `${state}|${JSON.stringify(input)}`;
    for (let index = 0; ; index += 1) {
      const key = index === 0 ? base : `${base}#${index}`;
      const found = live.nested.get(key);
      if (found === undefined) {
        const entry: NestedEntry = { ...create(), inFlight: true };
        live.nested.set(key, entry);
        return { live, state, key, entry, nested: true };
      }
      if (!found.inFlight) {
        found.inFlight = true;
        return { live, state, key, entry: found, nested: true };
      }
    }
  };

  const closeToken = (token: string | undefined) => {
    if (token === undefined) return;
    tokens.delete(token);
    closedTokens.add(token);
  };

  /** The state is done with its entry (finished or failed). */
  const releaseEntry = (ref: EntryRef) => {
    closeToken(ref.entry.token);
    if (ref.nested) {
      ref.live.nested.delete(ref.key);
    } else if (!ref.live.ended) {
      Reflect.deleteProperty(ref.live.record.active, ref.key);
      persist(ref.live.record);
    }
  };

  /** The state yields to the library and will be invoked again with the same entry. */
  const yieldEntry = (ref: EntryRef): Error => {
    if (ref.nested) (ref.entry as NestedEntry).inFlight = false;
    return namedError(CONTINUE_ERROR, 'yielding before the library task timer fires');
  };

  // --- task invocation ------------------------------------------------------------------------

  const invokeTask = async (key: string, payload: unknown): Promise<Json> => {
    const load = resolveTask(key);
    if (load === undefined) throw runtimeError(`no handler for \${Task_${key}}`);
    const fn = await load();
    const handler = typeof tasks === 'function' ? key : (tasks[key]?.handler ?? key);
    let result: unknown;
    try {
      result = await invokeWithin(
        { functionName: key, handler, timeoutSeconds: budgetOf(key), region },
        (context) => fn(payload, context),
      );
    } catch (error) {
      throw lambdaError(error);
    }
    return toJson(result);
  };

  const dueOf = (fields: WaitFields, params: Record<string, unknown>, at: number): number => {
    if (fields.Seconds !== undefined) return at + fields.Seconds * 1000;
    if (fields.Timestamp !== undefined) return Date.parse(fields.Timestamp);
    if (fields.SecondsPath !== undefined) {
      const seconds = params.seconds;
      if (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds < 0) {
        throw runtimeError(`${fields.SecondsPath} must be a non-negative integer`);
      }
      return at + seconds * 1000;
    }
    const timestamp = params.timestamp;
    if (typeof timestamp !== 'string' || !isRfc3339(timestamp)) {
      throw runtimeError(`${fields.TimestampPath ?? 'Timestamp'} must be an RFC 3339 timestamp`);
    }
    return Date.parse(timestamp);
  };

  const runWait = async (live: Live, state: string, fields: WaitFields, input: unknown) => {
    const params = (input ?? {}) as Record<string, unknown>;
    const ref = takeEntry(live, state, params, () => {
      const at = now();
      return { kind: 'wait', enteredAt: at, due: dueOf(fields, params, at) };
    });
    const budgetEnd = performance.now() + budgetMs;
    for (;;) {
      if (live.ended) throw abortedError();
      const left = (ref.entry.due ?? 0) - now();
      if (left <= 0) {
        releaseEntry(ref);
        return params.input as Json;
      }
      const budgetLeft = budgetEnd - performance.now();
      if (budgetLeft <= 0) throw yieldEntry(ref);
      await pause(live, Math.min(left, budgetLeft));
    }
  };

  const runCallback = async (
    live: Live,
    state: string,
    spec: Extract<OverriddenState, { kind: 'callback' }>,
    input: unknown,
  ): Promise<Json> => {
    const params = (input ?? {}) as Record<string, unknown>;
    const ref = takeEntry(live, state, params, () => {
      const at = now();
      return {
        kind: 'callback',
        enteredAt: at,
        token: `${TOKEN_PREFIX}${randomBytes(48).toString('base64url')}`,
        invoked: false,
        heartbeatAt: at,
        ...(spec.timeoutSeconds === undefined ? {} : { deadline: at + spec.timeoutSeconds * 1000 }),
        ...(spec.heartbeatSeconds === undefined ? {} : { heartbeatSeconds: spec.heartbeatSeconds }),
      };
    });
    const { entry } = ref;
    const token = entry.token ?? '';
    tokens.set(token, { live, state, key: ref.key, nested: ref.nested });
    if (entry.invoked !== true) {
      try {
        await invokeTask(spec.key, withTaskToken(params.Payload ?? {}, token));
      } catch (error) {
        releaseEntry(ref);
        throw error;
      }
      if (live.ended) throw abortedError();
      entry.invoked = true;
      if (!ref.nested) persist(live.record);
    }
    const budgetEnd = performance.now() + budgetMs;
    for (;;) {
      if (live.ended) throw abortedError();
      const settled = entry.settled;
      if (settled !== undefined) {
        releaseEntry(ref);
        if (settled.ok) return settled.output;
        throw namedError(settled.error, settled.cause);
      }
      const at = now();
      const limits: number[] = [budgetEnd - performance.now()];
      if (entry.deadline !== undefined) {
        if (at >= entry.deadline) {
          releaseEntry(ref);
          throw namedError('States.Timeout', 'the task did not complete within TimeoutSeconds');
        }
        limits.push(entry.deadline - at);
      }
      if (entry.heartbeatSeconds !== undefined) {
        const heartbeatDue = (entry.heartbeatAt ?? entry.enteredAt) + entry.heartbeatSeconds * 1000;
        if (at >= heartbeatDue) {
          releaseEntry(ref);
          throw namedError('States.HeartbeatTimeout', 'no heartbeat within HeartbeatSeconds');
        }
        limits.push(heartbeatDue - at);
      }
      if ((limits[0] ?? 0) <= 0) throw yieldEntry(ref);
      await pause(live, Math.min(...limits));
    }
  };

  const overridesFor = (live: Live, resumeInput: Json | undefined) => {
    const handlers: Record<string, (input: unknown) => Promise<Json>> = {};
    for (const [state, spec] of live.machine.overridden) {
      handlers[state] = async (input: unknown): Promise<Json> => {
        if (live.ended) throw abortedError();
        switch (spec.kind) {
          case 'task':
            return invokeTask(spec.key, input);
          case 'invoke': {
            const params = (input ?? {}) as Record<string, unknown>;
            const payload = await invokeTask(spec.key, params.Payload ?? {});
            return { ExecutedVersion: '$LATEST', Payload: payload, StatusCode: 200 };
          }
          case 'callback':
            return runCallback(live, state, spec, input);
          case 'wait':
            return runWait(live, state, spec.fields, input);
          case 'resume':
            return resumeInput ?? null;
        }
      };
    }
    return handlers;
  };

  // --- executions -----------------------------------------------------------------------------

  const finish = (
    live: Live,
    status: Exclude<ExecutionStatus, 'RUNNING'>,
    result: { output?: Json; error?: string; cause?: string },
  ) => {
    if (live.ended) return;
    live.ended = true;
    const { record } = live;
    record.status = status;
    record.stopDate = now();
    if (result.output !== undefined) record.output = JSON.stringify(result.output);
    if (result.error !== undefined) record.error = result.error;
    if (result.cause !== undefined) record.cause = result.cause;
    for (const entry of Object.values(record.active)) closeToken(entry.token);
    for (const entry of live.nested.values()) closeToken(entry.token);
    record.active = {};
    live.nested.clear();
    pushHistory(record, {
      type: END_EVENT[status],
      ...(result.error === undefined ? {} : { error: result.error }),
    });
    persist(record);
    executions.delete(record.executionArn);
    live.controller.abort();
    live.abortRun();
  };

  const follow = async (live: Live, events: AsyncGenerator<Record<string, unknown>>) => {
    for await (const event of events) {
      if (live.ended) continue;
      const state = event.state as { name: string; input?: Json } | undefined;
      if (state === undefined || event.index !== undefined || state.name === RESUME_STATE) continue;
      if (!live.machine.topLevel.has(state.name)) continue;
      const type = event.type as string;
      if (type === 'StateEntered') {
        live.record.resume = { state: state.name, input: state.input ?? null };
        pushHistory(live.record, { type, state: state.name });
        persist(live.record);
      } else if (type === 'StateExited') {
        pushHistory(live.record, { type, state: state.name });
      } else if (
        (type === 'StateFailed' || type === 'StateCaught') &&
        event.Error !== CONTINUE_ERROR
      ) {
        pushHistory(live.record, {
          type,
          state: state.name,
          ...(typeof event.Error === 'string' ? { error: event.Error } : {}),
        });
      }
    }
  };

  const run = (live: Live) => {
    const { record, machine } = live;
    const resume = record.resume;
    const definition =
      resume === undefined ? machine.definition : resumeDefinition(machine, resume.state, region);
    const stateMachine = new StateMachine(definition, { validationOptions: { noValidate: true } });
    const execution = stateMachine.run(JSON.parse(record.input) as Json, {
      overrides: { taskResourceLocalHandlers: overridesFor(live, resume?.input) },
      noThrowOnAbort: true,
      context: {
        Execution: {
          Id: record.executionArn,
          Name: record.name,
          RoleArn: `arn:aws:iam::${ACCOUNT}:role/local-workflows`,
        },
        StateMachine: { Id: record.stateMachineArn, Name: record.stateMachineName },
      },
    });
    live.abortRun = execution.abort;
    void follow(live, execution.eventLogs as AsyncGenerator<Record<string, unknown>>);
    execution.result.then(
      (output: Json) => finish(live, 'SUCCEEDED', { output }),
      (error: unknown) => {
        const cause = error instanceof ExecutionError ? error.cause : error;
        if (cause instanceof Error && cause.name === 'Local.Aborted') return;
        finish(live, 'FAILED', {
          error: cause instanceof Error ? cause.name : 'States.Runtime',
          cause: cause instanceof Error ? cause.message : String(cause),
        });
      },
    );
    if (record.deadline !== undefined) void watchDeadline(live, record.deadline);
  };

  const watchDeadline = async (live: Live, deadline: number) => {
    try {
      while (!live.ended && now() < deadline) await pause(live, deadline - now());
    } catch {
      return; // stopped
    }
    finish(live, 'TIMED_OUT', {
      error: 'States.Timeout',
      cause: 'The execution exceeded the state machine TimeoutSeconds.',
    });
  };

  const launch = (record: ExecutionRecord, machine: PreparedMachine) => {
    const live: Live = {
      record,
      machine,
      controller: new AbortController(),
      abortRun: () => undefined,
      nested: new Map(),
      wakers: new Set(),
      ended: false,
    };
    executions.set(record.executionArn, live);
    records.set(record.executionArn, record);
    for (const [state, entry] of Object.entries(record.active)) {
      if (entry.token !== undefined && entry.settled === undefined) {
        tokens.set(entry.token, { live, state, key: state, nested: false });
      }
    }
    run(live);
  };

  // Executions of a previous run: finished ones answer DescribeExecution, running ones resume.
  const held: ExecutionRecord[] = [];
  for (const record of store.loadAll()) {
    records.set(record.executionArn, record);
    if (record.status === 'RUNNING') held.push(record);
  }
  const resume = (): number => {
    let resumed = 0;
    for (const record of held.splice(0)) {
      if (stopping) return resumed;
      let machine: PreparedMachine;
      try {
        machine = prepare(record.stateMachineName, record.definition);
      } catch (error) {
        record.status = 'FAILED';
        record.stopDate = now();
        record.error = 'States.Runtime';
        record.cause = `cannot resume: ${error instanceof Error ? error.message : String(error)}`;
        persist(record);
        log(`workflow runner: ${record.executionArn} ${record.cause}`);
        continue;
      }
      launch(record, machine);
      resumed += 1;
    }
    if (resumed > 0) log(`workflow runner: resumed ${resumed} execution(s)`);
    return resumed;
  };

  // --- the API ----------------------------------------------------------------------------------

  const seconds = (ms: number) => ms / 1000;

  const parseJsonText = (text: unknown, type: string, what: string): Json => {
    if (typeof text !== 'string') throw new ApiError(type, `${what} must be a JSON string`);
    if (text.length > MAX_PAYLOAD_CHARS) throw new ApiError(type, `${what} exceeds 256 KiB`);
    try {
      return JSON.parse(text) as Json;
    } catch {
      throw new ApiError(type, `${what} is not valid JSON`);
    }
  };

  const findToken = (token: unknown): { ref: TokenRef; entry: ActiveState } => {
    if (typeof token !== 'string' || token.length < 1 || token.length > 2048) {
      throw new ApiError('InvalidToken', 'Invalid Token');
    }
    const ref = tokens.get(token);
    if (ref === undefined) {
      if (closedTokens.has(token)) {
        throw new ApiError('TaskTimedOut', 'Task Timed Out: Provided task does not exist anymore');
      }
      if (!token.startsWith(TOKEN_PREFIX)) throw new ApiError('InvalidToken', 'Invalid Token');
      throw new ApiError('TaskDoesNotExist', 'Task does not exist');
    }
    const entry = ref.nested ? ref.live.nested.get(ref.key) : ref.live.record.active[ref.key];
    if (entry === undefined || entry.settled !== undefined || ref.live.ended) {
      throw new ApiError('TaskTimedOut', 'Task Timed Out: Provided task does not exist anymore');
    }
    return { ref, entry };
  };

  const settle = (token: unknown, settlement: NonNullable<ActiveState['settled']>) => {
    const { ref, entry } = findToken(token);
    entry.settled = settlement;
    tokens.delete(token as string);
    closedTokens.add(token as string);
    if (!ref.nested) persist(ref.live.record);
    wake(ref.live);
  };

  const describe = (record: ExecutionRecord) => ({
    executionArn: record.executionArn,
    stateMachineArn: record.stateMachineArn,
    name: record.name,
    status: record.status,
    startDate: seconds(record.startDate),
    ...(record.stopDate === undefined ? {} : { stopDate: seconds(record.stopDate) }),
    input: record.input,
    inputDetails: { included: true },
    ...(record.output === undefined
      ? {}
      : { output: record.output, outputDetails: { included: true } }),
    ...(record.error === undefined ? {} : { error: record.error }),
    ...(record.cause === undefined ? {} : { cause: record.cause }),
  });

  const recordOf = (arn: unknown): ExecutionRecord => {
    if (typeof arn !== 'string' || !arn.startsWith('arn:aws:states:')) {
      throw new ApiError('InvalidArn', `Invalid Arn: '${String(arn)}'`);
    }
    const record = records.get(arn);
    if (record === undefined)
      throw new ApiError('ExecutionDoesNotExist', `Execution Does Not Exist: '${arn}'`);
    return record;
  };

  const operations: Record<string, (body: Record<string, unknown>) => unknown> = {
    StartExecution(body) {
      const arn = body.stateMachineArn;
      if (typeof arn !== 'string' || !arn.startsWith('arn:aws:states:')) {
        throw new ApiError('InvalidArn', `Invalid Arn: '${String(arn)}'`);
      }
      const machine = machineByArn.get(arn);
      if (machine === undefined) {
        throw new ApiError('StateMachineDoesNotExist', `State Machine Does Not Exist: '${arn}'`);
      }
      const name = body.name === undefined ? randomUUID() : body.name;
      if (typeof name !== 'string' || !isValidName(name)) {
        throw new ApiError('InvalidName', `Invalid Name: '${String(name)}'`);
      }
      const inputText = body.input === undefined ? '{}' : body.input;
      parseJsonText(inputText, 'InvalidExecutionInput', 'input');
      const executionArn = `arn:aws:states:${region}:${ACCOUNT}:execution:${machine.name}:${name}`;
      const existing = records.get(executionArn);
      if (existing !== undefined) {
        // Standard workflows: the same name and input while running is idempotent.
        if (existing.status === 'RUNNING' && existing.input === inputText) {
          return { executionArn, startDate: seconds(existing.startDate) };
        }
        throw new ApiError('ExecutionAlreadyExists', `Execution Already Exists: '${executionArn}'`);
      }
      const startDate = now();
      const record: ExecutionRecord = {
        version: 1,
        executionArn,
        stateMachineArn: arn,
        stateMachineName: machine.name,
        name,
        status: 'RUNNING',
        input: inputText as string,
        startDate,
        definition: machine.raw,
        ...(machine.prepared.timeoutSeconds === undefined
          ? {}
          : { deadline: startDate + machine.prepared.timeoutSeconds * 1000 }),
        active: {},
        history: [{ at: startDate, type: 'ExecutionStarted' }],
      };
      persist(record);
      launch(record, machine.prepared);
      return { executionArn, startDate: seconds(startDate) };
    },

    DescribeExecution(body) {
      return describe(recordOf(body.executionArn));
    },

    StopExecution(body) {
      const record = recordOf(body.executionArn);
      const live = executions.get(record.executionArn);
      if (live !== undefined) {
        finish(live, 'ABORTED', {
          ...(typeof body.error === 'string' ? { error: body.error } : {}),
          ...(typeof body.cause === 'string' ? { cause: body.cause } : {}),
        });
      }
      return { stopDate: seconds(record.stopDate ?? now()) };
    },

    SendTaskSuccess(body) {
      const output = parseJsonText(body.output, 'InvalidOutput', 'output');
      settle(body.taskToken, { ok: true, output });
      return {};
    },

    SendTaskFailure(body) {
      settle(body.taskToken, {
        ok: false,
        error: typeof body.error === 'string' ? body.error : '',
        cause: typeof body.cause === 'string' ? body.cause : '',
      });
      return {};
    },

    SendTaskHeartbeat(body) {
      const { ref, entry } = findToken(body.taskToken);
      entry.heartbeatAt = now();
      if (!ref.nested) persist(ref.live.record);
      wake(ref.live);
      return {};
    },
  };

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const answer = (status: number, body: unknown) => {
        const text = JSON.stringify(body);
        response.writeHead(status, {
          'content-type': 'application/x-amz-json-1.0',
          'content-length': Buffer.byteLength(text),
          'x-amzn-requestid': randomUUID(),
        });
        response.end(text);
      };
      const fail = (type: string, message: string, status = 400) =>
        answer(status, { __type: `com.amazonaws.swf.service.v2.model#${type}`, message });
      const target = request.headers['x-amz-target'];
      const operation =
        typeof target === 'string' && target.startsWith('AWSStepFunctions.')
          ? target.slice('AWSStepFunctions.'.length)
          : undefined;
      if (request.method !== 'POST' || operation === undefined) {
        fail('UnknownOperationException', 'Expected a POST with X-Amz-Target AWSStepFunctions.*');
        return;
      }
      const handle = Object.hasOwn(operations, operation) ? operations[operation] : undefined;
      if (handle === undefined) {
        log(
          `workflow runner: unsupported operation ${operation} (the twin emulates only what the product calls)`,
        );
        fail('UnknownOperationException', `The local runner does not implement ${operation}`);
        return;
      }
      let body: Record<string, unknown>;
      try {
        const text = Buffer.concat(chunks).toString('utf8');
        body = (text === '' ? {} : JSON.parse(text)) as Record<string, unknown>;
      } catch {
        fail('SerializationException', 'The request body is not valid JSON');
        return;
      }
      try {
        answer(200, handle(body));
      } catch (error) {
        if (error instanceof ApiError) {
          fail(error.type, error.message);
        } else {
          log(
            `workflow runner: ${operation} failed: ${error instanceof Error ? error.stack : String(error)}`,
          );
          fail('InternalFailure', 'internal error', 500);
        }
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  if (options.autoResume !== false) resume();

  return {
    endpoint: `http://${options.host ?? '127.0.0.1'}:${address.port}`,
    stateMachineArns: Object.fromEntries([...machines].map(([name, m]) => [name, m.arn])),
    stateMachineArnPrefix: arnPrefix,
    taskTimeouts: Object.fromEntries(
      [...new Set([...machines.values()].flatMap((m) => [...m.prepared.taskKeys]))]
        .sort()
        .map((key) => [key, budgetOf(key)]),
    ),
    resume,
    async stop() {
      if (stopping) return;
      stopping = true;
      // Running executions stay RUNNING on disk: the next runner on this data dir resumes them.
      for (const live of executions.values()) {
        live.ended = true;
        live.controller.abort();
        live.abortRun();
      }
      executions.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
