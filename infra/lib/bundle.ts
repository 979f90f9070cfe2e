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
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type BuildOptions } from 'esbuild';
import { BUNDLED_RENDER_DIR } from '../../functions/pages/index';
import { httpRoutes } from '../../functions/routes';
import { renderDirOf } from './web-pages';

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
  /** The web build's render folder the page calls ship. Default: `<repo>/dist/web-render`. */
  webRenderDir?: string;
}

export interface BundleResult {
  /** Absolute path of the bundle. */
  file: string;
  /** Size in bytes of the (minified) bundle, source map excluded. */
  bytes: number;
  /** Native packages copied into `<handler dir>/node_modules` (empty for most handlers). */
  nativePackages: string[];
  /**
   * For a page call (a route with `html`): whether the web build's render folder was copied
   * beside it (`web-render/`); false when there is no web build to copy (`npm run build:web`).
   */
  webRender?: boolean;
}

/**
 * The platform Lambda functions with native modules run on: x86_64 Amazon Linux 2023 (glibc).
 * It is the platform npm installs native builds for on our Linux x64 machines, so the binaries
 * shipped are exactly the ones the tests ran against. (Functions without native code run on ARM.)
 */
export const NATIVE_PLATFORM = { os: 'linux', cpu: 'x64', libc: 'glibc' } as const;

interface PackageManifest {
  name: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  os?: string[];
  cpu?: string[];
  libc?: string[];
}

function matchesPlatform(manifest: PackageManifest): boolean {
  const allows = (list: string[] | undefined, value: string) =>
    list === undefined ||
    (list.some((entry) => !entry.startsWith('!'))
      ? list.includes(value)
      : !list.includes(`!${value}`));
  return (
    allows(manifest.os, NATIVE_PLATFORM.os) &&
    allows(manifest.cpu, NATIVE_PLATFORM.cpu) &&
    allows(manifest.libc, NATIVE_PLATFORM.libc)
  );
}

/**
 * Node's lookup of an installed package (node_modules of `from`, then of each parent), by
 * directory: `require.resolve('<name>/package.json')` fails for packages whose `exports` hide it.
 */
function findPackageManifest(name: string, from: string): string | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name, 'package.json');
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * The installed package directories a native module needs at run time: the module, its
 * dependencies, and those of its optional dependencies built for NATIVE_PLATFORM (sharp's
 * `@img/sharp-linux-x64` and `@img/sharp-libvips-linux-x64`). Throws when the module declares
 * platform builds but none for NATIVE_PLATFORM is installed (e.g. bundling on a Mac).
 */
export function nativePackageClosure(
  modules: readonly string[],
  root: string = REPO_ROOT,
): Map<string, string> {
  const found = new Map<string, string>();
  const visit = (name: string, from: string, optional: boolean): void => {
    if (found.has(name)) return;
    const manifestPath = findPackageManifest(name, from);
    if (manifestPath === undefined) {
      if (optional) return;
      throw new Error(`Native module dependency "${name}" is not installed (from ${from})`);
    }
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as PackageManifest;
    if (optional && !matchesPlatform(manifest)) return;
    const dir = path.dirname(manifestPath);
    found.set(name, dir);
    for (const dependency of Object.keys(manifest.dependencies ?? {}))
      visit(dependency, dir, false);
    const optionals = Object.keys(manifest.optionalDependencies ?? {});
    for (const dependency of optionals) visit(dependency, dir, true);
    const platformBuilds = optionals.filter((dependency) => /linux|darwin|win32/.test(dependency));
    if (platformBuilds.length > 0 && !platformBuilds.some((dependency) => found.has(dependency))) {
      const target = `${NATIVE_PLATFORM.os}-${NATIVE_PLATFORM.cpu}`;
      throw new Error(
        `"${name}" has no build for ${target} installed, which Lambda needs. ` +
          `Run \`npm install --os=${NATIVE_PLATFORM.os} --cpu=${NATIVE_PLATFORM.cpu} ` +
          `--libc=${NATIVE_PLATFORM.libc} ${name}\` (or bundle on Linux x64).`,
      );
    }
  };
  for (const name of modules) visit(name, root, false);
  return found;
}

/** Copies the closure of `modules` into `<handlerDir>/node_modules/<name>`. */
export async function copyNativeModules(
  handlerDir: string,
  modules: readonly string[],
  root: string = REPO_ROOT,
): Promise<string[]> {
  const closure = nativePackageClosure(modules, root);
  for (const [name, dir] of closure) {
    await cp(dir, path.join(handlerDir, 'node_modules', name), {
      recursive: true,
      dereference: true,
    });
  }
  return [...closure.keys()].sort();
}

/** Handler → its native modules, from the route table. */
export function nativeModulesByHandler(): Map<string, readonly string[]> {
  return new Map(
    httpRoutes
      .filter((route) => (route.native ?? []).length > 0)
      .map((route) => [route.handler, route.native ?? []]),
  );
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
  // are resolved at run time (node_modules on the twin; copied beside the bundle for AWS, see
  // `copyNativeModules`).
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
  const natives = nativeModulesByHandler();
  const pageHandlers = new Set(
    httpRoutes.filter((route) => route.html === true).map((route) => route.handler),
  );
  const webRenderDir = options.webRenderDir ?? renderDirOf(path.join(REPO_ROOT, 'dist', 'web'));
  const bundles: Record<string, BundleResult> = {};
  for (const entry of entries) {
    const file = path.join(outDir, entry.handler, BUNDLE_FILE);
    const key = path.relative(REPO_ROOT, file).split(path.sep).join('/');
    const output = outputs[key];
    if (output === undefined) throw new Error(`esbuild produced no bundle for ${entry.handler}`);
    const modules = natives.get(entry.handler) ?? [];
    const nativePackages =
      modules.length === 0 ? [] : await copyNativeModules(path.dirname(file), modules);
    bundles[entry.handler] = { file, bytes: output.bytes, nativePackages };
    if (pageHandlers.has(entry.handler)) {
      const shipped = existsSync(webRenderDir);
      if (shipped) {
        await cp(webRenderDir, path.join(path.dirname(file), BUNDLED_RENDER_DIR), {
          recursive: true,
        });
      }
      bundles[entry.handler] = { ...bundles[entry.handler], webRender: shipped } as BundleResult;
    }
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
    const bundle = bundles[name];
    const native = bundle?.nativePackages.length ? `  + ${bundle.nativePackages.join(', ')}` : '';
    const render =
      bundle?.webRender === undefined
        ? ''
        : bundle.webRender
          ? '  + web-render'
          : '  (no web build to ship: run `npm run build:web` first, or it answers 500)';
    console.log(
      `  ${name.padEnd(width)}  ${formatKiB(bundle?.bytes ?? 0).padStart(10)}${native}${render}`,
    );
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
