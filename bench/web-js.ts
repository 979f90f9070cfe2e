import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { BOOT_MODULE, buildWeb, chunksOf } from '../infra/lib/build-web';
import { REPO_ROOT } from '../infra/lib/bundle';
import { kib, table } from './stats';

/** The page module each measured page renders (a key of Vite's manifest). */
const PAGE_MODULES: Record<string, string> = {
  '/': 'src/app/HomeRoute.tsx',
  '/sellers': 'src/features/sellers/components/SellersPage.tsx',
  // A profile's frame (pages/profile.html) shows its loading state until these have run.
  '/tidewater': 'src/app/ProfileRoute.tsx',
};

export interface PageJs {
  page: string;
  files: string[];
  raw: number;
  gzip: number;
}

/**
 * The JavaScript a first visit needs before its page is live, from the production build
 * (`npm run build:web`, prerendered pages included): the entry (main.tsx), the app it imports
 * once the page has painted (boot.tsx and its static imports) and the page's own chunks, raw and
 * gzip. Idle-time prefetches (menus, dialogs) are not counted; Lighthouse's column of all the
 * JavaScript a run downloaded includes them.
 */
export async function benchWebJs() {
  const outDir = path.join(REPO_ROOT, 'dist', 'bench-web');
  const { manifest } = await buildWeb(outDir);
  const size = (file: string) => {
    const bytes = readFileSync(path.join(outDir, file));
    return { raw: bytes.length, gzip: gzipSync(bytes).length };
  };
  const entry = chunksOf(manifest, 'index.html');
  const app = chunksOf(manifest, BOOT_MODULE);
  const pages: PageJs[] = Object.entries(PAGE_MODULES).map(([page, module]) => {
    const files = [...new Set([...entry, ...app, ...chunksOf(manifest, module)])];
    const total = files
      .map(size)
      .reduce((sum, next) => ({ raw: sum.raw + next.raw, gzip: sum.gzip + next.gzip }), {
        raw: 0,
        gzip: 0,
      });
    return { page, files, ...total };
  });
  const byGzip = [...new Set(pages.flatMap((page) => page.files))]
    .map((file) => ({ file, ...size(file) }))
    .sort((a, b) => b.gzip - a.gzip);
  console.log(
    '\n6. Web: JavaScript a guest needs before the page is live (entry, app, page chunks)\n',
  );
  console.log(
    table(
      ['page', 'files', 'raw', 'gzip'],
      pages.map((page) => [page.page, page.files.length, kib(page.raw), kib(page.gzip)]),
    ),
  );
  console.log('\n   largest of those files:\n');
  console.log(
    table(
      ['file', 'raw', 'gzip'],
      byGzip.slice(0, 12).map((entry) => [entry.file, kib(entry.raw), kib(entry.gzip)]),
    ),
  );
  const home = pages.find((page) => page.page === '/');
  if (!home) throw new Error('no figures for /');
  return { outDir, pages, guestHomeGzip: home.gzip, guestHomeRaw: home.raw };
}
