import { createRequire } from 'node:module';
import type { StateMachineDefinition } from 'aws-local-stepfunctions';

/**
 * Loading an ASL definition for the local runner: validation (asl-validator, as the parity test
 * does), then a rewrite that lets `aws-local-stepfunctions` run it the way Step Functions would.
 *
 * The library keys task overrides by state name and knows neither task tokens nor waits longer than
 * one `setTimeout` (2^31-1 ms, 24.8 days); its task timeout is one `setTimeout` too. So:
 * - `Task` states naming a handler (`${Task_<key>}`, or `lambda:invoke[.waitForTaskToken]` with
 *   `FunctionName: ${Task_<key>}`) get a synthetic Lambda ARN and a local override per state name.
 * - `Wait` states become synthetic `Task` states whose override sleeps in chunks on the runner's
 *   clock; the wait's fields are evaluated by the library through `Parameters`.
 * - Callback tasks get their `$$.Task.Token` references replaced by a marker the override swaps for
 *   a token from the runner's registry; their `TimeoutSeconds`/`HeartbeatSeconds` are enforced by
 *   the runner, not by the library's timer.
 * - Long waits and callbacks hand control back to the library before its timer could fire: the
 *   override throws `Local.ContinueWaiting`, which a prepended retrier (interval 0) catches, and the
 *   next invocation picks the same wait or token up again.
 * Anything else the product does not use fails loudly at load time.
 */

const require = createRequire(import.meta.url);
type AslValidatorFn = (
  definition: unknown,
  options?: { checkPaths?: boolean; checkArn?: boolean },
) => { isValid: boolean; errorsText: (separator?: string) => string };
const aslValidator = require('asl-validator') as AslValidatorFn;

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type AslState = { Type: string } & Record<string, unknown>;
interface AslStates {
  StartAt: string;
  States: Record<string, AslState>;
}

/** Prefix of every state the rewrite adds; user states may not use it. */
export const SYNTHETIC_PREFIX = '__Local';
/** The state a resumed execution starts at: it outputs the persisted input of the resumed state. */
export const RESUME_STATE = '__LocalResume';
/** Thrown by a long wait or callback to yield before the library's task timer fires. */
export const CONTINUE_ERROR = 'Local.ContinueWaiting';
/** Placeholder for `$$.Task.Token` in rewritten callback parameters. */
export const TOKEN_MARKER = '__LOCAL_TASK_TOKEN__';
/** setTimeout's limit, in seconds: a larger task timeout would fire at once. */
export const MAX_TIMER_SECONDS = 2_147_483;

const TASK_REF = /^\$\{Task_([A-Za-z0-9_]+)\}$/;
const LAMBDA_INVOKE = 'arn:aws:states:::lambda:invoke';
const LAMBDA_INVOKE_CALLBACK = 'arn:aws:states:::lambda:invoke.waitForTaskToken';
const TASK_TOKEN_PATH = '$$.Task.Token';

export interface WaitFields {
  Seconds?: number;
  Timestamp?: string;
  SecondsPath?: string;
  TimestampPath?: string;
}

/** What the runner does for a state it overrides, by state name (unique in a machine). */
export type OverriddenState =
  /** `Resource: ${Task_<key>}`: the handler's result is the task result. */
  | { kind: 'task'; key: string }
  /** `lambda:invoke` with `FunctionName: ${Task_<key>}`: result wrapped as `{ Payload, ... }`. */
  | { kind: 'invoke'; key: string }
  /** `lambda:invoke.waitForTaskToken`: invoke, then wait for SendTaskSuccess/Failure. */
  | {
      kind: 'callback';
      key: string;
      timeoutSeconds: number | undefined;
      heartbeatSeconds: number | undefined;
    }
  /** A rewritten `Wait` state. */
  | { kind: 'wait'; fields: WaitFields }
  /** The synthetic start state of a resumed execution. */
  | { kind: 'resume' };

export interface PreparedMachine {
  /** The rewritten definition handed to aws-local-stepfunctions. */
  definition: StateMachineDefinition;
  overridden: ReadonlyMap<string, OverriddenState>;
  /** Names of the machine's top-level states (resume points). */
  topLevel: ReadonlySet<string>;
  /** The machine's own `TimeoutSeconds`, enforced by the runner. */
  timeoutSeconds: number | undefined;
  /** Every `${Task_<key>}` key the definition uses. */
  taskKeys: ReadonlySet<string>;
}

export class AslError extends Error {
  override name = 'AslError';
}

const verdicts = new Map<string, string[]>();

/**
 * asl-validator's verdict, on a copy (the validator writes `QueryLanguage` into the states).
 * Memoized by definition text: one validation costs ~200 ms.
 */
export function validateAsl(definition: unknown): string[] {
  const text = JSON.stringify(definition);
  let errors = verdicts.get(text);
  if (errors === undefined) {
    const result = aslValidator(JSON.parse(text), { checkPaths: true, checkArn: true });
    errors = result.isValid ? [] : result.errorsText('\n').split('\n').filter(Boolean);
    verdicts.set(text, errors);
  }
  return [...errors];
}

export function syntheticArn(region: string, name: string): string {
  return `arn:aws:lambda:${region}:000000000000:function:${name}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Rewrites `"x.$": "$$.Task.Token"` to `"x": TOKEN_MARKER`; counts the replacements. */
function rewriteTokenPaths(value: unknown, where: string): { value: unknown; count: number } {
  if (Array.isArray(value)) {
    let count = 0;
    const items = value.map((item) => {
      const rewritten = rewriteTokenPaths(item, where);
      count += rewritten.count;
      return rewritten.value;
    });
    return { value: items, count };
  }
  if (isObject(value)) {
    let count = 0;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (key.endsWith('.$') && item === TASK_TOKEN_PATH) {
        out[key.slice(0, -2)] = TOKEN_MARKER;
        count += 1;
        continue;
      }
      const rewritten = rewriteTokenPaths(item, where);
      count += rewritten.count;
      out[key] = rewritten.value;
    }
    return { value: out, count };
  }
  if (typeof value === 'string' && value.includes(TASK_TOKEN_PATH)) {
    throw new AslError(
      `${where}: $$.Task.Token is supported only as a whole value ("key.$": "$$.Task.Token")`,
    );
  }
  return { value, count: 0 };
}

function mentionsTaskToken(value: unknown): boolean {
  return JSON.stringify(value ?? null).includes(TASK_TOKEN_PATH);
}

function taskKeyOf(reference: unknown, where: string): string {
  const match = typeof reference === 'string' ? TASK_REF.exec(reference) : null;
  if (match?.[1] === undefined) {
    throw new AslError(
      `${where}: a task must name its handler as "\${Task_<key>}" (a key of workflowTasks), got ${JSON.stringify(reference)}`,
    );
  }
  return match[1];
}

function positiveSeconds(value: unknown, where: string, field: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new AslError(`${where}: ${field} must be a positive integer`);
  }
  return value;
}

const CONTINUE_RETRIER = {
  ErrorEquals: [CONTINUE_ERROR],
  IntervalSeconds: 0,
  BackoffRate: 1,
  MaxAttempts: 99_999_999,
};

interface Context {
  region: string;
  /** Timeout given to synthetic long-running tasks: above the runner's invocation budget. */
  synthTimeoutSeconds: number;
  names: Set<string>;
  overridden: Map<string, OverriddenState>;
  taskKeys: Set<string>;
}

function rewriteStates(machine: AslStates, where: string, ctx: Context): AslStates {
  if (!isObject(machine.States)) throw new AslError(`${where}: States is missing`);
  const states: Record<string, AslState> = {};
  for (const [name, state] of Object.entries(machine.States)) {
    const at = `${where} state "${name}"`;
    if (name.startsWith(SYNTHETIC_PREFIX)) {
      throw new AslError(`${at}: names starting with ${SYNTHETIC_PREFIX} are reserved`);
    }
    if (ctx.names.has(name)) {
      throw new AslError(`${at}: state names must be unique in the whole state machine`);
    }
    ctx.names.add(name);
    if (state.QueryLanguage === 'JSONata') {
      throw new AslError(`${at}: JSONata is not supported by the local runner`);
    }
    states[name] = rewriteState(name, state, at, ctx);
  }
  return { ...machine, States: states };
}

function rewriteState(name: string, state: AslState, at: string, ctx: Context): AslState {
  switch (state.Type) {
    case 'Task':
      return rewriteTask(name, state, at, ctx);
    case 'Wait': {
      const { Seconds, Timestamp, SecondsPath, TimestampPath, InputPath, OutputPath } = state;
      const fields: WaitFields = {};
      const parameters: Record<string, unknown> = { 'input.$': '$' };
      if (typeof Seconds === 'number') fields.Seconds = Seconds;
      if (typeof Timestamp === 'string') fields.Timestamp = Timestamp;
      if (typeof SecondsPath === 'string') {
        fields.SecondsPath = SecondsPath;
        parameters['seconds.$'] = SecondsPath;
      }
      if (typeof TimestampPath === 'string') {
        fields.TimestampPath = TimestampPath;
        parameters['timestamp.$'] = TimestampPath;
      }
      ctx.overridden.set(name, { kind: 'wait', fields });
      return {
        Type: 'Task',
        ...(state.Comment === undefined ? {} : { Comment: state.Comment }),
        Resource: syntheticArn(ctx.region, 'local-wait'),
        ...(InputPath === undefined ? {} : { InputPath }),
        Parameters: parameters,
        ...(OutputPath === undefined ? {} : { OutputPath }),
        TimeoutSeconds: ctx.synthTimeoutSeconds,
        Retry: [CONTINUE_RETRIER],
        ...(state.Next === undefined ? {} : { Next: state.Next }),
        ...(state.End === undefined ? {} : { End: state.End }),
      };
    }
    case 'Map': {
      if (state.ItemReader !== undefined || state.ResultWriter !== undefined) {
        throw new AslError(`${at}: distributed Map (ItemReader/ResultWriter) is not supported`);
      }
      const processorKey = state.ItemProcessor !== undefined ? 'ItemProcessor' : 'Iterator';
      const processor = state[processorKey];
      if (!isObject(processor)) throw new AslError(`${at}: ItemProcessor is missing`);
      const config = processor.ProcessorConfig;
      if (isObject(config) && config.Mode === 'DISTRIBUTED') {
        throw new AslError(`${at}: distributed Map is not supported`);
      }
      if (mentionsTaskToken(state.ItemSelector) || mentionsTaskToken(state.Parameters)) {
        throw new AslError(`${at}: $$.Task.Token is only available to callback tasks`);
      }
      return {
        ...state,
        [processorKey]: rewriteStates(processor as unknown as AslStates, `${at} >`, ctx),
      };
    }
    case 'Choice': {
      if (!Array.isArray(state.Choices)) return state;
      return { ...state, Choices: state.Choices.map((rule: unknown) => rewriteChoiceRule(rule)) };
    }
    case 'Parallel': {
      if (!Array.isArray(state.Branches)) throw new AslError(`${at}: Branches is missing`);
      return {
        ...state,
        Branches: state.Branches.map((branch: unknown, index) =>
          rewriteStates(branch as AslStates, `${at} > branch ${index}`, ctx),
        ),
      };
    }
    default:
      if (mentionsTaskToken(state.Parameters)) {
        throw new AslError(`${at}: $$.Task.Token is only available to callback tasks`);
      }
      return state;
  }
}

/** The type tests of Choice rules: the library matches them only when set to `true`. */
const TYPE_TESTS = ['IsNull', 'IsPresent', 'IsNumeric', 'IsString', 'IsBoolean', 'IsTimestamp'];

/**
 * `{ Variable, IsNull: false }` (any type test set to false) never matches in the library (it
 * returns `IsNull && value === null`): rewritten as `{ Not: { Variable, IsNull: true } }`, with
 * the rule's `Next`, also inside And/Or/Not.
 */
function rewriteChoiceRule(rule: unknown): unknown {
  if (!isObject(rule)) return rule;
  const test = TYPE_TESTS.find((name) => rule[name] === false);
  if (test !== undefined) {
    const { Next: next, [test]: _false, ...rest } = rule;
    return { Not: { ...rest, [test]: true }, ...(next === undefined ? {} : { Next: next }) };
  }
  const out: Record<string, unknown> = { ...rule };
  if (Array.isArray(rule.And)) out.And = rule.And.map(rewriteChoiceRule);
  if (Array.isArray(rule.Or)) out.Or = rule.Or.map(rewriteChoiceRule);
  if (rule.Not !== undefined) out.Not = rewriteChoiceRule(rule.Not);
  return out;
}

function rewriteTask(name: string, state: AslState, at: string, ctx: Context): AslState {
  const resource = state.Resource;
  if (state.TimeoutSecondsPath !== undefined || state.HeartbeatSecondsPath !== undefined) {
    if (resource === LAMBDA_INVOKE_CALLBACK) {
      throw new AslError(`${at}: TimeoutSecondsPath/HeartbeatSecondsPath are not supported`);
    }
  }
  if (typeof resource === 'string' && TASK_REF.test(resource)) {
    const key = taskKeyOf(resource, at);
    if (mentionsTaskToken(state.Parameters)) {
      throw new AslError(`${at}: $$.Task.Token needs "${LAMBDA_INVOKE_CALLBACK}"`);
    }
    ctx.taskKeys.add(key);
    ctx.overridden.set(name, { kind: 'task', key });
    const timeout = state.TimeoutSeconds;
    return {
      ...state,
      Resource: syntheticArn(ctx.region, key),
      ...(typeof timeout === 'number' && timeout > MAX_TIMER_SECONDS
        ? { TimeoutSeconds: MAX_TIMER_SECONDS }
        : {}),
    };
  }
  if (resource === LAMBDA_INVOKE || resource === LAMBDA_INVOKE_CALLBACK) {
    const parameters = state.Parameters;
    if (!isObject(parameters)) throw new AslError(`${at}: Parameters with FunctionName needed`);
    const key = taskKeyOf(parameters.FunctionName, `${at} FunctionName`);
    ctx.taskKeys.add(key);
    if (resource === LAMBDA_INVOKE) {
      if (mentionsTaskToken(parameters)) {
        throw new AslError(`${at}: $$.Task.Token needs "${LAMBDA_INVOKE_CALLBACK}"`);
      }
      ctx.overridden.set(name, { kind: 'invoke', key });
      return { ...state, Resource: syntheticArn(ctx.region, key) };
    }
    const rewritten = rewriteTokenPaths(parameters, at);
    if (rewritten.count === 0) {
      throw new AslError(`${at}: a callback task must pass "$$.Task.Token" in its Payload`);
    }
    ctx.overridden.set(name, {
      kind: 'callback',
      key,
      timeoutSeconds: positiveSeconds(state.TimeoutSeconds, at, 'TimeoutSeconds'),
      heartbeatSeconds: positiveSeconds(state.HeartbeatSeconds, at, 'HeartbeatSeconds'),
    });
    const { TimeoutSeconds: _timeout, HeartbeatSeconds: _heartbeat, Retry: retry, ...rest } = state;
    return {
      ...rest,
      Resource: syntheticArn(ctx.region, `${key}-callback`),
      Parameters: rewritten.value,
      TimeoutSeconds: ctx.synthTimeoutSeconds,
      Retry: [CONTINUE_RETRIER, ...(Array.isArray(retry) ? retry : [])],
    };
  }
  throw new AslError(
    `${at}: unsupported Resource ${JSON.stringify(resource)}; the local runner supports "\${Task_<key>}", ` +
      `"${LAMBDA_INVOKE}" and "${LAMBDA_INVOKE_CALLBACK}" with FunctionName "\${Task_<key>}"`,
  );
}

/** Validates and rewrites one definition; throws AslError naming the first problem. */
export function prepareMachine(
  raw: unknown,
  options: { name: string; region: string; synthTimeoutSeconds: number },
): PreparedMachine {
  const errors = validateAsl(raw);
  if (errors.length > 0) {
    throw new AslError(`${options.name}: invalid ASL:\n  ${errors.join('\n  ')}`);
  }
  const machine = raw as AslStates & { TimeoutSeconds?: number; QueryLanguage?: string };
  if (machine.QueryLanguage === 'JSONata') {
    throw new AslError(`${options.name}: JSONata is not supported by the local runner`);
  }
  const ctx: Context = {
    region: options.region,
    synthTimeoutSeconds: options.synthTimeoutSeconds,
    names: new Set(),
    overridden: new Map(),
    taskKeys: new Set(),
  };
  const { TimeoutSeconds: timeoutSeconds, ...rest } = machine;
  const rewritten = rewriteStates(rest, options.name, ctx);
  ctx.overridden.set(RESUME_STATE, { kind: 'resume' });
  return {
    definition: rewritten as unknown as StateMachineDefinition,
    overridden: ctx.overridden,
    topLevel: new Set(Object.keys(machine.States)),
    timeoutSeconds: positiveSeconds(timeoutSeconds, options.name, 'TimeoutSeconds'),
    taskKeys: ctx.taskKeys,
  };
}

/** The definition of a resumed run: a synthetic first state outputs the saved input of `state`. */
export function resumeDefinition(
  prepared: PreparedMachine,
  state: string,
  region: string,
): StateMachineDefinition {
  const definition = prepared.definition as unknown as AslStates;
  return {
    ...definition,
    StartAt: RESUME_STATE,
    States: {
      [RESUME_STATE]: { Type: 'Task', Resource: syntheticArn(region, 'local-resume'), Next: state },
      ...definition.States,
    },
  } as unknown as StateMachineDefinition;
}

/** Deep-replaces the token marker by the task token. */
export function withTaskToken(value: unknown, token: string): unknown {
  if (value === TOKEN_MARKER) return token;
  if (Array.isArray(value)) return value.map((item) => withTaskToken(item, token));
  if (isObject(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, withTaskToken(item, token)]),
    );
  }
  return value;
}

/** RFC 3339 as Step Functions accepts it in Wait states (the library's own check). */
export function isRfc3339(value: string): boolean {
  return /^\d{4}-(0[1-9]|1[012])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):([0-5][0-9]):([0-5][0-9])(\.\d+)?(Z|(\+|-)([01][0-9]|2[0-3]):([0-5][0-9]))$/.test(
    value,
  );
}
