import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import type { ItemPage } from '../shared/schemas/items';
import type { PublicProfile } from '../shared/schemas/profiles';
import { loadRenderer, RENDER_FILES } from '../functions/pages/index';
import { PAGE_SIZE } from '../shared/constants/limits';
import { median, percentile } from './stats';

/**
 * The page call's server render of a public profile (functions/pages), on the web build in
 * `renderDir`: what its first request pays to load the web's server bundle (a fresh process
 * imports it, as a cold Lambda would) and what each request pays to render a profile with a full
 * first page of items (one process, after a warm-up render), with the HTML's size.
 */
export interface PageRenderFigures {
  bundleBytes: number;
  importMedianMs: number;
  renderMedianMs: number;
  renderP95Ms: number;
  htmlBytes: number;
}

const IMPORT_RUNS = 5;
const RENDER_RUNS = 30;

const PROFILE: PublicProfile = {
  id: '01JNB5M6501VVQ1WB52B2811PJ',
  nick: 'tidewater',
  user_option: 'company',
  name: 'Olivia',
  surname: 'Marsh',
  entity_name: 'Tidewater Tickets Ltd',
  entity_address: null,
  title: null,
  slogan: 'Live music on the south coast, every weekend',
  summary:
    'Independent promoter of concerts and festivals on the English south coast. Every ticket is numbered and transferable until the doors open.',
  profile_image: '/media/avatars/01JNB5M6501VVQ1WB52B2811PJ/seed-400.webp',
  profile_thumb: '/media/avatars/01JNB5M6501VVQ1WB52B2811PJ/seed-96.webp',
  header_image: null,
  video_url: null,
  social_media: { instagram: 'https://instagram.com/tidewater' },
  followers_counter: 2_300_000,
  is_verified: true,
  is_seller: true,
  created_at: '2026-01-10T10:00:00.000Z',
};

const ITEMS: ItemPage = {
  items: Array.from({ length: PAGE_SIZE.large }, (_, index) => ({
    id: `01JNB5M6501VVQ1WB52B28${String(index).padStart(4, '0')}`,
    product_type: 'ticket' as const,
    title: `Harbour Lights Festival, night ${index + 1}`,
    symbol: 'HLF',
    image: { url: `/media/items/${index}/800.webp`, thumb: `/media/items/${index}/200.webp` },
    copies: 500,
    issuer_id: PROFILE.id,
    issuer_nick: PROFILE.nick,
    collection_id: null,
    status: 'available' as const,
    created_at: '2026-11-01T10:00:00.000Z',
    owned: 3,
    visible: true,
  })),
  nextCursor: 'next',
};

export async function benchPageRender(renderDir: string): Promise<PageRenderFigures> {
  const modulePath = path.join(renderDir, RENDER_FILES.module);
  const script = `const t = performance.now(); await import(${JSON.stringify(modulePath)}); process.stdout.write(String(performance.now() - t));`;
  const imports: number[] = [];
  for (let run = 0; run < IMPORT_RUNS; run += 1) {
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    if (result.status !== 0) throw new Error(`importing ${modulePath} failed: ${result.stderr}`);
    imports.push(Number(result.stdout));
  }
  const renderer = await loadRenderer(renderDir);
  const url = 'https://market.example/tidewater';
  const data = { profile: PROFILE, items: ITEMS };
  const html = await renderer.renderProfile(url, data);
  const renders: number[] = [];
  for (let run = 0; run < RENDER_RUNS; run += 1) {
    const started = performance.now();
    await renderer.renderProfile(url, data);
    renders.push(performance.now() - started);
  }
  return {
    bundleBytes: statSync(modulePath).size,
    importMedianMs: median(imports),
    renderMedianMs: median(renders),
    renderP95Ms: percentile(renders, 95),
    htmlBytes: Buffer.byteLength(html),
  };
}
