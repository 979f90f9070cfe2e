import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDocumentClient } from '../../core/clients';
import { readEnv } from '../../core/env';
import { newId } from '../../core/ids';
import type { ProductType } from '../../../shared/switches';
import type { CopyRecord, ItemRecord } from '../items';
import { COPY_TYPE, ITEM_TYPE, copyKey, itemKey, nftUniqueId } from '../items.keys';

/**
 * For integration tests of what acts on finished items (listing): an item and its copies written
 * straight to the twin's table, as token/create leaves them (status done), owned by `owner`.
 * token/create itself is tested in items.int.test.ts.
 */
export async function putFinishedItem(input: {
  creator: { id: string; nick: string };
  copies: number;
  product_type?: ProductType;
  transferable?: boolean;
  ticketExpiresAt?: string;
  title?: string;
}): Promise<ItemRecord> {
  const env = readEnv();
  const doc = dynamoDocumentClient(env);
  const id = newId();
  const now = new Date().toISOString();
  const type = input.product_type ?? 'physical';
  const image = { full: `items/${id}/0.webp`, thumb: `items/${id}/0-thumb.webp` };
  const item: ItemRecord = {
    id,
    status: 'done',
    total: input.copies,
    written: input.copies,
    error: null,
    creator_id: input.creator.id,
    creator_nick: input.creator.nick,
    created_at: now,
    product_type: type,
    title: input.title ?? 'Blue cup',
    description: 'A hand-made blue cup.',
    copies: input.copies,
    symbol: 'blue-cup',
    images: [image],
    file: null,
    collection_id: null,
    shipping: type === 'physical' ? { mode: 'delivery', countries: ['ES'] } : null,
    legal_terms: 'None',
    transferable: input.transferable ?? true,
    royalty: null,
    beneficiary: null,
    ticket:
      type === 'ticket'
        ? {
            redeemer: input.creator.nick,
            redeemer_id: input.creator.id,
            expires_at:
              input.ticketExpiresAt ?? new Date(Date.now() + 30 * 86_400_000).toISOString(),
          }
        : null,
    contact_email: 'maker@example.com',
    issuer: {
      legal_form: 'SL',
      organisation: 'Cups SL',
      country: 'ES',
      email: 'maker@example.com',
      governing_law: 'Spain',
      jurisdiction: 'Madrid',
    },
    upload_ids: [],
    image_bytes: 0,
    file_bytes: 0,
    idempotency_key: id,
    fingerprint: id,
    version: 1,
  } as ItemRecord;
  await doc.send(
    new PutCommand({
      TableName: env.tableName,
      Item: { ...itemKey(id), type: ITEM_TYPE, ...item },
    }),
  );
  const copies: CopyRecord[] = Array.from({ length: input.copies }, (_, index) => ({
    item_id: id,
    serial: index + 1,
    nftuniqueid: nftUniqueId(id, index + 1),
    owner_id: input.creator.id,
    owner_nick: input.creator.nick,
    owner_since: now,
    status: 'available',
    head: 'test',
  }));
  for (let i = 0; i < copies.length; i += 25) {
    await Promise.all(
      copies.slice(i, i + 25).map((copy) =>
        doc.send(
          new PutCommand({
            TableName: env.tableName,
            Item: { ...copyKey(id, copy.serial), type: COPY_TYPE, ...copy },
          }),
        ),
      ),
    );
  }
  return item;
}

/** A copy's status, as the table holds it. */
export async function setCopyOwner(
  itemId: string,
  serial: number,
  owner: { id: string; nick: string },
) {
  const env = readEnv();
  await dynamoDocumentClient(env).send(
    new UpdateCommand({
      TableName: env.tableName,
      Key: copyKey(itemId, serial),
      UpdateExpression: 'SET owner_id = :id, owner_nick = :nick',
      ExpressionAttributeValues: { ':id': owner.id, ':nick': owner.nick },
    }),
  );
}
