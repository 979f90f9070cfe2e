import { describe, expect, it, vi } from 'vitest';
import type { ItemPage } from '../../shared/schemas/items';
import type { PublicProfile } from '../../shared/schemas/profiles';
import { DomainError } from '../core/errors';
import {
  FALLBACK_CACHE,
  NOT_FOUND_CACHE,
  profilePage,
  RENDERED_CACHE,
  type PageRenderer,
  type PagesDeps,
} from './profile-page';

const PROFILE = { id: '01JAAAAAAAAAAAAAAAAAAAAAAA', nick: 'marta' } as PublicProfile;
const ITEMS: ItemPage = { items: [], nextCursor: null };
const FRAME = '<html><div id="root" data-frame>frame</div></html>';

function deps(overrides: Partial<PagesDeps> = {}, render?: PageRenderer['renderProfile']) {
  const renderProfile = vi.fn(
    render ??
      (async (url: string) => `<html><h1>${url}</h1><script id="page-data"></script></html>`),
  );
  const reportFailure = vi.fn();
  const all: PagesDeps = {
    profile: async (nick) => {
      if (nick !== 'marta') {
        throw new DomainError('users.errors.not_found', {
          message: 'This user could not be found.',
        });
      }
      return PROFILE;
    },
    publicItems: async () => ITEMS,
    renderer: async () => ({ frame: FRAME, renderProfile }),
    webOrigin: 'https://market.example',
    reportFailure,
    ...overrides,
  };
  return { all, renderProfile, reportFailure };
}

describe('the profile page rendered on request', () => {
  it("renders the profile at its public URL with the profile's and its items' data, cached a minute by the CDN", async () => {
    const { all, renderProfile } = deps();
    const reply = await profilePage(all, 'marta');
    expect(reply.status).toBe(200);
    expect(reply.html).toContain('<h1>https://market.example/marta</h1>');
    expect(reply.headers['cache-control']).toBe(RENDERED_CACHE);
    expect(RENDERED_CACHE).toContain('s-maxage=60');
    expect(RENDERED_CACHE).toContain('max-age=0');
    expect(renderProfile).toHaveBeenCalledWith('https://market.example/marta', {
      profile: PROFILE,
      items: ITEMS,
    });
  });

  it('answers an unknown nick 404 with the frame (the app shows its not-found page), nothing reported', async () => {
    const { all, renderProfile, reportFailure } = deps();
    const reply = await profilePage(all, 'nobody');
    expect(reply.status).toBe(404);
    expect(reply.html).toBe(FRAME);
    expect(reply.headers['cache-control']).toBe(NOT_FOUND_CACHE);
    expect(renderProfile).not.toHaveBeenCalled();
    expect(reportFailure).not.toHaveBeenCalled();
  });

  it('serves the frame, uncached, when the data cannot be read, and reports it', async () => {
    const { all, reportFailure } = deps({
      publicItems: () => Promise.reject(new Error('DynamoDB throttled')),
    });
    const reply = await profilePage(all, 'marta');
    expect(reply.status).toBe(200);
    expect(reply.html).toBe(FRAME);
    expect(reply.headers['cache-control']).toBe(FALLBACK_CACHE);
    expect(reportFailure).toHaveBeenCalledTimes(1);
  });

  it('answers 503 unavailable without the web build, and reports it', async () => {
    const { all, reportFailure } = deps({
      renderer: () => Promise.reject(new Error('ENOENT: web-render/render.mjs')),
    });
    await expect(profilePage(all, 'marta')).rejects.toMatchObject({
      code: 'unavailable',
      status: 503,
    });
    expect(reportFailure).toHaveBeenCalledTimes(1);
  });

  it('serves the frame, uncached, when the render fails, and reports it', async () => {
    const { all, reportFailure } = deps({}, () => Promise.reject(new Error('render failed')));
    const reply = await profilePage(all, 'marta');
    expect(reply.status).toBe(200);
    expect(reply.html).toBe(FRAME);
    expect(reply.headers['cache-control']).toBe('no-store');
    expect(reportFailure.mock.calls[0]?.[1]).toEqual(new Error('render failed'));
  });
});
