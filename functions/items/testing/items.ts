import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDocumentClient } from '../../core/clients';
import { readEnv } from '../../core/env';
import { newId } from '../../core/ids';
import type { ProductType } from '../../../shared/switches';
import { summaryOf, type CopyRecord, type ItemRecord } from '../items';
import {
  COPY_TYPE,
  HISTORY_TYPE,
  HOLDING_TYPE,
  ITEM_TYPE,
  copyKey,
  historyKey,
  holdingKey,
  itemKey,
  nftUniqueId,
  publicIndexKeys,
} from '../items.keys';
import { appendRecord, type ProvenanceRecord } from '../provenance';

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
  royalty?: number;
  beneficiary?: { nick: string; share: number; user_id: string };
  shipping?: ItemRecord['shipping'];
  /** The dev seed's demo items say what they are (tests keep the blue cup). */
  description?: string;
  symbol?: string;
  issuer?: ItemRecord['issuer'];
  contactEmail?: string;
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
    description: input.description ?? 'A hand-made blue cup.',
    copies: input.copies,
    symbol: input.symbol ?? 'blue-cup',
    images: [image],
    file: null,
    collection_id: null,
    shipping:
      input.shipping !== undefined
        ? input.shipping
        : type === 'physical'
          ? { mode: 'delivery', countries: ['ES'] }
          : null,
    legal_terms: 'None',
    transferable: input.transferable ?? true,
    royalty: input.royalty ?? null,
    beneficiary: input.beneficiary ?? null,
    ticket:
      type === 'ticket'
        ? {
            redeemer: input.creator.nick,
            redeemer_id: input.creator.id,
            expires_at:
              input.ticketExpiresAt ?? new Date(Date.now() + 30 * 86_400_000).toISOString(),
          }
        : null,
    contact_email: input.contactEmail ?? 'maker@example.com',
    issuer: input.issuer ?? {
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
  // Each copy with its `minted` provenance record (its head), and the creator's holding.
  const minted = Array.from({ length: input.copies }, (_, index) =>
    appendRecord(nftUniqueId(id, index + 1), undefined, {
      event: 'minted',
      from_id: null,
      from_nick: null,
      to_id: input.creator.id,
      to_nick: input.creator.nick,
      at: now,
      ref: null,
    }),
  );
  const copies: CopyRecord[] = minted.map((record, index) => ({
    item_id: id,
    serial: index + 1,
    nftuniqueid: record.nftuniqueid,
    owner_id: input.creator.id,
    owner_nick: input.creator.nick,
    owner_since: now,
    status: 'available',
    head: record.hash,
  }));
  for (let i = 0; i < copies.length; i += 25) {
    await Promise.all(
      copies.slice(i, i + 25).flatMap((copy, index) => [
        doc.send(
          new PutCommand({
            TableName: env.tableName,
            Item: { ...copyKey(id, copy.serial), type: COPY_TYPE, ...copy },
          }),
        ),
        doc.send(
          new PutCommand({
            TableName: env.tableName,
            Item: {
              ...historyKey(copy.nftuniqueid, 1),
              type: HISTORY_TYPE,
              ...(minted[i + index] as ProvenanceRecord),
            },
          }),
        ),
      ]),
    );
  }
  const summary = summaryOf(item);
  await doc.send(
    new PutCommand({
      TableName: env.tableName,
      Item: {
        ...holdingKey(input.creator.id, id),
        type: HOLDING_TYPE,
        owner_id: input.creator.id,
        item_id: id,
        count: input.copies,
        visible: true,
        summary,
        product_type: type,
        ...publicIndexKeys(input.creator.id, id),
      },
    }),
  );
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
