/**
 * `npm run build:web`: the web app's production build, then its public pages rendered at build
 * time into it (web/src/prerender.tsx):
 *  1. the client build (Vite) into `outDir`, with Vite's manifest to find each page's chunks;
 *  2. a server build of web/src/prerender.tsx into a temporary folder (every dependency bundled);
 *  3. modulepreload links in index.html, the shell, for the app's modules (main.tsx imports them
 *     dynamically, so only the HTML can ask for them early);
 *  4. for each page of PRERENDERED_PAGES: index.html as Vite wrote it with the page's markup in
 *     #root and its critical CSS, without the app's preloads (the page paints before the app
 *     loads: see main.tsx);
 *  5. for each frame of PAGE_FRAMES: the same, with #root marked `data-frame` (the app renders
 *     over it rather than hydrating it; main.tsx starts the page's chunks once it has painted).
 * The manifest is not part of the output. The server build is kept beside it, in
 * `renderDirOf(outDir)`, with the page template: the page call renders a public profile on
 * request with them (functions/pages), and serves the frame when it cannot.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import { RENDER_FILES } from '../../functions/pages/index';
import { REPO_ROOT } from './bundle';
import { PAGE_FRAMES, PRERENDERED_PAGES, PROFILE_FRAME, renderDirOf, SPA_SHELL } from './web-pages';

const CONFIG = path.join(REPO_ROOT, 'web', 'vite.config.ts');
export const WEB_OUT = path.join(REPO_ROOT, 'dist', 'web');
/** The module that starts the app, imported by the entry once the page has painted. */
export const BOOT_MODULE = 'src/boot.tsx';

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

interface Renderer {
  renderPage(pathname: string): Promise<{ html: string; styles: string }>;
}

/** The JavaScript files a page module needs at once: its chunk and its static imports, deep. */
export function chunksOf(manifest: Manifest, key: string): string[] {
  const files = new Set<string>();
  const visit = (entry: string) => {
    const chunk = manifest[entry];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(key);
  if (files.size === 0) throw new Error(`${key} is not in the web build's manifest`);
  return [...files];
}

/** `html` with modulepreload links for those of `chunks` it does not load yet. */
export function withPreloads(html: string, chunks: string[]): string {
  const preloads = chunks
    .map((file) => `/${file}`)
    .filter((href) => !html.includes(`"${href}"`))
    .map((href) => `<link rel="modulepreload" crossorigin href="${href}">`)
    .join('');
  return html.replace('</head>', `${preloads}</head>`);
}

/**
 * index.html as Vite wrote it (its preloads are the entry's own imports, a few KiB) with a page's
 * markup in #root and its styles in the head. The page paints first and main.tsx fetches the app
 * afterwards, so it carries no preloads of the app's modules.
 */
export function pageHtml(template: string, rendered: { html: string; styles: string }): string {
  const root = '<div id="root"></div>';
  if (!template.includes(root)) throw new Error('index.html has no empty #root');
  return template
    .replace('</head>', `${rendered.styles}</head>`)
    .replace(root, `<div id="root">${rendered.html}</div>`);
}

/** The attribute that marks a frame's #root: main.tsx renders the app over it (no hydration). */
export const FRAME_ATTRIBUTE = 'data-frame';

/** index.html with a frame's markup in #root, marked {@link FRAME_ATTRIBUTE} (see pageHtml). */
export function frameHtml(template: string, rendered: { html: string; styles: string }): string {
  return pageHtml(template, rendered).replace(
    '<div id="root">',
    `<div id="root" ${FRAME_ATTRIBUTE}>`,
  );
}

/** What the build produced that a measurement needs: Vite's manifest (not left in the output). */
export interface WebBuild {
  manifest: Manifest;
}

export async function buildWeb(outDir: string = WEB_OUT): Promise<WebBuild> {
  // A production build whoever runs it: Vite keeps an inherited NODE_ENV (the test runner's
  // `test` when the e2e setup starts the twin), which would bundle React's development build.
  process.env.NODE_ENV = 'production';
  await build({
    configFile: CONFIG,
    mode: 'production',
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, manifest: true },
  });
  const serverDir = renderDirOf(outDir);
  let manifest: Manifest;
  try {
    await build({
      configFile: CONFIG,
      mode: 'production',
      logLevel: 'warn',
      publicDir: false,
      ssr: { noExternal: true },
      build: {
        ssr: 'src/prerender.tsx',
        outDir: serverDir,
        emptyOutDir: true,
        sourcemap: false,
        rolldownOptions: {
          output: { entryFileNames: RENDER_FILES.module, codeSplitting: false },
        },
      },
    });
    const renderer = (await import(
      `${pathToFileURL(path.join(serverDir, RENDER_FILES.module)).href}?build=${Date.now()}`
    )) as Renderer;
    manifest = JSON.parse(
      readFileSync(path.join(outDir, '.vite', 'manifest.json'), 'utf8'),
    ) as Manifest;
    // The shell preloads the app's modules, which main.tsx imports after the first frame.
    const shellFile = path.join(outDir, SPA_SHELL);
    // Vite's index.html preloads only what the entry imports itself (a few KiB).
    const template = readFileSync(shellFile, 'utf8');
    writeFileSync(path.join(serverDir, RENDER_FILES.template), template);
    writeFileSync(shellFile, withPreloads(template, chunksOf(manifest, BOOT_MODULE)));
    for (const [pathname, page] of Object.entries(PRERENDERED_PAGES)) {
      const rendered = await renderer.renderPage(pathname);
      // A page that redirects (a <Navigate>, a no-op in a StaticRouter) or shows nothing would be
      // served as an empty page: every prerendered page has its heading.
      if (!/<h1[\s>]/.test(rendered.html)) {
        throw new Error(`${pathname} rendered no <h1>: it cannot be prerendered`);
      }
      const target = path.join(outDir, page.file);
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, pageHtml(template, rendered));
    }
    for (const frame of PAGE_FRAMES) {
      const rendered = await renderer.renderPage(frame.sample);
      const target = path.join(outDir, frame.file);
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, frameHtml(template, rendered));
      if (frame === PROFILE_FRAME) {
        writeFileSync(path.join(serverDir, RENDER_FILES.frame), frameHtml(template, rendered));
      }
    }
  } catch (error) {
    rmSync(serverDir, { recursive: true, force: true });
    throw error;
  } finally {
    rmSync(path.join(outDir, '.vite'), { recursive: true, force: true });
  }
  return { manifest };
}

if (process.argv[1] === import.meta.filename) {
  const outDir = process.argv[2] ? path.resolve(process.argv[2]) : WEB_OUT;
  await buildWeb(outDir);
  console.log(
    `web build with ${Object.keys(PRERENDERED_PAGES).length} prerendered pages and ${PAGE_FRAMES.length} page frame in ${path.relative(REPO_ROOT, outDir)}`,
  );
}
