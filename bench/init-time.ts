import { spawnSync } from 'node:child_process';
import { median } from './stats';

/**
 * Init time of a handler module: a fresh Node process imports the bundle and reports how long the
 * import took (module evaluation: SDK clients, schemas, middleware), as a Lambda cold start would
 * pay it before the first invocation. Runs on the Node that runs the bench (24, pinned by npm).
 */
export function measureInitTime(
  file: string,
  runs: number,
): { medianMs: number; samples: number[] } {
  const script = `const t = performance.now(); await import(${JSON.stringify(file)}); process.stdout.write(String(performance.now() - t));`;
  const samples: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'SILENT' },
    });
    if (result.status !== 0) throw new Error(`importing ${file} failed: ${result.stderr}`);
    samples.push(Number(result.stdout));
  }
  return { medianMs: median(samples), samples };
}
