import { createHash } from 'node:crypto';
import {
  ExecutionAlreadyExists,
  InvalidToken,
  SendTaskSuccessCommand,
  StartExecutionCommand,
  TaskDoesNotExist,
  TaskTimedOut,
} from '@aws-sdk/client-sfn';
import { sfnClient } from './clients';
import { readEnv, type HandlerEnv } from './env';

/**
 * Starting a workflow (a Step Functions Standard state machine of infra/workflows) from a
 * function: the one StartExecution of the code base. The state machine is found by the workflow's
 * name under WORKFLOW_ARN_PREFIX (set by CDK for the functions declared with `workflows: [name]`,
 * and by the twin). An execution name makes the start idempotent: Step Functions keeps a name
 * for 90 days after the execution closed, and answers the same name with the same input while it
 * runs with the same execution, anything else `ExecutionAlreadyExists` — both are "already
 * started" here.
 */
export interface StartedWorkflow {
  executionArn: string;
  /** False when an execution of that name existed (a repeated start). */
  started: boolean;
}

export type WorkflowStarter = (input: {
  workflow: string;
  /** 1-80 characters of [A-Za-z0-9_-] (see executionName). */
  name: string;
  input: unknown;
}) => Promise<StartedWorkflow>;

const NAME = /^[A-Za-z0-9_-]{1,80}$/;

/**
 * An execution name from parts (`newoffering`, an offering id): the parts joined by `-` when they
 * are made of letters, digits, `_` and `-` and fit in 80 characters, else the prefix and a hash.
 */
export function executionName(prefix: string, ...parts: string[]): string {
  const plain = [prefix, ...parts].join('-');
  if (NAME.test(plain)) return plain;
  const hash = createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 40);
  return `${prefix.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 39)}-${hash}`;
}

/** The ARN of a workflow's state machine (WORKFLOW_ARN_PREFIX + name). */
export function workflowArn(workflow: string, env: HandlerEnv = readEnv()): string {
  if (env.workflowArnPrefix === undefined) {
    throw new Error(
      `WORKFLOW_ARN_PREFIX is not configured: declare the function with workflows: ['${workflow}']`,
    );
  }
  return `${env.workflowArnPrefix}${workflow}`;
}

/** The executions' ARN of a state machine ARN: `…:stateMachine:x` → `…:execution:x:<name>`. */
export function executionArnOf(stateMachineArn: string, name: string): string {
  return `${stateMachineArn.replace(':stateMachine:', ':execution:')}:${name}`;
}

export const startWorkflow: WorkflowStarter = async ({ workflow, name, input }) => {
  if (!NAME.test(name)) throw new RangeError(`invalid execution name ${JSON.stringify(name)}`);
  const env = readEnv();
  const stateMachineArn = workflowArn(workflow, env);
  try {
    const answer = await sfnClient(env).send(
      new StartExecutionCommand({ stateMachineArn, name, input: JSON.stringify(input) }),
    );
    return {
      executionArn: answer.executionArn ?? executionArnOf(stateMachineArn, name),
      started: true,
    };
  } catch (error) {
    if (error instanceof ExecutionAlreadyExists) {
      return { executionArn: executionArnOf(stateMachineArn, name), started: false };
    }
    throw error;
  }
};

/**
 * Settles a callback task (`.waitForTaskToken`) with its output. Answers false when the token is
 * no longer waiting (already settled, timed out, or its execution ended): a repeated settle is
 * harmless. The function is declared with `callbacks: [workflow]` (CDK grants
 * `states:SendTaskSuccess` on that state machine).
 */
export type TaskSettler = (token: string, output: unknown) => Promise<boolean>;

export const settleTask: TaskSettler = async (token, output) => {
  const env = readEnv();
  try {
    await sfnClient(env).send(
      new SendTaskSuccessCommand({ taskToken: token, output: JSON.stringify(output) }),
    );
    return true;
  } catch (error) {
    if (
      error instanceof TaskTimedOut ||
      error instanceof TaskDoesNotExist ||
      error instanceof InvalidToken
    ) {
      return false;
    }
    throw error;
  }
};
