import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Json } from './asl';

/**
 * Persistence of executions: one JSON file per execution under `<dataDir>/executions`, rewritten
 * atomically (temp file + rename) on every change that matters for a resume: a top-level state
 * entered, a wait's due time, a task token issued, invoked or settled, the end.
 */
export type ExecutionStatus = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT' | 'ABORTED';

export type Settlement = { ok: true; output: Json } | { ok: false; error: string; cause: string };

/** A wait or callback in progress in a top-level state (persisted so a restart picks it up). */
export interface ActiveState {
  kind: 'wait' | 'callback';
  enteredAt: number;
  /** Wait: when it ends (epoch ms). */
  due?: number;
  /** Callback: the task token, whether the handler got it, deadlines, the settlement. */
  token?: string;
  invoked?: boolean;
  deadline?: number;
  heartbeatSeconds?: number;
  heartbeatAt?: number;
  settled?: Settlement;
}

export interface HistoryEntry {
  at: number;
  type: string;
  state?: string;
  error?: string;
}

export interface ExecutionRecord {
  version: 1;
  executionArn: string;
  stateMachineArn: string;
  stateMachineName: string;
  name: string;
  status: ExecutionStatus;
  /** The input as given (JSON text). */
  input: string;
  startDate: number;
  stopDate?: number;
  output?: string;
  error?: string;
  cause?: string;
  /** The definition the execution started with (a redeploy does not change running executions). */
  definition: Json;
  /** The machine's TimeoutSeconds as an absolute deadline. */
  deadline?: number;
  /** The last top-level state entered and its input: where a restart resumes. */
  resume?: { state: string; input: Json };
  active: Record<string, ActiveState>;
  history: HistoryEntry[];
}

export interface ExecutionStore {
  save(record: ExecutionRecord): void;
  loadAll(): ExecutionRecord[];
}

export const HISTORY_LIMIT = 500;

export function memoryStore(): ExecutionStore {
  return { save: () => undefined, loadAll: () => [] };
}

function fileName(record: Pick<ExecutionRecord, 'stateMachineName' | 'name'>): string {
  return `${encodeURIComponent(record.stateMachineName)}~${encodeURIComponent(record.name)}.json`;
}

export function fileStore(dataDir: string): ExecutionStore {
  const dir = path.join(dataDir, 'executions');
  mkdirSync(dir, { recursive: true });
  return {
    save(record) {
      const file = path.join(dir, fileName(record));
      const temp = `${file}.tmp`;
      writeFileSync(temp, JSON.stringify(record));
      renameSync(temp, file);
    },
    loadAll() {
      const records: ExecutionRecord[] = [];
      for (const entry of readdirSync(dir)) {
        if (!entry.endsWith('.json')) continue;
        try {
          const record = JSON.parse(readFileSync(path.join(dir, entry), 'utf8')) as ExecutionRecord;
          if (record.version === 1) records.push(record);
        } catch (error) {
          console.error(`workflow runner: skipping unreadable execution file ${entry}:`, error);
        }
      }
      return records;
    },
  };
}
