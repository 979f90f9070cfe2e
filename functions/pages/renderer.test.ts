import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadRenderer, RENDER_DIR_ENV, RENDER_FILES, renderDir } from './renderer';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function renderFolder(version: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'web-render-'));
  dirs.push(dir);
  writeRender(dir, version);
  writeFileSync(path.join(dir, RENDER_FILES.template), '<html><div id="root"></div></html>');
  writeFileSync(path.join(dir, RENDER_FILES.frame), '<html>frame</html>');
  return dir;
}

function writeRender(dir: string, version: string) {
  writeFileSync(
    path.join(dir, RENDER_FILES.module),
    `export async function renderProfileDocument(template, url, data) {
      return template.replace('<div id="root"></div>', '<div id="root">${version} ' + url + ' ' + data.profile.nick + '</div>');
    }`,
  );
}

describe('the web build read by the page call', () => {
  it('renders with the server bundle into the template, and keeps the frame', async () => {
    const dir = renderFolder('v1');
    const renderer = await loadRenderer(dir);
    expect(renderer.frame).toBe('<html>frame</html>');
    const html = await renderer.renderProfile('https://m.example/marta', {
      profile: { nick: 'marta' } as never,
      items: { items: [], nextCursor: null },
    });
    expect(html).toBe('<html><div id="root">v1 https://m.example/marta marta</div></html>');
  });

  it('picks up a new web build (the twin rebuilds while it runs)', async () => {
    const dir = renderFolder('v1');
    await loadRenderer(dir);
    writeRender(dir, 'v2');
    const later = new Date(Date.now() + 5_000);
    utimesSync(path.join(dir, RENDER_FILES.module), later, later);
    const renderer = await loadRenderer(dir);
    const html = await renderer.renderProfile('https://m.example/ana', {
      profile: { nick: 'ana' } as never,
      items: { items: [], nextCursor: null },
    });
    expect(html).toContain('v2 https://m.example/ana ana');
  });

  it('fails plainly without a web build, and finds the folder from the environment', async () => {
    await expect(loadRenderer(path.join(tmpdir(), 'no-such-render-dir'))).rejects.toThrow(/ENOENT/);
    expect(renderDir({ [RENDER_DIR_ENV]: '/srv/web-render' })).toBe('/srv/web-render');
    expect(renderDir({})).toMatch(/web-render$/);
  });
});
