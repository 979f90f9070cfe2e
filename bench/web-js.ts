import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { REPO_ROOT } from '../infra/lib/bundle';
import { kib, table } from './stats';

/**
 * The JavaScript every first visit downloads before any page renders (the shell): the entry
 * script and the modules index.html preloads, from a production build of the web, raw and gzip.
 * Each page's own chunks (lazy routes and modals) are listed apart; what a guest on a given page
 * downloads in all is measured by Lighthouse (bench/lighthouse.ts).
 */
export function benchWebJs() {
  const outDir = path.join(REPO_ROOT, 'dist', 'bench-web');
  execFileSync(
    'npx',
    ['vite', 'build', '--config', 'web/vite.config.ts', '--outDir', outDir, '--emptyOutDir'],
    { cwd: REPO_ROOT, stdio: 'ignore' },
  );
  const html = readFileSync(path.join(outDir, 'index.html'), 'utf8');
  const initial = [
    ...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g),
  ].map((match) => match[1] as string);
  const size = (file: string) => {
    const bytes = readFileSync(path.join(outDir, file));
    return { raw: bytes.length, gzip: gzipSync(bytes).length };
  };
  const initialSizes = initial.map((file) => ({ file, ...size(file) }));
  const total = initialSizes.reduce(
    (sum, entry) => ({ raw: sum.raw + entry.raw, gzip: sum.gzip + entry.gzip }),
    { raw: 0, gzip: 0 },
  );
  const lazy = readdirSync(path.join(outDir, 'assets'))
    .filter((file) => file.endsWith('.js') && !initial.some((entry) => entry.endsWith(file)))
    .map((file) => ({ file: `assets/${file}`, ...size(`assets/${file}`) }));
  console.log(
    '\n6. Web: JavaScript of the shell (entry and modulepreloads; pages load on demand)\n',
  );
  console.log(
    table(
      ['file', 'raw', 'gzip'],
      [
        ...initialSizes.map((entry) => [entry.file, kib(entry.raw), kib(entry.gzip)]),
        ['initial total', kib(total.raw), kib(total.gzip)],
        ...lazy.map((entry) => [`${entry.file} (lazy)`, kib(entry.raw), kib(entry.gzip)]),
      ],
    ),
  );
  return {
    outDir,
    initialRaw: total.raw,
    initialGzip: total.gzip,
    lazyChunks: lazy.length,
  };
}
