import sharp from 'sharp';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayFetch, twin, useTwinEnv } from '../../infra/local/test/twin-context';
import type { PresignedUpload, PrivateProfile, PublicProfile } from '../../shared/schemas/profiles';
import {
  call,
  hasCognito,
  logIn,
  newUser,
  signUp,
  type TestUser,
} from '../accounts/testing/session';

/**
 * Profiles through the gateway with REAL tokens from the twin's local Cognito endpoint: public
 * profile by nick, edit, private view, and the image flow (presigned POST through the guard that
 * enforces the policy, then the confirm call that checks magic bytes and re-encodes with sharp).
 */
const RUN = `p${Date.now().toString(36).slice(-6)}`;
let enabled = false;
let alice: TestUser;
let bob: TestUser;
let company: TestUser;
let s3: S3Client;

async function signUpCompany(): Promise<TestUser> {
  const user = await signUp(`${RUN}co`, {
    user_option: 'company',
    entity_name: 'Nordlicht GmbH',
    name: undefined,
    surname: undefined,
  });
  return { ...user, ...(await logIn(user)) };
}

beforeAll(async () => {
  const context = useTwinEnv();
  enabled = hasCognito();
  s3 = new S3Client({
    endpoint: context.urls.s3,
    forcePathStyle: true,
    region: context.env.AWS_REGION ?? 'us-east-1',
  });
  if (!enabled) return;
  [alice, bob, company] = await Promise.all([newUser(RUN), newUser(RUN), signUpCompany()]);
});

afterAll(() => s3?.destroy());

async function upload(
  post: PresignedUpload,
  bytes: Uint8Array<ArrayBuffer>,
  type: string,
  name = 'avatar.png',
): Promise<{ status: number; text: string }> {
  const form = new FormData();
  for (const [field, value] of Object.entries(post.fields)) form.append(field, value);
  form.append('file', new Blob([bytes], { type }), name);
  const response = await fetch(post.url, { method: 'POST', body: form });
  return { status: response.status, text: await response.text() };
}

async function exists(key: string): Promise<boolean> {
  try {
    await s3.send(new GetObjectCommand({ Bucket: twin().env.IMAGES_BUCKET, Key: key }));
    return true;
  } catch {
    return false;
  }
}

function keyOf(url: string | null): string {
  return decodeURIComponent((url ?? '').replace(/^\/media\//, ''));
}

describe('profiles (real tokens from the local Cognito endpoint)', () => {
  it('GET users/get-by-nickname: 200 public fields, 404 for an unknown nick', async (context) => {
    if (!enabled) context.skip();
    const found = await call<PublicProfile>('GET', `/api/users/get-by-nickname/${alice.nick}`);
    expect(found.status).toBe(200);
    expect(found.json.data).toMatchObject({
      id: alice.id,
      nick: alice.nick,
      user_option: 'individual',
      name: 'Login',
      surname: 'Tester',
      profile_image: null,
      video_url: null,
      social_media: {},
    });
    expect(found.json.data).not.toHaveProperty('email');
    expect(found.json.data).not.toHaveProperty('phone');
    const missing = await call('GET', `/api/users/get-by-nickname/${RUN}nobody`);
    expect(missing.status).toBe(404);
    expect(missing.json.error.code).toBe('users.errors.not_found');
  });

  it('PUT users/{id}: the owner edits; another user 403; a guest 401', async (context) => {
    if (!enabled) context.skip();
    const body = {
      title: 'Ceramist',
      summary: 'Hand-made cups.',
      video_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      social_media: { a: 'https://www.linkedin.com/in/alice', b: 'https://evil.example/alice' },
    };
    const saved = await call<PublicProfile>('PUT', `/api/users/${alice.id}`, {
      token: alice.accessToken,
      body,
    });
    expect(saved.status).toBe(200);
    expect(saved.json.data).toMatchObject({
      title: 'Ceramist',
      summary: 'Hand-made cups.',
      video_url: 'https://www.youtube.com/embed/dQw4w9WgXcQ',
      social_media: { linkedin: 'https://www.linkedin.com/in/alice' },
    });
    const read = await call<PublicProfile>('GET', `/api/users/get-by-nickname/${alice.nick}`);
    expect(read.json.data.title).toBe('Ceramist');

    const other = await call('PUT', `/api/users/${alice.id}`, {
      token: bob.accessToken,
      body: { title: 'Hacked' },
    });
    expect(other.status).toBe(403);
    expect(other.json.error.code).toBe('forbidden');
    const guest = await call('PUT', `/api/users/${alice.id}`, { body: { title: 'Hacked' } });
    expect(guest.status).toBe(401);

    const wrongType = await call('PUT', `/api/users/${alice.id}`, {
      token: alice.accessToken,
      body: { slogan: 'Not mine' },
    });
    expect(wrongType.status).toBe(400);
    expect(wrongType.json.error.code).toBe('account.edit_profile.errors.validation');
    expect(wrongType.json.error.fields).toEqual({ slogan: 'forms.validation.user_type' });
    const badVideo = await call('PUT', `/api/users/${alice.id}`, {
      token: alice.accessToken,
      body: { video_url: 'https://example.com/v' },
    });
    expect(badVideo.status).toBe(400);
    expect(badVideo.json.error.fields).toEqual({ video_url: 'forms.validation.link' });
    const cleared = await call<PublicProfile>('PUT', `/api/users/${alice.id}`, {
      token: alice.accessToken,
      body: { video_url: '' },
    });
    expect(cleared.json.data.video_url).toBeNull();
    const tooLong = await call('PUT', `/api/users/${alice.id}`, {
      token: alice.accessToken,
      body: { title: 'x'.repeat(26) },
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.json.error.fields).toEqual({ title: 'forms.validation.too_big' });
  });

  it('GET users/{id}/user-profile: the owner sees e-mail and phone; others 403', async (context) => {
    if (!enabled) context.skip();
    const own = await call<PrivateProfile>('GET', `/api/users/${bob.id}/user-profile`, {
      token: bob.accessToken,
    });
    expect(own.status).toBe(200);
    expect(own.json.data).toMatchObject({ id: bob.id, email: bob.email, phone: bob.phone });
    const other = await call('GET', `/api/users/${bob.id}/user-profile`, {
      token: alice.accessToken,
    });
    expect(other.status).toBe(403);
  });

  it('avatar: presigned POST of a real PNG, confirmed → WebP 400 and 96 under /media', async (context) => {
    if (!enabled) context.skip();
    const png = await sharp({
      create: { width: 900, height: 600, channels: 3, background: '#2e86de' },
    })
      .png()
      .toBuffer();
    const presign = await call<PresignedUpload>('POST', `/api/users/${alice.id}/images/upload`, {
      token: alice.accessToken,
      body: { kind: 'avatar', contentType: 'image/png', size: png.length },
    });
    expect(presign.status).toBe(200);
    expect(presign.json.data.key).toMatch(new RegExp(`^uploads/${alice.id}/`));
    const posted = await upload(presign.json.data, new Uint8Array(png), 'image/png');
    expect(posted.status).toBe(204);

    const started = performance.now();
    const confirmed = await call<PublicProfile>('POST', `/api/users/${alice.id}/images`, {
      token: alice.accessToken,
      body: { kind: 'avatar', key: presign.json.data.key },
    });
    const elapsed = performance.now() - started;
    expect(confirmed.status).toBe(200);
    console.info(
      `[profiles] avatar confirm (read, check, sharp, 2 puts, update): ${elapsed.toFixed(0)} ms`,
    );
    const profile = confirmed.json.data;
    expect(profile.profile_image).toMatch(/^\/media\/avatars\/.*-400\.webp$/);
    expect(profile.profile_thumb).toMatch(/^\/media\/avatars\/.*-96\.webp$/);
    for (const [url, size] of [
      [profile.profile_image, 400],
      [profile.profile_thumb, 96],
    ] as const) {
      const served = await gatewayFetch(url ?? '');
      expect(served.status).toBe(200);
      const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: size, height: size });
    }
    expect(await exists(presign.json.data.key)).toBe(false);

    // A second avatar replaces the first, whose files are deleted.
    const again = await call<PresignedUpload>('POST', `/api/users/${alice.id}/images/upload`, {
      token: alice.accessToken,
      body: { kind: 'avatar', contentType: 'image/png', size: png.length },
    });
    expect((await upload(again.json.data, new Uint8Array(png), 'image/png')).status).toBe(204);
    const second = await call<PublicProfile>('POST', `/api/users/${alice.id}/images`, {
      token: alice.accessToken,
      body: { kind: 'avatar', key: again.json.data.key },
    });
    expect(second.status).toBe(200);
    expect(second.json.data.profile_image).not.toBe(profile.profile_image);
    expect(await exists(keyOf(profile.profile_image))).toBe(false);
    expect(await exists(keyOf(profile.profile_thumb))).toBe(false);
  });

  it('a file named .png that is not an image is refused and deleted', async (context) => {
    if (!enabled) context.skip();
    const fake = new TextEncoder().encode('<html>definitely not a png</html>'.repeat(20));
    const presign = await call<PresignedUpload>('POST', `/api/users/${bob.id}/images/upload`, {
      token: bob.accessToken,
      body: { kind: 'avatar', contentType: 'image/png', size: fake.length },
    });
    expect((await upload(presign.json.data, fake, 'image/png', 'photo.png')).status).toBe(204);
    expect(await exists(presign.json.data.key)).toBe(true);
    const refused = await call('POST', `/api/users/${bob.id}/images`, {
      token: bob.accessToken,
      body: { kind: 'avatar', key: presign.json.data.key },
    });
    expect(refused.status).toBe(400);
    expect(refused.json.error.code).toBe('forms.validation.image.type');
    expect(await exists(presign.json.data.key)).toBe(false);
  });

  it('an upload over 8 MB is refused by the POST policy (EntityTooLarge)', async (context) => {
    if (!enabled) context.skip();
    const presign = await call<PresignedUpload>('POST', `/api/users/${bob.id}/images/upload`, {
      token: bob.accessToken,
      body: { kind: 'avatar', contentType: 'image/png', size: 8_388_608 },
    });
    expect(presign.status).toBe(200);
    const big = new Uint8Array(8_388_609);
    const posted = await upload(presign.json.data, big, 'image/png');
    expect(posted.status).toBe(400);
    expect(posted.text).toContain('<Code>EntityTooLarge</Code>');
    expect(await exists(presign.json.data.key)).toBe(false);

    const declared = await call('POST', `/api/users/${bob.id}/images/upload`, {
      token: bob.accessToken,
      body: { kind: 'avatar', contentType: 'image/png', size: 8_388_609 },
    });
    expect(declared.status).toBe(400);
    expect(declared.json.error.code).toBe('forms.validation.image.size');
    const gif = await call('POST', `/api/users/${bob.id}/images/upload`, {
      token: bob.accessToken,
      body: { kind: 'avatar', contentType: 'image/gif', size: 100 },
    });
    expect(gif.json.error.code).toBe('forms.validation.image.type');
  });

  it('the policy pins the Content-Type: another type is refused by the guard', async (context) => {
    if (!enabled) context.skip();
    const presign = await call<PresignedUpload>('POST', `/api/users/${bob.id}/images/upload`, {
      token: bob.accessToken,
      body: { kind: 'avatar', contentType: 'image/png', size: 100 },
    });
    const fields = { ...presign.json.data.fields, 'Content-Type': 'text/html' };
    const posted = await upload({ ...presign.json.data, fields }, new Uint8Array(100), 'text/html');
    expect(posted.status).toBe(403);
  });

  it('cover: companies only, 1500 px wide WebP; individuals 403', async (context) => {
    if (!enabled) context.skip();
    const individual = await call('POST', `/api/users/${alice.id}/images/upload`, {
      token: alice.accessToken,
      body: { kind: 'cover', contentType: 'image/jpeg', size: 1000 },
    });
    expect(individual.status).toBe(403);
    const jpeg = await sharp({
      create: { width: 2400, height: 576, channels: 3, background: '#10ac84' },
    })
      .jpeg()
      .toBuffer();
    const presign = await call<PresignedUpload>('POST', `/api/users/${company.id}/images/upload`, {
      token: company.accessToken,
      body: { kind: 'cover', contentType: 'image/jpeg', size: jpeg.length },
    });
    expect(presign.status).toBe(200);
    expect((await upload(presign.json.data, new Uint8Array(jpeg), 'image/jpeg')).status).toBe(204);
    const confirmed = await call<PublicProfile>('POST', `/api/users/${company.id}/images`, {
      token: company.accessToken,
      body: { kind: 'cover', key: presign.json.data.key },
    });
    expect(confirmed.status).toBe(200);
    const served = await gatewayFetch(confirmed.json.data.header_image ?? '');
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 1500, height: 360 });

    const edited = await call<PublicProfile>('PUT', `/api/users/${company.id}`, {
      token: company.accessToken,
      body: { slogan: 'Light for all', entity_address: 'Hauptstr. 1, Berlin', title: 'x' },
    });
    expect(edited.status).toBe(400);
    expect(edited.json.error.fields).toEqual({ title: 'forms.validation.user_type' });
    const ok = await call<PublicProfile>('PUT', `/api/users/${company.id}`, {
      token: company.accessToken,
      body: { slogan: 'Light for all', entity_address: 'Hauptstr. 1, Berlin' },
    });
    expect(ok.json.data).toMatchObject({
      slogan: 'Light for all',
      entity_address: 'Hauptstr. 1, Berlin',
      entity_name: 'Nordlicht GmbH',
    });
  });

  it("refuses to confirm another user's upload key (403)", async (context) => {
    if (!enabled) context.skip();
    const refused = await call('POST', `/api/users/${bob.id}/images`, {
      token: bob.accessToken,
      body: { kind: 'avatar', key: `uploads/${alice.id}/01JDDDDDDDDDDDDDDDDDDDDDDD` },
    });
    expect(refused.status).toBe(403);
  });
});
