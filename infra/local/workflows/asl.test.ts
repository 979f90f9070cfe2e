import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StateMachine } from 'aws-local-stepfunctions';
import { describe, expect, it } from 'vitest';
import { workflowTasks } from '../../../functions/routes';
import {
  AslError,
  CONTINUE_ERROR,
  prepareMachine,
  TOKEN_MARKER,
  validateAsl,
  withTaskToken,
} from './asl';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const PRODUCT = fileURLToPath(new URL('../../workflows/', import.meta.url));

function aslFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.asl.json'))
    .map((file) => path.join(dir, file));
}

const read = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));
const prepare = (definition: unknown) =>
  prepareMachine(definition, { name: 'test', region: 'us-east-1', synthTimeoutSeconds: 1000 });

describe('ASL files', () => {
  const fixtures = aslFiles(FIXTURES);
  const product = aslFiles(PRODUCT);

  it('has the runner fixtures', () => {
    expect(fixtures.map((file) => path.basename(file)).sort()).toEqual([
      'callback.asl.json',
      'choice-map.asl.json',
      'long-wait.asl.json',
      'timeout.asl.json',
      'wait-until.asl.json',
    ]);
  });

  it('runs over the product definitions, and fails when there are none', () => {
    // The listing workflow (issue 11) and the follower fan-out (issue 10) at least.
    expect(product.map((file) => path.basename(file))).toEqual(
      expect.arrayContaining(['listing.asl.json', 'follower-fanout.asl.json']),
    );
  });

  it.each([...fixtures, ...product].map((file) => [path.relative(PRODUCT, file), file]))(
    '%s passes asl-validator and loads in the local runner',
    (_name, file) => {
      const definition = read(file);
      expect(validateAsl(definition)).toEqual([]);
      expect(() => prepare(definition)).not.toThrow();
    },
  );

  it.each(product.map((file) => [path.basename(file), file]))(
    '%s names only handlers of workflowTasks',
    (_name, file) => {
      for (const key of prepare(read(file)).taskKeys) {
        expect(Object.keys(workflowTasks)).toContain(key);
      }
    },
  );
});

describe('prepareMachine', () => {
  const task = (state: Record<string, unknown>) => ({
    StartAt: 'A',
    States: { A: { Type: 'Task', End: true, ...state } },
  });

  it('routes ${Task_<key>} to a local override by state name', () => {
    const machine = prepare(task({ Resource: '${Task_closeAuction}', TimeoutSeconds: 9_999_999 }));
    expect(machine.overridden.get('A')).toEqual({ kind: 'task', key: 'closeAuction' });
    expect(machine.taskKeys).toEqual(new Set(['closeAuction']));
    const state = (machine.definition.States as unknown as Record<string, Record<string, unknown>>)
      .A;
    expect(state?.Resource).toBe('arn:aws:lambda:us-east-1:000000000000:function:closeAuction');
    // A timeout beyond one setTimeout would fire at once: clamped.
    expect(state?.TimeoutSeconds).toBe(2_147_483);
  });

  it('turns a Wait into a chunked task whose fields the library evaluates', () => {
    const machine = prepare({
      StartAt: 'W',
      States: { W: { Type: 'Wait', TimestampPath: '$.endsAt', InputPath: '$.x', End: true } },
    });
    expect(machine.overridden.get('W')).toEqual({
      kind: 'wait',
      fields: { TimestampPath: '$.endsAt' },
    });
    expect((machine.definition.States as Record<string, unknown>).W).toEqual({
      Type: 'Task',
      Resource: 'arn:aws:lambda:us-east-1:000000000000:function:local-wait',
      InputPath: '$.x',
      Parameters: { 'input.$': '$', 'timestamp.$': '$.endsAt' },
      TimeoutSeconds: 1000,
      Retry: [
        {
          ErrorEquals: [CONTINUE_ERROR],
          IntervalSeconds: 0,
          BackoffRate: 1,
          MaxAttempts: 99_999_999,
        },
      ],
      End: true,
    });
  });

  it('rewrites callback tasks: token marker, runner-enforced timeouts, yield retrier first', () => {
    const machine = prepare(
      task({
        Resource: 'arn:aws:states:::lambda:invoke.waitForTaskToken',
        Parameters: {
          FunctionName: '${Task_askAdmin}',
          Payload: {
            'token.$': '$$.Task.Token',
            'id.$': '$.id',
            list: [{ 't.$': '$$.Task.Token' }],
          },
        },
        TimeoutSeconds: 600,
        HeartbeatSeconds: 60,
        Retry: [{ ErrorEquals: ['States.ALL'] }],
      }),
    );
    expect(machine.overridden.get('A')).toEqual({
      kind: 'callback',
      key: 'askAdmin',
      timeoutSeconds: 600,
      heartbeatSeconds: 60,
    });
    const state = (machine.definition.States as unknown as Record<string, Record<string, unknown>>)
      .A;
    expect(state?.Parameters).toEqual({
      FunctionName: '${Task_askAdmin}',
      Payload: { token: TOKEN_MARKER, 'id.$': '$.id', list: [{ t: TOKEN_MARKER }] },
    });
    expect(state?.HeartbeatSeconds).toBeUndefined();
    expect(state?.TimeoutSeconds).toBe(1000);
    expect(state?.Retry).toEqual([
      expect.objectContaining({ ErrorEquals: [CONTINUE_ERROR] }),
      { ErrorEquals: ['States.ALL'] },
    ]);
    expect(withTaskToken(state?.Parameters, 'AQtok')).toEqual({
      FunctionName: '${Task_askAdmin}',
      Payload: { token: 'AQtok', 'id.$': '$.id', list: [{ t: 'AQtok' }] },
    });
  });

  it.each([
    [
      'a Lambda ARN instead of a substitution',
      task({ Resource: 'arn:aws:lambda:us-east-1:1:function:x' }),
    ],
    ['an SDK integration', task({ Resource: 'arn:aws:states:::dynamodb:putItem', Parameters: {} })],
    [
      'a callback that passes no token',
      task({
        Resource: 'arn:aws:states:::lambda:invoke.waitForTaskToken',
        Parameters: { FunctionName: '${Task_x}', Payload: {} },
      }),
    ],
    [
      'the token inside an intrinsic',
      task({
        Resource: 'arn:aws:states:::lambda:invoke.waitForTaskToken',
        Parameters: {
          FunctionName: '${Task_x}',
          Payload: { 't.$': "States.Format('{}', $$.Task.Token)" },
        },
      }),
    ],
    [
      'a reserved state name',
      { StartAt: '__LocalX', States: { __LocalX: { Type: 'Pass', End: true } } },
    ],
    [
      'JSONata',
      { QueryLanguage: 'JSONata', StartAt: 'A', States: { A: { Type: 'Pass', End: true } } },
    ],
  ])('fails loudly on %s', (_what, definition) => {
    expect(() => prepare(definition)).toThrow(AslError);
  });

  it('refuses an invalid definition with asl-validator errors', () => {
    expect(() => prepare({ StartAt: 'Missing', States: {} })).toThrow(/invalid ASL/);
  });

  it('makes type tests set to false match (the library only matches them when true)', async () => {
    const machine = prepare({
      StartAt: 'Route',
      States: {
        Route: {
          Type: 'Choice',
          Choices: [
            { Variable: '$.cursor', IsNull: false, Next: 'More' },
            {
              And: [
                { Variable: '$.n', IsPresent: true },
                { Not: { Variable: '$.n', IsNumeric: false } },
              ],
              Next: 'Numeric',
            },
          ],
          Default: 'Done',
        },
        More: { Type: 'Pass', Result: 'more', End: true },
        Numeric: { Type: 'Pass', Result: 'numeric', End: true },
        Done: { Type: 'Pass', Result: 'done', End: true },
      },
    });
    const route = (machine.definition.States as unknown as Record<string, { Choices: unknown }>)
      .Route;
    expect(route?.Choices).toEqual([
      { Not: { Variable: '$.cursor', IsNull: true }, Next: 'More' },
      {
        And: [
          { Variable: '$.n', IsPresent: true },
          { Not: { Not: { Variable: '$.n', IsNumeric: true } } },
        ],
        Next: 'Numeric',
      },
    ]);
    const run = (input: Record<string, string | number | null>) =>
      new StateMachine(machine.definition, { validationOptions: { noValidate: true } }).run(input)
        .result;
    expect(await run({ cursor: 'abc' })).toBe('more');
    expect(await run({ cursor: null, n: 3 })).toBe('numeric');
    expect(await run({ cursor: null, n: 'x' })).toBe('done');
  });
});
