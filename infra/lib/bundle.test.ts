import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type Sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { allHandlers } from '../../functions/routes';
import {
  BUNDLE_FILE,
  bundleFunctions,
  copyNativeModules,
  nativePackageClosure,
  REPO_ROOT,
} from './bundle';

const workDir = mkdtempSync(path.join(os.tmpdir(), 'market-bundle-'));
afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  return mkdtempSync(path.join(workDir, prefix));
}

/** Two fixture handlers sharing a module, written by the test itself. */
function fixtureSources(): string {
  const dir = tempDir('market-bundle-src-');
  mkdirSync(path.join(dir, 'demo', 'handlers'), { recursive: true });
  writeFileSync(
    path.join(dir, 'demo', 'shared.ts'),
    "import { createHash } from 'node:crypto';\n" +
      "export const digest = (text: string): string => createHash('sha256').update(text).digest('hex');\n",
  );
  for (const name of ['first', 'second']) {
    writeFileSync(
      path.join(dir, 'demo', 'handlers', `${name}.ts`),
      "import { digest } from '../shared';\n" +
        `export const handler = async (): Promise<{ name: string; hash: string; cjs: boolean }> => ({ name: '${name}', hash: digest('${name}'), cjs: typeof require === 'function' && typeof __dirname === 'string' });\n`,
    );
  }
  return dir;
}

describe('bundleFunctions', () => {
  it('builds one self-contained ESM bundle with a source map per handler', async () => {
    const functionsDir = fixtureSources();
    const outDir = tempDir('market-bundle-out-');
    const handlers = ['demo/handlers/first', 'demo/handlers/second'];
    const bundles = await bundleFunctions({ handlers, functionsDir, outDir });

    expect(Object.keys(bundles)).toEqual(handlers);
    for (const handler of handlers) {
      const bundle = bundles[handler];
      expect(bundle?.file).toBe(path.join(outDir, handler, BUNDLE_FILE));
      expect(bundle?.bytes).toBe(statSync(bundle?.file ?? '').size);
      // Only the bundle and its map: no shared chunks to ship alongside.
      expect(readdirSync(path.dirname(bundle?.file ?? '')).sort()).toEqual([
        'index.mjs',
        'index.mjs.map',
      ]);
      const code = readFileSync(bundle?.file ?? '', 'utf8');
      expect(code).toContain('createRequire');
      expect(code).toContain('//# sourceMappingURL=index.mjs.map');
      const module = (await import(pathToFileURL(bundle?.file ?? '').href)) as {
        handler: () => Promise<{ name: string; hash: string; cjs: boolean }>;
      };
      const result = await module.handler();
      expect(result.name).toBe(handler.split('/').pop());
      expect(result.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(result.cjs).toBe(true);
    }
  });

  it('names every missing handler module instead of bundling', async () => {
    const functionsDir = fixtureSources();
    await expect(
      bundleFunctions({
        handlers: ['demo/handlers/first', 'demo/handlers/nope', 'other/handlers/gone'],
        functionsDir,
        outDir: tempDir('market-bundle-out-'),
      }),
    ).rejects.toThrow(
      /2 handler module\(s\).*\n.*demo\/handlers\/nope\.ts\n.*other\/handlers\/gone\.ts/,
    );
  });

  it('ships sharp with its linux-x64 build beside the bundle, loadable from there alone', async () => {
    const closure = nativePackageClosure(['sharp']);
    expect([...closure.keys()]).toEqual(
      expect.arrayContaining(['sharp', '@img/sharp-linux-x64', '@img/sharp-libvips-linux-x64']),
    );
    // Other platforms' builds stay out.
    expect([...closure.keys()].filter((name) => /arm64|darwin|win32|musl/.test(name))).toEqual([]);

    const handlerDir = tempDir('market-native-');
    const copied = await copyNativeModules(handlerDir, ['sharp']);
    expect(copied).toEqual([...closure.keys()].sort());
    // A module in the handler directory resolves sharp from its own node_modules, not the repo's,
    // and re-encodes an image with it, as the deployed function does.
    const requireHere = createRequire(path.join(handlerDir, BUNDLE_FILE));
    const resolved = requireHere.resolve('sharp');
    expect(resolved.startsWith(handlerDir)).toBe(true);
    const sharp = requireHere('sharp') as typeof Sharp;
    const png = await sharp({
      create: { width: 4, height: 3, channels: 3, background: { r: 200, g: 10, b: 10 } },
    })
      .png()
      .toBuffer();
    const webp = await sharp(png).webp().toBuffer();
    expect(webp.subarray(8, 12).toString('latin1')).toBe('WEBP');
  });

  it('refuses to bundle a native module without a build for the Lambda platform', () => {
    const root = tempDir('market-native-root-');
    const pkg = path.join(root, 'node_modules', 'fakenative');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(path.join(root, 'package.json'), '{"name":"root"}');
    writeFileSync(
      path.join(pkg, 'package.json'),
      JSON.stringify({
        name: 'fakenative',
        optionalDependencies: { '@fake/fakenative-darwin-arm64': '1.0.0' },
      }),
    );
    expect(() => nativePackageClosure(['fakenative'], root)).toThrow(/no build for linux-x64/);
  });

  // The real handlers arrive from several hands; bundle those that exist (SDK included).
  const present = allHandlers().filter((handler) =>
    existsSync(path.join(REPO_ROOT, 'functions', `${handler}.ts`)),
  );
  // Bundling and loading every handler grows with the route table (one per call): not a speed check.
  it.runIf(present.length > 0)(
    'bundles the handlers of the route table that exist',
    { timeout: 300_000 },
    async () => {
      const bundles = await bundleFunctions({
        handlers: present,
        outDir: tempDir('market-bundle-real-'),
      });
      for (const handler of present) {
        const module = (await import(pathToFileURL(bundles[handler]?.file ?? '').href)) as {
          handler?: unknown;
        };
        expect(typeof module.handler, handler).toBe('function');
      }
    },
  );
});
