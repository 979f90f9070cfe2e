/**
 * `npm run synth`: bundles the handlers (one esbuild run), then synthesizes every stack with the
 * pinned CDK CLI, offline: no AWS credentials are read, no account lookup, no version check, no
 * notices, no telemetry. cdk-nag runs inside the app and fails the synth on any finding that is
 * not acknowledged. Prints each stack with its resource count; exits non-zero on any failure.
 *
 * Extra arguments go to `cdk synth`: `npm run synth -- -c stage=prod`.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { bundleFunctions, REPO_ROOT } from '../lib/bundle';

/** CloudFormation's limit of resources per stack. */
const RESOURCE_LIMIT = 500;

interface Manifest {
  artifacts?: Record<string, { type: string; properties?: { templateFile?: string } }>;
}

/** The environment of the CLI: everything that could reach AWS is switched off. */
function offlineEnvironment(): NodeJS.ProcessEnv {
  // Credentials and profiles would make the CLI ask STS for the account.
  const credentials =
    /^AWS_(ACCESS_KEY_ID|SECRET_ACCESS_KEY|SESSION_TOKEN|PROFILE|DEFAULT_PROFILE|ROLE_ARN|WEB_IDENTITY_TOKEN_FILE|CONTAINER_CREDENTIALS_.*)$/;
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !credentials.test(name)),
  );
  // Files that do not exist: no profile, no credentials.
  const nowhere = path.join(os.tmpdir(), 'market-synth-no-aws-config');
  return {
    ...env,
    AWS_CONFIG_FILE: path.join(nowhere, 'config'),
    AWS_SHARED_CREDENTIALS_FILE: path.join(nowhere, 'credentials'),
    AWS_EC2_METADATA_DISABLED: 'true',
    CDK_DISABLE_VERSION_CHECK: 'true',
    CDK_DISABLE_CLI_TELEMETRY: 'true',
    // The app runs as `node --import tsx ...`: the same Node as this script (Node 24).
    PATH: `${path.dirname(process.execPath)}${path.delimiter}${env.PATH ?? ''}`,
  };
}

async function main(): Promise<number> {
  const started = performance.now();
  const bundles = await bundleFunctions();
  const bundled = performance.now();
  console.log(
    `Bundled ${Object.keys(bundles).length} handlers in ${Math.round(bundled - started)} ms.`,
  );

  const outdir = path.join(REPO_ROOT, 'cdk.out');
  const cli = createRequire(import.meta.url).resolve('aws-cdk/bin/cdk');
  const args = ['synth', '-q', '--no-notices', '--no-lookups', '--output', outdir];
  const result = spawnSync(process.execPath, [cli, ...args, ...process.argv.slice(2)], {
    cwd: REPO_ROOT,
    env: offlineEnvironment(),
    stdio: 'inherit',
  });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    console.error(`cdk synth failed (exit ${result.status ?? result.signal ?? 'unknown'}).`);
    return result.status ?? 1;
  }
  const synthesized = performance.now();

  const manifest = JSON.parse(readFileSync(path.join(outdir, 'manifest.json'), 'utf8')) as Manifest;
  const rows: [string, number][] = [];
  for (const [id, artifact] of Object.entries(manifest.artifacts ?? {})) {
    if (artifact.type !== 'aws:cloudformation:stack' || !artifact.properties?.templateFile)
      continue;
    const template = JSON.parse(
      readFileSync(path.join(outdir, artifact.properties.templateFile), 'utf8'),
    ) as { Resources?: Record<string, unknown> };
    rows.push([id, Object.keys(template.Resources ?? {}).length]);
  }
  const width = Math.max(5, ...rows.map(([id]) => id.length));
  console.log(`\n  ${'stack'.padEnd(width)}  resources`);
  for (const [id, count] of rows)
    console.log(`  ${id.padEnd(width)}  ${String(count).padStart(9)}`);
  const total = rows.reduce((sum, [, count]) => sum + count, 0);
  console.log(`  ${'total'.padEnd(width)}  ${String(total).padStart(9)}`);
  console.log(
    `\nSynthesized ${rows.length} stacks into ${path.relative(REPO_ROOT, outdir)} in ` +
      `${Math.round(synthesized - bundled)} ms (total ${Math.round(synthesized - started)} ms); ` +
      'cdk-nag AwsSolutions: no unacknowledged findings.',
  );
  const over = rows.filter(([, count]) => count >= RESOURCE_LIMIT);
  if (over.length > 0) {
    console.error(
      `Over CloudFormation's ${RESOURCE_LIMIT} resources: ${over.map(([id]) => id).join(', ')}`,
    );
    return 1;
  }
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
