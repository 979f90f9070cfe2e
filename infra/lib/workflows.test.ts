import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { discoverWorkflows } from './workflows';

const workDir = mkdtempSync(path.join(os.tmpdir(), 'market-workflows-'));
afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

function dirWith(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(workDir, 'case-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(dir, name), content);
  return dir;
}

const task = (resource: string): string =>
  JSON.stringify({ StartAt: 'A', States: { A: { Type: 'Task', Resource: resource, End: true } } });

describe('discoverWorkflows', () => {
  it('reads every *.asl.json with the task keys it uses', () => {
    const dir = dirWith({
      'b-flow.asl.json': task('${Task_two}'),
      'a-flow.asl.json': task('${Task_one}'),
      'notes.md': 'ignored',
    });
    const workflows = discoverWorkflows(dir, { one: {}, two: {} });
    expect(workflows.map((w) => [w.name, w.taskKeys])).toEqual([
      ['a-flow', ['one']],
      ['b-flow', ['two']],
    ]);
  });

  it('treats a missing directory as no workflows', () => {
    expect(discoverWorkflows(path.join(os.tmpdir(), 'market-no-such-dir'))).toEqual([]);
  });

  it.each([
    [{ 'x.asl.json': task('${Task_missing}') }, /add "missing" to workflowTasks/],
    [{ 'x.asl.json': task('${Other}') }, /unknown substitution/],
    [{ 'x.asl.json': '{ nope' }, /not valid JSON/],
    [{ 'x.asl.json': '{}' }, /StartAt and States/],
    [{ 'Bad_Name.asl.json': task('arn:aws:states:::pass') }, /kebab-case/],
  ])('rejects %j', (files, message) => {
    expect(() => discoverWorkflows(dirWith(files), {})).toThrow(message);
  });
});
