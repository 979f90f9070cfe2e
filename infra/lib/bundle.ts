/**
 * Bundles every Lambda handler of the route table in ONE esbuild run (one build with many entry
 * points, not one bundler run per function) into self-contained per-handler bundles:
 *
 *   dist/functions/<handler path>/index.mjs   (+ index.mjs.map)
 *
 * CDK points each function's `Code.fromAsset` at its own directory, so a change to one handler
 * re-uploads only the bundles whose bytes changed.
 *
 * Run directly (`npm run build:functions`) it builds everything and prints each bundle's size.
 */
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type BuildOptions } from 'esbuild';
import { httpRoutes } from '../../functions/routes';

/** Repository root (this file lives in infra/lib). */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Where the bundles go; the CDK app reads them from here. */
export const DEFAULT_BUNDLE_DIR = path.join(REPO_ROOT, 'dist', 'functions');
/** File name of every bundle inside its handler directory; the Lambda handler is `index.handler`. */
export const BUNDLE_FILE = 'index.mjs';

export interface BundleOptions {
  /**
   * Handler module paths under `functionsDir`, without extension. Default: `bundledHandlers()`
   * (the route table's handlers and the Cognito trigger modules that exist).
   */
  handlers?: readonly string[];
  /** Source root of the handlers. Default: `<repo>/functions`. */
  functionsDir?: string;
  /** Output root. Default: `<repo>/dist/functions`. Emptied before the build. */
  outDir?: string;
  /** Default true. */
  minify?: boolean;
  /** Linked source maps (`index.mjs.map`, without sources content). Default true. */
  sourcemap?: boolean;
}

export interface BundleResult {
  /** Absolute path of the bundle. */
  file: string;
  /** Size in bytes of the (minified) bundle, source map excluded. */
  bytes: number;
}

/**
 * Lets bundled CommonJS dependencies call `require` (for Node built-ins) and read `__dirname`
 * inside an ES module, where neither exists.
 */
const ESM_CJS_SHIM = [
  "import { createRequire as __marketCreateRequire } from 'node:module';",
  "import { fileURLToPath as __marketFileURLToPath } from 'node:url';",
  "import { dirname as __marketDirname } from 'node:path';",
  'const require = __marketCreateRequire(import.meta.url);',
  'const __filename = __marketFileURLToPath(import.meta.url);',
  'const __dirname = __marketDirname(__filename);',
].join('\n');

/**
 * The AWS SDK v3 is BUNDLED, not external, although the nodejs24.x runtime ships a copy:
 * - the runtime's SDK version is whatever AWS installed that week; bundling runs in Lambda the
 *   exact versions package-lock.json pins and the tests ran against on the twin (AWS's own
 *   guidance for production is to bundle the SDK for this reason);
 * - esbuild tree-shakes and minifies the clients, and loading one file is faster at cold start
 *   than resolving the runtime's node_modules tree;
 * - our handlers also use SDK packages the runtime need not ship (s3-presigned-post,
 *   s3-request-presigner, Powertools), which must be bundled anyway.
 * The cost is a few hundred KB per bundle, which the bench prints.
 */
const EXTERNAL: string[] = [
  // Native modules (a route's `native` in functions/routes.ts) cannot be bundled: their binaries
  // are resolved at run time (node_modules on the twin; a Lambda layer in AWS, docs/operations.md).
  ...new Set(httpRoutes.flatMap((route) => route.native ?? [])),
];

export function esbuildOptions(
  entries: { in: string; out: string }[],
  outDir: string,
  options: Pick<BundleOptions, 'minify' | 'sourcemap'>,
): BuildOptions {
  return {
    absWorkingDir: REPO_ROOT,
    entryPoints: entries,
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // Every bundle must stand alone in its own asset directory: no shared chunks.
    splitting: false,
    format: 'esm',
    platform: 'node',
    target: 'node24',
    // Prefer the ESM builds of dual packages (better tree-shaking of the SDK).
    mainFields: ['module', 'main'],
    minify: options.minify ?? true,
    sourcemap: (options.sourcemap ?? true) ? 'linked' : false,
    sourcesContent: false,
    banner: { js: ESM_CJS_SHIM },
    external: EXTERNAL,
    metafile: true,
    logLevel: 'warning',
    write: true,
  };
}

/**
 * Builds the handlers in one esbuild run. Fails with the list of missing sources when a handler of
 * the route table has no module yet.
 */
export async function bundleFunctions(
  options: BundleOptions = {},
): Promise<Record<string, BundleResult>> {
  const { bundledHandlers } = await import('./identity');
  const handlers = [...(options.handlers ?? bundledHandlers())];
  const functionsDir = options.functionsDir ?? path.join(REPO_ROOT, 'functions');
  const outDir = options.outDir ?? DEFAULT_BUNDLE_DIR;

  const entries = handlers.map((handler) => ({
    handler,
    in: path.join(functionsDir, `${handler}.ts`),
    out: `${handler}/index`,
  }));
  const missing = entries.filter((entry) => !existsSync(entry.in));
  if (missing.length > 0) {
    throw new Error(
      `Cannot bundle: ${missing.length} handler module(s) of the route table do not exist:\n` +
        missing.map((entry) => `  - ${path.relative(REPO_ROOT, entry.in)}`).join('\n'),
    );
  }

  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  const result = await build(
    esbuildOptions(
      entries.map((entry) => ({ in: entry.in, out: entry.out })),
      outDir,
      options,
    ),
  );

  const outputs = result.metafile?.outputs ?? {};
  const bundles: Record<string, BundleResult> = {};
  for (const entry of entries) {
    const file = path.join(outDir, entry.handler, BUNDLE_FILE);
    const key = path.relative(REPO_ROOT, file).split(path.sep).join('/');
    const output = outputs[key];
    if (output === undefined) throw new Error(`esbuild produced no bundle for ${entry.handler}`);
    bundles[entry.handler] = { file, bytes: output.bytes };
  }
  return bundles;
}

function formatKiB(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

async function main(): Promise<void> {
  const started = performance.now();
  const bundles = await bundleFunctions();
  const elapsed = Math.round(performance.now() - started);
  const names = Object.keys(bundles);
  const width = Math.max(...names.map((name) => name.length));
  for (const name of names) {
    console.log(`  ${name.padEnd(width)}  ${formatKiB(bundles[name]?.bytes ?? 0).padStart(10)}`);
  }
  console.log(
    `Bundled ${names.length} handlers into ${path.relative(REPO_ROOT, DEFAULT_BUNDLE_DIR)} ` +
      `in ${elapsed} ms (one esbuild run).`,
  );
}

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
