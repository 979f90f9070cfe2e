/**
 * The workflow convention (infra/workflows/README.md): every `<name>.asl.json` is one Standard
 * state machine; a Task names its Lambda as the definition substitution `${Task_<key>}`, where
 * `<key>` is a key of `workflowTasks` in functions/routes.ts. CDK substitutes the Lambda ARN, the
 * local runner invokes the same handler in-process.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './bundle';

export const DEFAULT_WORKFLOWS_DIR = path.join(REPO_ROOT, 'infra', 'workflows');
export const ASL_SUFFIX = '.asl.json';
export const TASK_PREFIX = 'Task_';

export interface WorkflowFile {
  /** File name without `.asl.json`: `auction-close`. */
  name: string;
  /** Absolute path. */
  file: string;
  /** Keys of workflowTasks the definition uses, sorted. */
  taskKeys: string[];
}

const PLACEHOLDER = /\$\{([^}]*)\}/g;
const NAME = /^[a-z][a-z0-9-]*$/;

/** Reads and checks every ASL file of a directory (missing directory: no workflows). */
export function discoverWorkflows(
  dir: string = DEFAULT_WORKFLOWS_DIR,
  tasks: Readonly<Record<string, unknown>> = {},
): WorkflowFile[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries
    .filter((entry) => entry.endsWith(ASL_SUFFIX))
    .sort()
    .map((entry) => readWorkflow(path.join(dir, entry), tasks));
}

function readWorkflow(file: string, tasks: Readonly<Record<string, unknown>>): WorkflowFile {
  const name = path.basename(file, ASL_SUFFIX);
  const where = path.relative(REPO_ROOT, file);
  if (!NAME.test(name)) {
    throw new Error(`${where}: workflow file names are lower-case kebab-case (${name})`);
  }
  const source = readFileSync(file, 'utf8');
  let definition: unknown;
  try {
    definition = JSON.parse(source);
  } catch (error) {
    throw new Error(`${where} is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  if (
    typeof definition !== 'object' ||
    definition === null ||
    !('StartAt' in definition) ||
    !('States' in definition)
  ) {
    throw new Error(`${where} is not a state machine definition (StartAt and States are required)`);
  }
  const taskKeys = new Set<string>();
  for (const match of source.matchAll(PLACEHOLDER)) {
    const placeholder = match[1] ?? '';
    if (!placeholder.startsWith(TASK_PREFIX)) {
      throw new Error(
        `${where}: unknown substitution \${${placeholder}}; only \${${TASK_PREFIX}<key>} is defined`,
      );
    }
    const key = placeholder.slice(TASK_PREFIX.length);
    if (!Object.hasOwn(tasks, key)) {
      throw new Error(
        `${where}: \${${placeholder}} names no task: add "${key}" to workflowTasks in functions/routes.ts`,
      );
    }
    taskKeys.add(key);
  }
  return { name, file, taskKeys: [...taskKeys].sort() };
}
