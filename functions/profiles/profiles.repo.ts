import { PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { decodeCursor, encodeCursor } from '../core/cursor';
import type { UserOption } from '../../shared/schemas/profiles';
import { PROFILE_TYPE, profileKey, SELLERS_PARTITION, sellerIndexKeys } from './profiles.keys';

/** A user's public profile as stored (spec 001 §3 field names). */
export interface ProfileRecord {
  id: string;
  nick: string;
  name: string;
  surname: string | null;
  entity_name: string | null;
  user_option: UserOption;
  title: string | null;
  slogan: string | null;
  summary: string | null;
  /** S3 key of the avatar in the images bucket, or null. */
  profile_image: string | null;
  /** S3 key of the cover image (companies), or null. */
  header_image: string | null;
  followers_counter: number;
  is_verified: boolean;
  is_seller: boolean;
  created_at: string;
}

export interface ProfilesRepo {
  putProfile(profile: ProfileRecord): Promise<void>;
  listSellers(page: { limit: number; cursor: string | undefined }): Promise<{
    items: ProfileRecord[];
    nextCursor: string | null;
  }>;
}

const SELLERS_CURSOR = 'sellers';
const SELLERS_CURSOR_KEYS = ['pk', 'sk', 'gsi1pk', 'gsi1sk'] as const;

function toRecord(item: Record<string, unknown>): ProfileRecord {
  const { pk: _pk, sk: _sk, gsi1pk: _g1, gsi1sk: _g2, type: _type, ...rest } = item;
  return rest as unknown as ProfileRecord;
}

/** The profiles domain's only DynamoDB caller. */
export function createProfilesRepo(deps: {
  doc: DynamoDBDocumentClient;
  tableName: string;
}): ProfilesRepo {
  const { doc, tableName } = deps;
  return {
    async putProfile(profile) {
      await doc.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...profileKey(profile.id),
            ...(profile.is_seller ? sellerIndexKeys(profile.id, profile.followers_counter) : {}),
            type: PROFILE_TYPE,
            ...profile,
          },
        }),
      );
    },

    async listSellers({ limit, cursor }) {
      const start = decodeCursor(SELLERS_CURSOR, cursor, SELLERS_CURSOR_KEYS);
      // One more than asked tells whether a next page exists, so the last page has no cursor.
      const result = await doc.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :sellers',
          ExpressionAttributeValues: { ':sellers': SELLERS_PARTITION },
          ScanIndexForward: false,
          Limit: limit + 1,
          ...(start === undefined ? {} : { ExclusiveStartKey: start }),
        }),
      );
      const rows = result.Items ?? [];
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      const nextCursor =
        rows.length > limit && last !== undefined
          ? encodeCursor(
              SELLERS_CURSOR,
              Object.fromEntries(SELLERS_CURSOR_KEYS.map((name) => [name, last[name]])),
            )
          : null;
      return { items: page.map(toRecord), nextCursor };
    },
  };
}
