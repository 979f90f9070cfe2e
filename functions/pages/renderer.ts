/**
 * Reads the web's server render (the web build's server bundle and page template, written by
 * infra/lib/build-web.ts into the web build's render folder). In AWS the folder ships beside the
 * handler's bundle (infra/lib/bundle.ts copies it for the `html` routes); the twin points
 * WEB_RENDER_DIR at dist/web-render.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { PageRenderer } from './profile-page';

/** The files of the render folder. */
export const RENDER_FILES = {
  module: 'render.mjs',
  template: 'template.html',
  frame: 'frame.html',
} as const;

/** The variable naming the render folder (the twin's; AWS uses the default). */
export const RENDER_DIR_ENV = 'WEB_RENDER_DIR';
/** The folder's name beside a handler's bundle. */
export const BUNDLED_RENDER_DIR = 'web-render';

interface RenderModule {
  renderProfileDocument(
    template: string,
    url: string,
    data: Parameters<PageRenderer['renderProfile']>[1],
  ): Promise<string>;
}

/** The render folder: WEB_RENDER_DIR, else `web-render/` beside this module's bundle. */
export function renderDir(source: NodeJS.ProcessEnv = process.env): string {
  const configured = source[RENDER_DIR_ENV];
  if (configured) return configured;
  return path.join(path.dirname(fileURLToPath(import.meta.url)), BUNDLED_RENDER_DIR);
}

const loaded = new Map<string, Promise<PageRenderer>>();

/**
 * The renderer of the folder `dir`, loaded once per version of its server bundle (a web build
 * made while the twin runs is picked up by the next request).
 */
export async function loadRenderer(dir: string = renderDir()): Promise<PageRenderer> {
  const modulePath = path.join(dir, RENDER_FILES.module);
  const version = (await stat(modulePath)).mtimeMs;
  const key = `${modulePath}?v=${version}`;
  let renderer = loaded.get(key);
  if (!renderer) {
    renderer = (async () => {
      const [module, template, frame] = await Promise.all([
        import(`${pathToFileURL(modulePath).href}?v=${version}`) as Promise<RenderModule>,
        readFile(path.join(dir, RENDER_FILES.template), 'utf8'),
        readFile(path.join(dir, RENDER_FILES.frame), 'utf8'),
      ]);
      return {
        frame,
        renderProfile: (url, data) => module.renderProfileDocument(template, url, data),
      };
    })();
    loaded.set(key, renderer);
    renderer.catch(() => loaded.delete(key));
  }
  return renderer;
}
