import sharp from 'sharp';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayFetch, twin, useTwinEnv } from '../../infra/local/test/twin-context';
import {
  createItemBodySchema,
  type Copy,
  type CreationProgress,
  type History,
  type ItemDetail,
  type ItemPage,
  type UploadTicket,
  type Uploaded,
  type UserLimits,
} from '../../shared/schemas/items';
import { call, hasCognito, newUser, type TestUser } from '../accounts/testing/session';
import { dynamoDocumentClient } from '../core/clients';
import { readEnv } from '../core/env';
import { DomainError } from '../core/errors';
import { createItem } from './create-item';
import { createItemDeps, itemsRepo } from './items.deps';
import { failingOnBatch } from './items.fake';
import { limitsKey } from './items.keys';
import { MINT_LIMITS } from './items';

/**
 * Items through the gateway with REAL tokens: uploads by presigned POST through the guarded S3,
 * confirm (magic bytes, sharp), token/create with copies and provenance, lists, detail, history,
 * visibility, the private file, limits under concurrency, and a failure injected mid-creation
 * (the use case with the real repo wrapped) followed by a converging retry.
 */
const RUN = `i${Date.now().toString(36).slice(-6)}`;
let enabled = false;
let alice: TestUser;
let bob: TestUser;
let s3: S3Client;
let png: Uint8Array<ArrayBuffer>;
let keyCounter = 0;

beforeAll(async () => {
  const context = useTwinEnv();
  enabled = hasCognito();
  s3 = new S3Client({
    endpoint: context.urls.s3,
    forcePathStyle: true,
    region: context.env.AWS_REGION ?? 'us-east-1',
  });
  png = new Uint8Array(
    await sharp({ create: { width: 640, height: 480, channels: 3, background: '#2e86de' } })
      .png()
      .toBuffer(),
  );
  if (!enabled) return;
  [alice, bob] = await Promise.all([newUser(RUN), newUser(RUN)]);
});

afterAll(() => s3?.destroy());

async function post(
  ticket: UploadTicket,
  bytes: Uint8Array<ArrayBuffer>,
  type: string,
  name = 'image.png',
): Promise<{ status: number; text: string }> {
  const form = new FormData();
  for (const [field, value] of Object.entries(ticket.post.fields)) form.append(field, value);
  form.append('file', new Blob([bytes], { type }), name);
  const response = await fetch(ticket.post.url, { method: 'POST', body: form });
  return { status: response.status, text: await response.text() };
}

async function presign(
  user: TestUser,
  body: { kind: 'image' | 'file'; content_type: string; size: number; name?: string },
) {
  return call<UploadTicket>('POST', `/api/users/${user.id}/store-token-images`, {
    token: user.accessToken,
    body,
  });
}

async function confirm(user: TestUser, uploadId: string) {
  return call<Uploaded>('POST', `/api/users/${user.id}/store-token-images/confirm`, {
    token: user.accessToken,
    body: { upload_id: uploadId },
  });
}

async function uploadImage(user: TestUser, bytes = png): Promise<string> {
  const ticket = await presign(user, {
    kind: 'image',
    content_type: 'image/png',
    size: bytes.length,
  });
  expect(ticket.status).toBe(200);
  expect((await post(ticket.json.data, bytes, 'image/png')).status).toBe(204);
  const confirmed = await confirm(user, ticket.json.data.upload_id);
  expect(confirmed.status).toBe(200);
  return ticket.json.data.upload_id;
}

function body(images: string[], extra: Record<string, unknown> = {}) {
  return {
    contract: {
      product_type: 'physical',
      title: 'Blue cup',
      description: 'A hand-made blue cup.',
      copies: 1,
      symbol: 'blue-cup',
      images,
      shipping: { mode: 'delivery', countries: ['ES', 'FR'] },
      legal_terms: 'None',
      transferable: true,
      contact_email: 'maker@example.com',
      issuer: {
        legal_form: 'SL',
        organisation: 'Cups SL',
        country: 'ES',
        email: 'maker@example.com',
        governing_law: 'Spain',
        jurisdiction: 'Madrid',
      },
      ...extra,
    },
  };
}

async function create(user: TestUser, payload: unknown, key = `${RUN}-key-${(keyCounter += 1)}`) {
  const response = await gatewayFetch(`/api/users/${user.id}/token/create`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${user.accessToken}`,
      'idempotency-key': key,
    },
    body: JSON.stringify(payload),
  });
  const json = (await response.json()) as {
    data: CreationProgress;
    error: { code: string; fields?: Record<string, string> };
  };
  return { status: response.status, json };
}

async function myItemIds(user: TestUser, extra: Record<string, unknown> = {}): Promise<string[]> {
  const page = await call<ItemPage>('POST', `/api/users/${user.id}/token/getmyproducts`, {
    token: user.accessToken,
    body: extra,
  });
  expect(page.status).toBe(200);
  return page.json.data.items.map((item) => item.id);
}

async function publicItemIds(nick: string): Promise<string[]> {
  const page = await call<ItemPage>('POST', '/api/users/-/token/getpublicproducts', {
    body: { sourceUserNick: nick },
  });
  expect(page.status).toBe(200);
  return page.json.data.items.map((item) => item.id);
}

async function exists(bucket: string, key: string): Promise<boolean> {
  try {
    await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return true;
  } catch {
    return false;
  }
}

describe('items (real tokens, presigned uploads, the twin)', () => {
  it('creates a 200-copy item from two PNGs: serials 1..200, each with a verified minted record', async (context) => {
    if (!enabled) context.skip();
    const images = [await uploadImage(alice), await uploadImage(alice)];
    const created = await create(alice, body(images, { copies: 200 }));
    expect(created.status).toBe(200);
    expect(created.json.data).toMatchObject({
      status: 'done',
      written: 200,
      total: 200,
      error: null,
    });
    const itemId = created.json.data.item_id;

    const detail = await call<ItemDetail>('POST', `/api/users/-/token/getproductbyid/${itemId}`);
    expect(detail.status).toBe(200);
    expect(detail.json.data).toMatchObject({
      id: itemId,
      copies: 200,
      issuer_nick: alice.nick,
      can_download: false,
      file: null,
    });
    expect(detail.json.data.images).toHaveLength(2);
    const served = await gatewayFetch(detail.json.data.image.url);
    expect(served.status).toBe(200);
    expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).format).toBe('webp');

    const copies: Copy[] = [...detail.json.data.copies_page.items];
    let cursor = detail.json.data.copies_page.nextCursor;
    while (cursor !== null) {
      const page = await call<{ items: Copy[]; nextCursor: string | null }>(
        'GET',
        `/api/users/-/token/${itemId}/copies?cursor=${encodeURIComponent(cursor)}`,
      );
      expect(page.status).toBe(200);
      copies.push(...page.json.data.items);
      cursor = page.json.data.nextCursor;
    }
    expect(copies.map((copy) => copy.index)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(new Set(copies.map((copy) => copy.nftuniqueid)).size).toBe(200);
    expect(copies.every((copy) => copy.owner_id === alice.id)).toBe(true);

    const queue = [...copies];
    const worker = async () => {
      for (let copy = queue.shift(); copy !== undefined; copy = queue.shift()) {
        const history = await call<History>(
          'GET',
          `/api/users/-/token/gethistoric/${copy.nftuniqueid}`,
        );
        expect(history.status).toBe(200);
        expect(history.json.data.verified).toBe(true);
        expect(history.json.data.records).toHaveLength(1);
        expect(history.json.data.records[0]).toMatchObject({
          seq: 1,
          event: 'minted',
          to_id: alice.id,
        });
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));

    expect(await myItemIds(alice)).toContain(itemId);
    expect(await myItemIds(alice, { onlyMint: true })).toContain(itemId);
    expect(await publicItemIds(alice.nick)).toContain(itemId);
    const limits = await call<UserLimits>('GET', `/api/users/${alice.id}/get-user-limits`, {
      token: alice.accessToken,
    });
    expect(limits.json.data.mints.used).toBeGreaterThanOrEqual(1);
    expect(limits.json.data.firestore).toBeGreaterThan(0);
    // The uploads are used: a second creation with them is refused on the field.
    const reused = await create(alice, body(images));
    expect(reused.status).toBe(400);
    expect(reused.json.error.fields?.['images.0']).toBe(
      'market.create_product.errors.image_upload',
    );
    // {id} must be the caller.
    const foreign = await create(bob, body(images));
    expect(foreign.status).toBe(400);
    const wrongId = await call('POST', `/api/users/${alice.id}/token/getmyproducts`, {
      token: bob.accessToken,
      body: {},
    });
    expect(wrongId.status).toBe(403);
  });

  it('a failure mid-creation leaves nothing visible; a retry with the same key converges', async (context) => {
    if (!enabled) context.skip();
    const payload = body([await uploadImage(alice)], { copies: 120, title: 'Fragile cup' });
    const contract = createItemBodySchema({ mintableTypes: ['physical'] }).parse(payload).contract;
    const key = `${RUN}-failing`;
    const deps = createItemDeps(failingOnBatch(itemsRepo(), 2));
    let failure: unknown;
    try {
      await createItem(deps, { userId: alice.id, idempotencyKey: key, contract }, new Date());
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(DomainError);
    expect((failure as DomainError).code).toBe('market.create_product.errors.chunks');
    const stored = await itemsRepo().getIdempotency(alice.id, key);
    const itemId = stored?.item_id ?? '';
    expect((await itemsRepo().getItem(itemId))?.status).toBe('error');

    expect(await myItemIds(alice)).not.toContain(itemId);
    expect(await myItemIds(alice, { onlyMint: true })).not.toContain(itemId);
    expect(await publicItemIds(alice.nick)).not.toContain(itemId);
    const hidden = await call('POST', `/api/users/-/token/getproductbyid/${itemId}`);
    expect(hidden.status).toBe(404);

    const retried = await create(alice, payload, key);
    expect(retried.status).toBe(200);
    expect(retried.json.data).toMatchObject({ item_id: itemId, status: 'done', written: 120 });
    expect(await myItemIds(alice)).toContain(itemId);
    const detail = await call<ItemDetail>('POST', `/api/users/-/token/getproductbyid/${itemId}`);
    expect(detail.status).toBe(200);
    const other = await create(
      alice,
      { ...payload, contract: { ...payload.contract, title: 'x cup' } },
      key,
    );
    expect(other.status).toBe(409);
    expect(other.json.error.code).toBe('idempotency.key_reused');
  });

  it('DELETE token/create/{itemId} abandons a failed creation and releases limits and uploads', async (context) => {
    if (!enabled) context.skip();
    const dave = await newUser(RUN);
    const upload = await uploadImage(dave);
    const payload = body([upload], { copies: 80 });
    const contract = createItemBodySchema({ mintableTypes: ['physical'] }).parse(payload).contract;
    const key = `${RUN}-abandon`;
    await expect(
      createItem(
        createItemDeps(failingOnBatch(itemsRepo(), 2)),
        { userId: dave.id, idempotencyKey: key, contract },
        new Date(),
      ),
    ).rejects.toBeInstanceOf(DomainError);
    const itemId = (await itemsRepo().getIdempotency(dave.id, key))?.item_id ?? '';
    const limitsOf = async () =>
      (
        await call<UserLimits>('GET', `/api/users/${dave.id}/get-user-limits`, {
          token: dave.accessToken,
        })
      ).json.data;
    expect((await limitsOf()).mints.used).toBe(1);
    expect((await itemsRepo().listCopies(itemId, undefined, 100)).items).toHaveLength(50);

    const dropped = await call('DELETE', `/api/users/${dave.id}/token/create/${itemId}`, {
      token: dave.accessToken,
    });
    expect(dropped.status).toBe(200);
    expect(await itemsRepo().getItem(itemId)).toBeUndefined();
    expect((await itemsRepo().listCopies(itemId, undefined, 100)).items).toHaveLength(0);
    expect(await itemsRepo().getHistory(`${itemId}-001`)).toHaveLength(0);
    expect(await limitsOf()).toMatchObject({ mints: { used: 0 }, firestore: 0 });
    const again = await create(dave, payload, key);
    expect(again.status).toBe(200);
    expect(again.json.data.item_id).not.toBe(itemId);
    const late = await call(
      'DELETE',
      `/api/users/${dave.id}/token/create/${again.json.data.item_id}`,
      {
        token: dave.accessToken,
      },
    );
    expect(late.status).toBe(409);
  });

  it('concurrent creations at the mint limit never exceed it', async (context) => {
    if (!enabled) context.skip();
    const carol = await newUser(RUN);
    const env = readEnv();
    await dynamoDocumentClient(env).send(
      new PutCommand({
        TableName: env.tableName,
        Item: {
          ...limitsKey(carol.id),
          type: 'limits',
          mints_used: MINT_LIMITS.maxItemsPerUser - 3,
          bytes_used: 0,
          image_bytes: 0,
          file_bytes: 0,
        },
      }),
    );
    const uploads = await Promise.all(Array.from({ length: 6 }, () => uploadImage(carol)));
    const answers = await Promise.all(
      uploads.map((upload) => create(carol, body([upload], { copies: 2 }))),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 200, 200, 403, 403, 403]);
    for (const answer of answers.filter((one) => one.status === 403)) {
      expect(answer.json.error.code).toBe('market.create_product.errors.limit');
    }
    const limits = await call<UserLimits>('GET', `/api/users/${carol.id}/get-user-limits`, {
      token: carol.accessToken,
    });
    expect(limits.json.data.mints).toEqual({
      used: MINT_LIMITS.maxItemsPerUser,
      limit: MINT_LIMITS.maxItemsPerUser,
    });
    expect(limits.json.data.reached).toBe(true);
    expect(await myItemIds(carol)).toHaveLength(3);
  });

  it('an image over 8 MB is refused by the POST policy, and by the declared size', async (context) => {
    if (!enabled) context.skip();
    const ticket = await presign(bob, {
      kind: 'image',
      content_type: 'image/png',
      size: 8_388_608,
    });
    expect(ticket.status).toBe(200);
    const posted = await post(ticket.json.data, new Uint8Array(8_388_609), 'image/png');
    expect(posted.status).toBe(400);
    expect(posted.text).toContain('<Code>EntityTooLarge</Code>');
    const declared = await presign(bob, {
      kind: 'image',
      content_type: 'image/png',
      size: 8_388_609,
    });
    expect(declared.status).toBe(400);
    expect(declared.json.error.code).toBe('forms.validation.image.size');
    const pdf = await presign(bob, { kind: 'image', content_type: 'application/pdf', size: 100 });
    expect(pdf.json.error.code).toBe('forms.validation.image.type');
  });

  it('a .png that is not an image is refused at confirm and deleted', async (context) => {
    if (!enabled) context.skip();
    const fake = new TextEncoder().encode('<html>not a png</html>'.repeat(20));
    const ticket = await presign(bob, {
      kind: 'image',
      content_type: 'image/png',
      size: fake.length,
    });
    expect((await post(ticket.json.data, fake, 'image/png', 'photo.png')).status).toBe(204);
    const key = `uploads/${bob.id}/${ticket.json.data.upload_id}`;
    expect(await exists(twin().env.IMAGES_BUCKET ?? '', key)).toBe(true);
    const refused = await confirm(bob, ticket.json.data.upload_id);
    expect(refused.status).toBe(400);
    expect(refused.json.error.code).toBe('forms.validation.image.type');
    expect(await exists(twin().env.IMAGES_BUCKET ?? '', key)).toBe(false);
  });

  it('the attached file: the creator downloads it, another user gets 403', async (context) => {
    if (!enabled) context.skip();
    const content = new TextEncoder().encode('%PDF-1.4 secret manual');
    const ticket = await presign(alice, {
      kind: 'file',
      content_type: 'application/pdf',
      size: content.length,
      name: 'manual.pdf',
    });
    expect(ticket.status).toBe(200);
    expect((await post(ticket.json.data, content, 'application/pdf', 'manual.pdf')).status).toBe(
      204,
    );
    const confirmed = await confirm(alice, ticket.json.data.upload_id);
    expect(confirmed.status).toBe(200);
    expect(confirmed.json.data.file).toEqual({
      name: 'manual.pdf',
      size: content.length,
      type: 'application/pdf',
    });
    const created = await create(
      alice,
      body([await uploadImage(alice)], { file: { upload: ticket.json.data.upload_id } }),
    );
    expect(created.status).toBe(200);
    const itemId = created.json.data.item_id;

    const denied = await call('GET', `/api/users/${bob.id}/token/${itemId}/file`, {
      token: bob.accessToken,
    });
    expect(denied.status).toBe(403);
    const link = await call<{ url: string }>('GET', `/api/users/${alice.id}/token/${itemId}/file`, {
      token: alice.accessToken,
    });
    expect(link.status).toBe(200);
    const downloaded = await fetch(link.json.data.url);
    expect(downloaded.status).toBe(200);
    expect(new Uint8Array(await downloaded.arrayBuffer())).toEqual(content);

    const asAlice = await call<ItemDetail>('POST', `/api/users/-/token/getproductbyid/${itemId}`, {
      token: alice.accessToken,
    });
    expect(asAlice.json.data.can_download).toBe(true);
    const asBob = await call<ItemDetail>('POST', `/api/users/-/token/getproductbyid/${itemId}`, {
      token: bob.accessToken,
    });
    expect(asBob.json.data.can_download).toBe(false);
  });

  it('collection_id must be a collection of the caller', async (context) => {
    if (!enabled) context.skip();
    const made = await call<{ id: string }>('POST', `/api/users/${bob.id}/token/createcollection`, {
      token: bob.accessToken,
      body: { collection: { symbol: 'mugs', title: `Mugs ${RUN}`, image: await uploadImage(bob) } },
    });
    expect([200, 201]).toContain(made.status);
    const collectionId = made.json.data.id;
    const foreign = await create(
      alice,
      body([await uploadImage(alice)], { collection_id: collectionId }),
    );
    expect(foreign.status).toBe(400);
    expect(foreign.json.error.fields?.collection_id).toBe('forms.validation.invalid');
    const own = await create(bob, body([await uploadImage(bob)], { collection_id: collectionId }));
    expect(own.status).toBe(200);
    expect(own.json.data.status).toBe('done');
    // The public collection page lists it and counts it, moved in the same transaction.
    const page = await call<{ collection: { items_count: number }; items: { id: string }[] }>(
      'GET',
      `/api/users/-/token/getcollection/${collectionId}`,
    );
    expect(page.status).toBe(200);
    expect(page.json.data.items.map((item) => item.id)).toEqual([own.json.data.item_id]);
    expect(page.json.data.collection.items_count).toBe(1);
  });

  it('pages filtered lists to full pages, the last one without a cursor', async (context) => {
    if (!enabled) context.skip();
    const erin = await newUser(RUN);
    const made: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      const created = await create(erin, body([await uploadImage(erin)]));
      expect(created.status).toBe(200);
      made.push(created.json.data.item_id);
    }
    const page = (body: Record<string, unknown>) =>
      call<ItemPage>('POST', `/api/users/${erin.id}/token/getmyproducts`, {
        token: erin.accessToken,
        body,
      });
    // Physical items, two per page: 2 + 1, newest first.
    const first = await page({ productType: 'physical', limit: 2 });
    expect(first.json.data.items.map((item) => item.id)).toEqual([made[2], made[1]]);
    expect(first.json.data.nextCursor).not.toBeNull();
    const second = await page({
      productType: 'physical',
      limit: 2,
      last: first.json.data.nextCursor,
    });
    expect(second.json.data.items.map((item) => item.id)).toEqual([made[0]]);
    expect(second.json.data.nextCursor).toBeNull();
    // No tickets at all: one empty page, no cursor to follow (not three empty ones).
    const tickets = await page({ tokenType: 'tickets', limit: 1 });
    expect(tickets.json.data).toEqual({ items: [], nextCursor: null });
  });

  it('switch-visibility hides an item from getpublicproducts and shows it again', async (context) => {
    if (!enabled) context.skip();
    const created = await create(bob, body([await uploadImage(bob)]));
    expect(created.status).toBe(200);
    const itemId = created.json.data.item_id;
    expect(await publicItemIds(bob.nick)).toContain(itemId);
    const hide = await call('POST', `/api/users/${bob.id}/token/switch-visibility`, {
      token: bob.accessToken,
      body: { item_id: itemId, visible: false },
    });
    expect(hide.status).toBe(200);
    expect(await publicItemIds(bob.nick)).not.toContain(itemId);
    const mine = await call<ItemPage>('POST', `/api/users/${bob.id}/token/getmyproducts`, {
      token: bob.accessToken,
      body: {},
    });
    expect(mine.json.data.items.find((item) => item.id === itemId)?.visible).toBe(false);
    await call('POST', `/api/users/${bob.id}/token/switch-visibility`, {
      token: bob.accessToken,
      body: { item_id: itemId, visible: true },
    });
    expect(await publicItemIds(bob.nick)).toContain(itemId);
    const notMine = await call('POST', `/api/users/${alice.id}/token/switch-visibility`, {
      token: alice.accessToken,
      body: { item_id: itemId, visible: false },
    });
    expect(notMine.status).toBe(404);
  });
});
