import { Readable } from 'node:stream';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { createPresignedPost, type PresignedPostOptions } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, describe, expect, it } from 'vitest';
import { twin } from './test/twin-context';

/**
 * The POST-policy guard in front of s3rver, driven by the real `createPresignedPost`: what S3
 * accepts is stored, what S3 refuses is refused with S3's status and error code.
 */

const context = twin();
const images = context.env.IMAGES_BUCKET as string;
const files = context.env.FILES_BUCKET as string;

function client(options: { clockOffsetMs?: number; secret?: string } = {}): S3Client {
  return new S3Client({
    endpoint: context.urls.s3,
    forcePathStyle: true,
    region: context.env.AWS_REGION as string,
    credentials: {
      accessKeyId: context.env.AWS_ACCESS_KEY_ID as string,
      secretAccessKey: options.secret ?? (context.env.AWS_SECRET_ACCESS_KEY as string),
    },
    ...(options.clockOffsetMs === undefined ? {} : { systemClockOffset: options.clockOffsetMs }),
  });
}

const s3 = client();
afterAll(() => s3.destroy());

let counter = 0;
function uniqueKey(prefix: string): string {
  counter += 1;
  return `${prefix}/${Date.now()}-${counter}.bin`;
}

async function presign(
  options: Partial<PresignedPostOptions> & { Key: string },
  signer: S3Client = s3,
): Promise<{ url: string; fields: Record<string, string> }> {
  return createPresignedPost(signer, {
    Bucket: images,
    Expires: 300,
    ...options,
  });
}

async function upload(
  post: { url: string; fields: Record<string, string> },
  file: { bytes: Uint8Array<ArrayBuffer>; type?: string; name?: string },
  extra: Record<string, string> = {},
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string; headers: Headers }> {
  const form = new FormData();
  for (const [name, value] of Object.entries({ ...post.fields, ...extra })) {
    form.append(name, value);
  }
  form.append(
    'file',
    new Blob([file.bytes], { type: file.type ?? 'application/octet-stream' }),
    file.name ?? 'upload.bin',
  );
  const response = await fetch(post.url, { method: 'POST', body: form, headers });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

function errorCode(xml: string): string | undefined {
  return /<Code>([^<]+)<\/Code>/.exec(xml)?.[1];
}

const small = new Uint8Array(1024).fill(7);

describe('presigned POST through the guard', () => {
  it('stores a file within the limits, with its content type', async () => {
    const key = uniqueKey('ok');
    const post = await presign({
      Key: key,
      Fields: { 'Content-Type': 'image/png' },
      Conditions: [['content-length-range', 1, 4096]],
    });
    const answer = await upload(post, { bytes: small, type: 'image/png' });
    expect(answer.status).toBe(204);

    const stored = await s3.send(new GetObjectCommand({ Bucket: images, Key: key }));
    expect(stored.ContentType).toBe('image/png');
    expect((await stored.Body?.transformToByteArray())?.length).toBe(small.length);
  });

  it('refuses a file over the content-length-range with EntityTooLarge', async () => {
    const post = await presign({
      Key: uniqueKey('big'),
      Fields: { 'Content-Type': 'image/png' },
      Conditions: [['content-length-range', 1, 1000]],
    });
    const answer = await upload(post, { bytes: new Uint8Array(1001), type: 'image/png' });
    expect(answer.status).toBe(400);
    expect(errorCode(answer.text)).toBe('EntityTooLarge');
    expect(answer.text).toContain('<MaxSizeAllowed>1000</MaxSizeAllowed>');
    expect(answer.text).toContain('<ProposedSize>1001</ProposedSize>');
  });

  it('refuses a file under the minimum with EntityTooSmall', async () => {
    const post = await presign({
      Key: uniqueKey('tiny'),
      Conditions: [['content-length-range', 10, 1000]],
    });
    const answer = await upload(post, { bytes: new Uint8Array(3) });
    expect(answer.status).toBe(400);
    expect(errorCode(answer.text)).toBe('EntityTooSmall');
  });

  it('refuses a large upload streamed past the limit', async () => {
    const post = await presign({
      Key: uniqueKey('huge'),
      Conditions: [['content-length-range', 0, 1024 * 1024]],
    });
    const answer = await upload(post, { bytes: new Uint8Array(5 * 1024 * 1024) });
    expect(answer.status).toBe(400);
    expect(errorCode(answer.text)).toBe('EntityTooLarge');
  });

  it('refuses a content type other than the signed one', async () => {
    const key = uniqueKey('type');
    const post = await presign({ Key: key, Fields: { 'Content-Type': 'image/png' } });
    const answer = await upload(post, { bytes: small }, { 'Content-Type': 'text/html' });
    expect(answer.status).toBe(403);
    expect(errorCode(answer.text)).toBe('AccessDenied');
    expect(answer.text).toContain('Policy Condition failed');
  });

  it('applies a starts-with Content-Type condition', async () => {
    const post = await presign({
      Key: uniqueKey('prefix'),
      Conditions: [['starts-with', '$Content-Type', 'image/']],
    });
    const good = await upload(post, { bytes: small }, { 'Content-Type': 'image/webp' });
    expect(good.status).toBe(204);
    const bad = await upload(post, { bytes: small }, { 'Content-Type': 'text/plain' });
    expect(bad.status).toBe(403);
    expect(bad.text).toContain(
      '[&quot;starts-with&quot;, &quot;$Content-Type&quot;, &quot;image/&quot;]',
    );
  });

  it('refuses an expired policy', async () => {
    const late = client({ clockOffsetMs: -3_600_000 });
    const post = await presign({ Key: uniqueKey('expired'), Expires: 60 }, late);
    late.destroy();
    const answer = await upload(post, { bytes: small });
    expect(answer.status).toBe(403);
    expect(errorCode(answer.text)).toBe('AccessDenied');
    expect(answer.text).toContain('Policy expired');
  });

  it('refuses a tampered policy', async () => {
    const post = await presign({
      Key: uniqueKey('tampered'),
      Conditions: [['content-length-range', 0, 10]],
    });
    // Widen the size range in the policy without re-signing it.
    const policy = JSON.parse(Buffer.from(post.fields.Policy as string, 'base64').toString());
    policy.conditions = policy.conditions.map((condition: unknown) =>
      Array.isArray(condition) && condition[0] === 'content-length-range'
        ? ['content-length-range', 0, 10_000_000]
        : condition,
    );
    const forged = {
      ...post,
      fields: {
        ...post.fields,
        Policy: Buffer.from(JSON.stringify(policy)).toString('base64'),
      },
    };
    const answer = await upload(forged, { bytes: small });
    expect(answer.status).toBe(403);
    expect(errorCode(answer.text)).toBe('SignatureDoesNotMatch');
  });

  it('refuses a tampered signature', async () => {
    const post = await presign({ Key: uniqueKey('sig') });
    const signature = post.fields['X-Amz-Signature'] as string;
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`;
    const answer = await upload(
      { ...post, fields: { ...post.fields, 'X-Amz-Signature': flipped } },
      { bytes: small },
    );
    expect(answer.status).toBe(403);
    expect(errorCode(answer.text)).toBe('SignatureDoesNotMatch');
  });

  it('refuses another key than the signed one', async () => {
    const post = await presign({ Key: uniqueKey('mine') });
    const answer = await upload(post, { bytes: small }, { key: 'someone-else/avatar.png' });
    expect(answer.status).toBe(403);
    expect(answer.text).toContain('Policy Condition failed');
  });

  it('expands ${filename} before checking a starts-with key condition', async () => {
    const prefix = uniqueKey('named').replace(/\.bin$/, '/');
    const post = await presign({ Key: `${prefix}\${filename}` });
    const answer = await upload(post, { bytes: small, name: 'photo.png' });
    expect(answer.status).toBe(204);
    const stored = await s3.send(
      new GetObjectCommand({ Bucket: images, Key: `${prefix}photo.png` }),
    );
    expect(stored.ContentLength).toBe(small.length);
  });

  it('refuses a form field the policy does not cover', async () => {
    const post = await presign({ Key: uniqueKey('extra') });
    const answer = await upload(post, { bytes: small }, { 'x-amz-meta-owner': 'mallory' });
    expect(answer.status).toBe(403);
    expect(answer.text).toContain('Extra input fields: x-amz-meta-owner');
  });

  it('refuses a policy signed for another bucket', async () => {
    const post = await presign({ Key: uniqueKey('bucket') });
    const answer = await upload(
      { ...post, url: post.url.replace(`/${images}`, `/${files}`) },
      { bytes: small },
    );
    expect(answer.status).toBe(403);
    expect(answer.text).toContain('Policy Condition failed');
  });

  it('refuses an anonymous form POST', async () => {
    const form = new FormData();
    form.append('key', 'anonymous.txt');
    form.append('file', new Blob(['x']), 'x.txt');
    const response = await fetch(`${context.urls.s3}/${images}`, { method: 'POST', body: form });
    expect(response.status).toBe(403);
    expect(errorCode(await response.text())).toBe('AccessDenied');
  });

  it('answers CORS for the web origin and only for it', async () => {
    const origin = context.urls.http;
    const preflight = await fetch(`${context.urls.s3}/${images}`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);

    const foreign = await fetch(`${context.urls.s3}/${images}`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(foreign.status).toBe(403);

    const post = await presign({ Key: uniqueKey('cors') });
    const refused = await upload(post, { bytes: small }, { key: 'elsewhere' }, { origin });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBe(origin);
  });

  it('proxies ordinary SDK calls to s3rver unchanged', async () => {
    const key = uniqueKey('put');
    await s3.send(
      new PutObjectCommand({ Bucket: files, Key: key, Body: 'hello', ContentType: 'text/plain' }),
    );
    const stored = await s3.send(new GetObjectCommand({ Bucket: files, Key: key }));
    expect(await stored.Body?.transformToString()).toBe('hello');
  });
});

describe('signed requests through the guard', () => {
  it('stores a streamed (aws-chunked) upload as its content, not its framing', async () => {
    const key = uniqueKey('stream');
    await s3.send(
      new PutObjectCommand({
        Bucket: files,
        Key: key,
        Body: Readable.from([Buffer.from('hello '), Buffer.from('world')]),
        ContentLength: 11,
        ContentType: 'text/plain',
      }),
    );
    const stored = await s3.send(new GetObjectCommand({ Bucket: files, Key: key }));
    expect(await stored.Body?.transformToString()).toBe('hello world');
    expect(stored.ContentType).toBe('text/plain');
  });

  it('serves a presigned GET, and refuses it edited or expired', async () => {
    const key = uniqueKey('private');
    const other = uniqueKey('private');
    await s3.send(new PutObjectCommand({ Bucket: files, Key: key, Body: 'mine' }));
    await s3.send(new PutObjectCommand({ Bucket: files, Key: other, Body: 'theirs' }));
    const url = await getSignedUrl(s3, new GetObjectCommand({ Bucket: files, Key: key }), {
      expiresIn: 60,
    });
    const ok = await fetch(url);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('mine');

    const edited = await fetch(url.replace(encodeURI(key), encodeURI(other)));
    expect(edited.status).toBe(403);
    expect(errorCode(await edited.text())).toBe('SignatureDoesNotMatch');

    const expired = await getSignedUrl(s3, new GetObjectCommand({ Bucket: files, Key: key }), {
      expiresIn: 60,
      signingDate: new Date(Date.now() - 3_600_000),
    });
    const refused = await fetch(expired);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('Request has expired');
  });

  it('refuses anonymous reads and requests signed with a wrong secret', async () => {
    const key = uniqueKey('guarded');
    await s3.send(new PutObjectCommand({ Bucket: files, Key: key, Body: 'x' }));
    const anonymous = await fetch(`${context.urls.s3}/${files}/${key}`);
    expect(anonymous.status).toBe(403);
    expect(errorCode(await anonymous.text())).toBe('AccessDenied');

    const forger = client({ secret: 'not-the-secret' });
    await expect(
      forger.send(new GetObjectCommand({ Bucket: files, Key: key })),
    ).rejects.toMatchObject({ name: 'SignatureDoesNotMatch' });
    forger.destroy();
  });
});
