import sharp from 'sharp';
import { requirePathOwner } from '../core/http';
import { describe, expect, it } from 'vitest';
import type { AuthContext } from '../core/auth';
import type { DomainError } from '../core/errors';
import { decodeBmp, detectImageType, processImage } from '../images/index';
import { confirmImage, createImageUpload } from './profile-images';
import { getOwnProfile, getProfileByNick, updateProfile, type ProfilesDeps } from './profiles';
import type { ImagesStore } from '../images/index';
import type { ProfileChanges, ProfileRecord, ProfileStore } from './profiles.repo';

const NOW = new Date('2026-11-22T10:00:00.000Z');
const USER = '01JAAAAAAAAAAAAAAAAAAAAAAA';
const COMPANY = '01JBBBBBBBBBBBBBBBBBBBBBBB';

function record(overrides: Partial<ProfileRecord>): ProfileRecord {
  return {
    id: USER,
    nick: 'marta',
    name: 'Marta',
    surname: 'Ruiz',
    entity_name: null,
    user_option: 'individual',
    title: null,
    slogan: null,
    summary: null,
    profile_image: null,
    header_image: null,
    followers_counter: 3,
    is_verified: true,
    is_seller: false,
    created_at: '2026-11-01T10:00:00.000Z',
    ...overrides,
  };
}

function fakes() {
  const profiles = new Map<string, ProfileRecord>([
    [USER, record({})],
    [
      COMPANY,
      record({
        id: COMPANY,
        nick: 'nordlicht',
        name: 'Nordlicht',
        surname: null,
        entity_name: 'Nordlicht',
        user_option: 'company',
      }),
    ],
  ]);
  const objects = new Map<string, Buffer>();
  const deleted: string[] = [];
  const store: ProfileStore = {
    async getProfile(userId) {
      const found = profiles.get(userId);
      return found === undefined ? undefined : { ...found };
    },
    async updateProfile(userId, changes: ProfileChanges) {
      const before = profiles.get(userId);
      if (before === undefined) throw new Error('missing');
      const after = { ...before, ...changes };
      profiles.set(userId, after);
      return { before, after };
    },
  };
  const images: ImagesStore = {
    async presignUpload({ key, contentType, maxBytes }) {
      return {
        url: 'http://s3.local/market-images',
        fields: { key, 'Content-Type': contentType, max: String(maxBytes) },
      };
    },
    async read(key, maxBytes) {
      const bytes = objects.get(key);
      if (bytes === undefined) return 'missing';
      return bytes.length > maxBytes ? 'too_large' : bytes;
    },
    async put(key, body) {
      objects.set(key, body);
    },
    async delete(keys) {
      for (const key of keys) {
        deleted.push(key);
        objects.delete(key);
      }
    },
  };
  let ids = 0;
  const deps: ProfilesDeps = {
    store,
    images,
    directory: {
      userIdByNick: async (nick) =>
        ({ marta: USER, nordlicht: COMPANY, ghost: 'NOPROFILE' })[nick] as string | undefined,
      contactOf: async (userId) =>
        userId === USER ? { email: 'marta@example.com', phone: '+34620000000' } : undefined,
    },
    imagesBaseUrl: '/media',
    newId: () => `01JCCCCCCCCCCCCCCCCCCCCC${String((ids += 1)).padStart(2, '0')}`,
  };
  return { deps, profiles, objects, deleted };
}

async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (error) {
    return error as DomainError;
  }
  throw new Error('expected a refusal');
}

const auth = (userId: string): AuthContext => ({
  userId,
  email: undefined,
  groups: [],
  claims: {},
});

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#c0392b' } })
    .png()
    .toBuffer();

/** A 24-bit bottom-up BMP, red left half, blue right half. */
function bmp(width: number, height: number): Buffer {
  const rowSize = Math.ceil((24 * width) / 32) * 4;
  const buffer = Buffer.alloc(54 + rowSize * height);
  buffer.write('BM', 0, 'latin1');
  buffer.writeUInt32LE(buffer.length, 2);
  buffer.writeUInt32LE(54, 10);
  buffer.writeUInt32LE(40, 14);
  buffer.writeInt32LE(width, 18);
  buffer.writeInt32LE(height, 22);
  buffer.writeUInt16LE(1, 26);
  buffer.writeUInt16LE(24, 28);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const at = 54 + y * rowSize + x * 3;
      if (x < width / 2) buffer[at + 2] = 255;
      else buffer[at] = 255;
    }
  }
  return buffer;
}

describe('profile reads', () => {
  it('answers the public profile by nick, with image URLs under /media and no private fields', async () => {
    const { deps, profiles } = fakes();
    profiles.set(
      USER,
      record({ profile_image: 'avatars/u/a-400.webp', profile_thumb: 'avatars/u/a-96.webp' }),
    );
    const profile = await getProfileByNick(deps, 'marta');
    expect(profile).toMatchObject({
      id: USER,
      nick: 'marta',
      profile_image: '/media/avatars/u/a-400.webp',
      profile_thumb: '/media/avatars/u/a-96.webp',
      header_image: null,
      video_url: null,
      entity_address: null,
      social_media: {},
      followers_counter: 3,
    });
    expect(profile).not.toHaveProperty('email');
  });

  it.each(['nobody', 'ghost'])('answers 404 users.errors.not_found for %s', async (nick) => {
    const { deps } = fakes();
    expect((await refusal(getProfileByNick(deps, nick))).code).toBe('users.errors.not_found');
  });

  it('gives the owner e-mail and phone', async () => {
    const { deps } = fakes();
    expect(await getOwnProfile(deps, USER)).toMatchObject({
      email: 'marta@example.com',
      phone: '+34620000000',
    });
  });

  it('refuses another user id with 403 and a guest with 401', () => {
    expect(requirePathOwner(auth(USER), USER)).toBe(USER);
    expect(() => requirePathOwner(auth(USER), COMPANY)).toThrowError(
      expect.objectContaining({ code: 'forbidden', status: 403 }),
    );
    expect(() => requirePathOwner(null, USER)).toThrowError(
      expect.objectContaining({ code: 'unauthenticated', status: 401 }),
    );
  });
});

describe('updateProfile', () => {
  it('saves the fields of the user type', async () => {
    const { deps } = fakes();
    const profile = await updateProfile(
      deps,
      {
        userId: USER,
        body: {
          title: 'Ceramist',
          video_url: 'https://vimeo.com/76979871',
          social_media: { x: 'https://facebook.com/marta', y: 'https://myspace.com/marta' },
        },
      },
      NOW,
    );
    expect(profile).toMatchObject({
      title: 'Ceramist',
      video_url: 'https://player.vimeo.com/video/76979871',
      social_media: { facebook: 'https://facebook.com/marta' },
    });
  });

  it('refuses fields of the other type and bad video links, naming each field', async () => {
    const { deps, profiles } = fakes();
    const error = await refusal(
      updateProfile(
        deps,
        { userId: USER, body: { slogan: 'Hi', video_url: 'https://example.com/v' } },
        NOW,
      ),
    );
    expect(error.code).toBe('account.edit_profile.errors.validation');
    expect(error.status).toBe(400);
    expect(error.fields).toEqual({
      slogan: 'forms.validation.user_type',
      video_url: 'forms.validation.link',
    });
    expect(profiles.get(USER)?.slogan).toBeNull();
  });
});

describe('image upload', () => {
  it('presigns an avatar upload under the caller uploads/ prefix', async () => {
    const { deps } = fakes();
    const upload = await createImageUpload(
      deps,
      { userId: USER, body: { kind: 'avatar', contentType: 'image/png', size: 1000 } },
      NOW,
    );
    expect(upload.key).toMatch(new RegExp(`^uploads/${USER}/01JC`));
    expect(upload.fields).toMatchObject({ 'Content-Type': 'image/png', max: '8388608' });
  });

  it.each([
    ['avatar', 'image/gif', 10, 'forms.validation.image.type', 'contentType'],
    ['avatar', 'image/png', 8_388_609, 'forms.validation.image.size', 'size'],
    ['cover', 'image/png', 2_097_153, 'forms.validation.image.size', 'size'],
  ] as const)('refuses %s %s %i with %s', async (kind, contentType, size, code, field) => {
    const { deps } = fakes();
    const error = await refusal(
      createImageUpload(deps, { userId: COMPANY, body: { kind, contentType, size } }, NOW),
    );
    expect(error.code).toBe(code);
    expect(error.status).toBe(400);
    expect(error.fields).toEqual({ [field]: code });
  });

  it('gives a cover only to companies (403 otherwise)', async () => {
    const { deps } = fakes();
    const body = { kind: 'cover', contentType: 'image/jpeg', size: 1000 } as const;
    expect((await refusal(createImageUpload(deps, { userId: USER, body }, NOW))).status).toBe(403);
    const upload = await createImageUpload(deps, { userId: COMPANY, body }, NOW);
    expect(upload.fields.max).toBe('2097152');
  });
});

describe('confirmImage', () => {
  const key = `uploads/${USER}/01JDDDDDDDDDDDDDDDDDDDDDDD`;

  it('re-encodes an avatar to WebP 400 and 96, updates the profile and deletes old images', async () => {
    const { deps, objects, profiles, deleted } = fakes();
    profiles.set(
      USER,
      record({
        profile_image: `avatars/${USER}/old-400.webp`,
        profile_thumb: `avatars/${USER}/old-96.webp`,
      }),
    );
    objects.set(key, await png(1200, 800));
    const profile = await confirmImage(deps, { userId: USER, body: { kind: 'avatar', key } }, NOW);
    expect(profile.profile_image).toMatch(new RegExp(`^/media/avatars/${USER}/01JC.*-400\\.webp$`));
    expect(profile.profile_thumb).toMatch(/-96\.webp$/);
    const stored = [...objects.keys()];
    expect(stored).toHaveLength(2);
    for (const [size, storedKey] of [
      [400, stored.find((k) => k.endsWith('-400.webp'))],
      [96, stored.find((k) => k.endsWith('-96.webp'))],
    ] as const) {
      const meta = await sharp(objects.get(storedKey ?? '')).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: size, height: size });
    }
    expect(deleted.sort()).toEqual(
      [key, `avatars/${USER}/old-400.webp`, `avatars/${USER}/old-96.webp`].sort(),
    );
  });

  it('refuses and deletes a file that is not an image, or a corrupt one', async () => {
    for (const bytes of [
      Buffer.from('this is not a png at all'),
      Buffer.concat([(await png(10, 10)).subarray(0, 40), Buffer.alloc(100)]),
      Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'),
    ]) {
      const { deps, objects, deleted } = fakes();
      objects.set(key, bytes);
      const error = await refusal(
        confirmImage(deps, { userId: USER, body: { kind: 'avatar', key } }, NOW),
      );
      expect(error.code).toBe('forms.validation.image.type');
      expect(deleted).toEqual([key]);
      expect(objects.size).toBe(0);
    }
  });

  it('refuses and deletes a cover over 2 MB', async () => {
    const { deps, objects, deleted } = fakes();
    const coverKey = `uploads/${COMPANY}/01JDDDDDDDDDDDDDDDDDDDDDDD`;
    objects.set(coverKey, Buffer.alloc(2_097_153));
    const error = await refusal(
      confirmImage(deps, { userId: COMPANY, body: { kind: 'cover', key: coverKey } }, NOW),
    );
    expect(error.code).toBe('forms.validation.image.size');
    expect(deleted).toEqual([coverKey]);
  });

  it.each([
    `uploads/${COMPANY}/01JDDDDDDDDDDDDDDDDDDDDDDD`,
    `uploads/${USER}/../${COMPANY}/01JDDDDDDDDDDDDDDDDDDDDDDD`,
    `avatars/${USER}/x-400.webp`,
  ])('refuses the key %s (403)', async (otherKey) => {
    const { deps } = fakes();
    const error = await refusal(
      confirmImage(deps, { userId: USER, body: { kind: 'avatar', key: otherKey } }, NOW),
    );
    expect(error.status).toBe(403);
  });

  it('answers account.edit_profile.errors.uploading when nothing was uploaded', async () => {
    const { deps } = fakes();
    const error = await refusal(
      confirmImage(deps, { userId: USER, body: { kind: 'avatar', key } }, NOW),
    );
    expect(error.code).toBe('account.edit_profile.errors.uploading');
  });

  it('makes a company cover at most 1500 px wide', async () => {
    const { deps, objects } = fakes();
    const coverKey = `uploads/${COMPANY}/01JDDDDDDDDDDDDDDDDDDDDDDD`;
    objects.set(
      coverKey,
      await sharp(await png(3000, 720))
        .jpeg()
        .toBuffer(),
    );
    const profile = await confirmImage(
      deps,
      { userId: COMPANY, body: { kind: 'cover', key: coverKey } },
      NOW,
    );
    expect(profile.header_image).toMatch(new RegExp(`^/media/covers/${COMPANY}/.*-1500\\.webp$`));
    const stored = [...objects.values()][0];
    expect(await sharp(stored).metadata()).toMatchObject({
      format: 'webp',
      width: 1500,
      height: 360,
    });
  });
});

describe('image processing', () => {
  it('detects types by magic bytes, not by name', async () => {
    expect(await detectImageType(await png(4, 4))).toBe('image/png');
    expect(
      await detectImageType(
        await sharp(await png(4, 4))
          .jpeg()
          .toBuffer(),
      ),
    ).toBe('image/jpeg');
    expect(await detectImageType(bmp(4, 4))).toBe('image/bmp');
    expect(await detectImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBe(
      undefined,
    );
  });

  it('decodes a 24-bit BMP and re-encodes it', async () => {
    const raw = decodeBmp(bmp(6, 2));
    expect([...raw.data.subarray(0, 4)]).toEqual([255, 0, 0, 255]);
    expect([...raw.data.subarray(20, 24)]).toEqual([0, 0, 255, 255]);
    const [avatar] = await processImage('avatar', bmp(500, 300), 'image/bmp');
    expect(avatar).toMatchObject({ width: 400, height: 400 });
  });

  it('applies the EXIF orientation and strips metadata', async () => {
    // 200×100 stored, orientation 6 (rotate 90°): upright it is 100×200.
    const jpeg = await sharp(await png(200, 100))
      .jpeg()
      .withMetadata({ orientation: 6, exif: { IFD0: { Copyright: 'secret' } } })
      .toBuffer();
    const [cover] = await processImage('cover', jpeg, 'image/jpeg');
    expect(cover).toMatchObject({ width: 100, height: 200 });
    const meta = await sharp(cover?.body).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
  });

  it('processes an 8-megapixel avatar in under 2 s', async () => {
    const big = await png(4000, 2000);
    const started = performance.now();
    await processImage('avatar', big, 'image/png');
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
