import { describe, expect, it } from 'vitest';
import { readEnv } from './env';
import { executionArnOf, executionName, workflowArn } from './workflows';

describe('workflow starts', () => {
  it('names executions from their parts, hashing what Step Functions would refuse', () => {
    expect(executionName('newoffering', 'oF01J')).toBe('newoffering-oF01J');
    expect(executionName('newoffering', 'oF01J', 'c3')).toBe('newoffering-oF01J-c3');
    const hashed = executionName('newoffering', 'a:b');
    expect(hashed).toMatch(/^newoffering-[0-9a-f]{40}$/);
    expect(executionName('newoffering', 'a:b')).toBe(hashed);
    expect(executionName('newoffering', 'a;b')).not.toBe(hashed);
    expect(executionName('newoffering', 'y'.repeat(80)).length).toBeLessThanOrEqual(80);
  });

  it('finds the state machine under WORKFLOW_ARN_PREFIX, or says what to declare', () => {
    const prefix = 'arn:aws:states:eu-west-1:123456789012:stateMachine:market-prod-';
    expect(workflowArn('follower-fanout', readEnv({ WORKFLOW_ARN_PREFIX: prefix }))).toBe(
      `${prefix}follower-fanout`,
    );
    expect(() => workflowArn('follower-fanout', readEnv({}))).toThrow(
      /declare the function with workflows: \['follower-fanout'\]/,
    );
    expect(executionArnOf(`${prefix}follower-fanout`, 'newoffering-x')).toBe(
      'arn:aws:states:eu-west-1:123456789012:execution:market-prod-follower-fanout:newoffering-x',
    );
  });
});
