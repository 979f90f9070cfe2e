import { describe, expect, it } from 'vitest';
import { displayName, imageUrl, listSellers, toSellerSummary } from './list-sellers';
import type { ProfileRecord, ProfilesRepo } from './profiles.repo';
import { sellerIndexKeys } from './profiles.keys';

function profile(overrides: Partial<ProfileRecord>): ProfileRecord {
  return {
    id: '01J0000000000000000000000A',
    nick: 'marta',
    name: 'Marta',
    surname: 'Ruiz',
    entity_name: null,
    user_option: 'individual',
    title: 'Ceramist',
    slogan: null,
    summary: null,
    profile_image: 'avatars/01J/a b.webp',
    header_image: null,
    followers_counter: 1250,
    is_verified: true,
    is_seller: true,
    created_at: '2026-11-01T10:00:00.000Z',
    ...overrides,
  };
}

describe('seller directory mapping', () => {
  it.each([
    [{}, 'Marta Ruiz'],
    [{ surname: null }, 'Marta'],
    [
      { user_option: 'company' as const, entity_name: 'Nordlicht GmbH', slogan: 'Light' },
      'Nordlicht GmbH',
    ],
    [{ user_option: 'company' as const, entity_name: null }, 'Marta Ruiz'],
  ])('display name of %j is %s', (overrides, expected) => {
    expect(displayName(profile(overrides))).toBe(expected);
  });

  it('builds image URLs under the images base, encoding each segment', () => {
    expect(imageUrl('/media', 'avatars/01J/a b.webp')).toBe('/media/avatars/01J/a%20b.webp');
    expect(imageUrl('https://cdn.example.com/media/', 'x.png')).toBe(
      'https://cdn.example.com/media/x.png',
    );
    expect(imageUrl('/media', null)).toBeNull();
  });

  it('shows the slogan as a company title and exposes no private fields', () => {
    const summary = toSellerSummary(
      profile({ user_option: 'company', entity_name: 'Nordlicht GmbH', slogan: 'Light for all' }),
      '/media',
    );
    expect(summary).toEqual({
      id: '01J0000000000000000000000A',
      nick: 'marta',
      name: 'Nordlicht GmbH',
      user_option: 'company',
      title: 'Light for all',
      profile_image: '/media/avatars/01J/a%20b.webp',
      followers_counter: 1250,
      is_verified: true,
    });
  });

  it('passes page size and cursor to the repo and returns its next cursor', async () => {
    const calls: unknown[] = [];
    const repo: ProfilesRepo = {
      putProfile: async () => undefined,
      listSellers: async (page) => {
        calls.push(page);
        return { items: [profile({})], nextCursor: 'next' };
      },
    };
    const page = await listSellers({ repo, imagesBaseUrl: '/media' }, { limit: 10, cursor: 'abc' });
    expect(calls).toEqual([{ limit: 10, cursor: 'abc' }]);
    expect(page.nextCursor).toBe('next');
    expect(page.items).toHaveLength(1);
  });
});

describe('seller index keys', () => {
  it('sort descending by follower count, then by id', () => {
    const keys = [
      sellerIndexKeys('b', 5).gsi1sk,
      sellerIndexKeys('a', 1_000_000).gsi1sk,
      sellerIndexKeys('c', 5).gsi1sk,
      sellerIndexKeys('d', 0).gsi1sk,
    ].sort((x, y) => (x < y ? 1 : -1));
    expect(keys).toEqual(['000001000000#a', '000000000005#c', '000000000005#b', '000000000000#d']);
  });

  it.each([-1, 1.5, Number.NaN])('refuses the counter %s', (counter) => {
    expect(() => sellerIndexKeys('a', counter)).toThrow(RangeError);
  });
});
