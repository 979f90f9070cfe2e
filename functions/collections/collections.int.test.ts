import sharp from 'sharp';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTwinEnv } from '../../infra/local/test/twin-context';
import type {
  Collection,
  CollectionPage,
  UploadTicket,
  Uploaded,
} from '../../shared/schemas/items';
import { call, hasCognito, newUser, type TestUser } from '../accounts/testing/session';
import { dynamoDocumentClient } from '../core/clients';
import { readEnv } from '../core/env';
import { newId } from '../core/ids';
import { uploadKey } from '../items/index';

/**
 * Collections through the local gateway with REAL tokens: create → list mine → get (public) with
 * zero items; the name unique per owner in any case, also under 10 concurrent creations; the path
 * rule; guests; unknown ids; the image upload claimed.
 *
 * Most tests write a confirmed image upload straight into the table (`confirmedUpload`, with the
 * attributes items' store-token-images/confirm writes: user_id, kind, status, image {full, thumb},
 * ttl); one goes through the real store-token-images + presigned POST + confirm.
 */
const RUN = `c${Date.now().toString(36).slice(-6)}`;
let enabled = false;
let a: TestUser;
let b: TestUser;

beforeAll(async () => {
  useTwinEnv();
  enabled = hasCognito();
  if (!enabled) return;
  [a, b] = await Promise.all([newUser(RUN), newUser(RUN)]);
});

/** A confirmed image upload of `userId`, as items' confirm leaves it (test helper). */
async function confirmedUpload(userId: string, kind: 'image' | 'file' = 'image'): Promise<string> {
  const env = readEnv();
  const uploadId = newId(new Date());
  await dynamoDocumentClient(env).send(
    new PutCommand({
      TableName: env.tableName,
      Item: {
        ...uploadKey(userId, uploadId),
        type: 'upload',
        upload_id: uploadId,
        user_id: userId,
        kind,
        status: 'confirmed',
        content_type: 'image/png',
        name: null,
        source_key: `uploads/${userId}/${uploadId}`,
        bytes: 1234,
        image:
          kind === 'image'
            ? {
                full: `items/${userId}/${uploadId}-1600.webp`,
                thumb: `items/${userId}/${uploadId}-400.webp`,
              }
            : null,
        file: null,
        item_id: null,
        created_at: new Date().toISOString(),
        ttl: Math.floor(Date.now() / 1000) + 3600,
      },
    }),
  );
  return uploadId;
}

async function uploadStatus(userId: string, uploadId: string) {
  const env = readEnv();
  const result = await dynamoDocumentClient(env).send(
    new GetCommand({ TableName: env.tableName, Key: uploadKey(userId, uploadId) }),
  );
  return result.Item as { status: string; collection_id?: string; ttl?: number } | undefined;
}

const create = (user: TestUser, collection: unknown, owner = user.id) =>
  call<Collection>('POST', `/api/users/${owner}/token/createcollection`, {
    token: user.accessToken,
    body: { collection },
  });
const mine = (user: TestUser, owner = user.id) =>
  call<{ items: Collection[] }>('GET', `/api/users/${owner}/token/findcollections`, {
    token: user.accessToken,
  });
const show = (collectionId: string, owner = '-', query = '') =>
  call<CollectionPage>('GET', `/api/users/${owner}/token/getcollection/${collectionId}${query}`);

describe('users/{id}/token/*collection* (real tokens from the local Cognito endpoint)', () => {
  it('creates, lists mine and shows it publicly with zero items', async (context) => {
    if (!enabled) context.skip();
    const image = await confirmedUpload(a.id);
    const created = await create(a, { symbol: 'summer', title: ' Summer Drop ', image });
    expect(created.status).toBe(201);
    expect(created.json.data).toMatchObject({
      symbol: 'summer',
      title: 'Summer Drop',
      name: 'summer drop',
      owner_id: a.id,
      owner_nick: a.nick,
      items_count: 0,
      image: {
        url: `/media/items/${a.id}/${image}-1600.webp`,
        thumb: `/media/items/${a.id}/${image}-400.webp`,
      },
    });
    const upload = await uploadStatus(a.id, image);
    expect(upload).toMatchObject({ status: 'used', collection_id: created.json.data.id });
    expect(upload?.ttl).toBeUndefined();

    const listed = await mine(a);
    expect(listed.status).toBe(200);
    expect(listed.json.data.items).toEqual([created.json.data]);

    for (const answer of [
      await show(created.json.data.id),
      await show(created.json.data.id, b.id),
    ]) {
      expect(answer.status).toBe(200);
      expect(answer.json.data).toEqual({
        collection: created.json.data,
        items: [],
        nextCursor: null,
      });
    }
  });

  it('refuses the same title in another case with 409 and keeps the upload', async (context) => {
    if (!enabled) context.skip();
    await create(a, { symbol: 'dup', title: 'Autumn', image: await confirmedUpload(a.id) });
    const second = await confirmedUpload(a.id);
    const again = await create(a, { symbol: 'dup', title: ' AUTUMN', image: second });
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('market.list.errors.collection_exists');
    expect((await uploadStatus(a.id, second))?.status).toBe('confirmed');
    // Another owner may use the same title.
    const other = await create(b, {
      symbol: 'dup',
      title: 'Autumn',
      image: await confirmedUpload(b.id),
    });
    expect(other.status).toBe(201);
  });

  it('lets exactly one of 10 concurrent creations of one title through', async (context) => {
    if (!enabled) context.skip();
    const user = await newUser(RUN);
    const uploads = await Promise.all(Array.from({ length: 10 }, () => confirmedUpload(user.id)));
    const answers = await Promise.all(
      uploads.map((image, index) =>
        create(user, { symbol: 'race', title: index % 2 === 0 ? 'Race' : 'RACE', image }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    expect(
      answers
        .filter((answer) => answer.status !== 201)
        .map((answer) => [answer.status, answer.json.error.code]),
    ).toEqual(Array.from({ length: 9 }, () => [409, 'market.list.errors.collection_exists']));
    expect((await mine(user)).json.data.items).toHaveLength(1);
  });

  it('refuses a missing, used, foreign or non-image upload on collection.image', async (context) => {
    if (!enabled) context.skip();
    const used = await confirmedUpload(a.id);
    expect((await create(a, { symbol: 'x', title: 'Used once', image: used })).status).toBe(201);
    for (const image of [
      newId(new Date()),
      used,
      await confirmedUpload(b.id),
      await confirmedUpload(a.id, 'file'),
    ]) {
      const answer = await create(a, { symbol: 'x', title: `T ${image.slice(-6)}`, image });
      expect(answer.status).toBe(400);
      expect(answer.json.error.fields).toEqual({
        'collection.image': 'market.create_product.errors.image_upload',
      });
    }
  });

  it('names failing fields with their codes', async (context) => {
    if (!enabled) context.skip();
    const answer = await create(a, { symbol: 'Not Valid', title: 'x'.repeat(21) });
    expect(answer.status).toBe(400);
    expect(answer.json.error.fields).toEqual({
      'collection.symbol': 'market.create_product.validation.symbol',
      'collection.title': 'forms.validation.too_big',
      'collection.image': 'forms.validation.required',
    });
  });

  it("refuses another user's path id with 403 and guests with 401", async (context) => {
    if (!enabled) context.skip();
    const image = await confirmedUpload(b.id);
    for (const answer of [
      await create(b, { symbol: 'x', title: 'Not mine', image }, a.id),
      await mine(b, a.id),
      await mine(b, '-'),
    ]) {
      expect(answer.status).toBe(403);
      expect(answer.json.error.code).toBe('forbidden');
    }
    expect((await call('GET', `/api/users/-/token/findcollections`)).status).toBe(401);
    expect((await call('GET', `/api/users/${a.id}/token/findcollections`)).status).toBe(401);
    expect(
      (
        await call('POST', `/api/users/${a.id}/token/createcollection`, {
          body: { collection: { symbol: 'x', title: 'Guest', image } },
        })
      ).status,
    ).toBe(401);
  });

  it('shows the items the items domain indexed under the collection, newest first', async (context) => {
    if (!enabled) context.skip();
    const collection = (
      await create(a, { symbol: 'full', title: 'With items', image: await confirmedUpload(a.id) })
    ).json.data;
    const env = readEnv();
    const doc = dynamoDocumentClient(env);
    // Item records as items' finalising transaction leaves them (gsi3 keys set); one unfinished.
    const ids = [
      newId(new Date()),
      newId(new Date(Date.now() + 1)),
      newId(new Date(Date.now() + 2)),
    ];
    for (const [index, id] of ids.entries()) {
      await doc.send(
        new PutCommand({
          TableName: env.tableName,
          Item: {
            pk: `ITEM#${id}`,
            sk: 'ITEM',
            type: 'item',
            id,
            creator_id: a.id,
            creator_nick: a.nick,
            created_at: new Date().toISOString(),
            product_type: 'physical',
            title: `Item ${index}`,
            symbol: 'item',
            copies: 3,
            images: [
              { full: `items/${a.id}/${id}-1600.webp`, thumb: `items/${a.id}/${id}-400.webp` },
            ],
            collection_id: collection.id,
            ...(index === 2 ? {} : { gsi3pk: `COLLITEMS#${collection.id}`, gsi3sk: id }),
          },
        }),
      );
    }
    const page = await show(collection.id);
    expect(page.status).toBe(200);
    expect(page.json.data.items.map((item) => item.id)).toEqual([ids[1], ids[0]]);
    expect(page.json.data.items[0]).toMatchObject({
      title: 'Item 1',
      issuer_id: a.id,
      issuer_nick: a.nick,
      collection_id: collection.id,
      status: 'available',
      owned: null,
      image: { thumb: `/media/items/${a.id}/${ids[1]}-400.webp` },
    });
    expect(page.json.data.nextCursor).toBeNull();
  });

  it('answers 404 for an unknown collection and 400 for a foreign cursor', async (context) => {
    if (!enabled) context.skip();
    const unknown = await show(newId(new Date()));
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe('market.collection.errors.not_found');
    const listed = (await mine(a)).json.data.items[0];
    if (listed === undefined) throw new Error('a has collections');
    const bad = await show(listed.id, '-', '?cursor=bm90LWEtY3Vyc29y');
    expect(bad.status).toBe(400);
    expect(bad.json.error.fields).toEqual({ cursor: 'forms.validation.cursor' });
  });

  it('claims an image uploaded through store-token-images + confirm', async (context) => {
    if (!enabled) context.skip();
    const png = await sharp({
      create: { width: 64, height: 64, channels: 3, background: '#10ac84' },
    })
      .png()
      .toBuffer();
    const ticket = await call<UploadTicket>('POST', `/api/users/${a.id}/store-token-images`, {
      token: a.accessToken,
      body: { kind: 'image', content_type: 'image/png', size: png.length },
    });
    expect(ticket.status).toBeLessThan(300);
    const form = new FormData();
    for (const [field, value] of Object.entries(ticket.json.data.post.fields)) {
      form.append(field, value);
    }
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'c.png');
    const posted = await fetch(ticket.json.data.post.url, { method: 'POST', body: form });
    expect(posted.status).toBeLessThan(300);
    const confirmed = await call<Uploaded>(
      'POST',
      `/api/users/${a.id}/store-token-images/confirm`,
      { token: a.accessToken, body: { upload_id: ticket.json.data.upload_id } },
    );
    expect(confirmed.status).toBe(200);
    const created = await create(a, {
      symbol: 'real',
      title: 'Real upload',
      image: ticket.json.data.upload_id,
    });
    expect(created.status).toBe(201);
    expect(created.json.data.image).toEqual(confirmed.json.data.image);
    const again = await create(a, {
      symbol: 'real',
      title: 'Real upload 2',
      image: ticket.json.data.upload_id,
    });
    expect(again.status).toBe(400);
  });
});
