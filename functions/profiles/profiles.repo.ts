import {
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { isConditionalCheckFailed } from '../core/dynamo';
import { decodeCursor, encodeCursor } from '../core/cursor';
import { DomainError } from '../core/errors';
import type { SocialSite, UserOption } from '../../shared/schemas/profiles';
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
  /*
   * Written by the edit-profile calls (issue 3 item 6); optional so that items written before them
   * (sign-up, seed data) stay valid and read as null / {}.
   */
  /** Company address (companies). */
  entity_address?: string | null;
  /** S3 key of the 96 px avatar thumbnail, or null. */
  profile_thumb?: string | null;
  /** Embed URL of the profile video, or null. */
  video_url?: string | null;
  /** Allowed social links, keyed by site. */
  social_media?: Partial<Record<SocialSite, string>>;
  updated_at?: string;
  /**
   * Seller onboarding with Stripe Connect (spec 001 §3, §4), kept by the payments domain
   * (setSellerStatus); absent before the user began. `complete` goes with is_seller.
   */
  onboarding_status?: string | null;
}

/** The fields the edit-profile calls may change (never keys, counters or flags). */
export type ProfileChanges = Partial<
  Pick<
    ProfileRecord,
    | 'name'
    | 'surname'
    | 'entity_name'
    | 'entity_address'
    | 'title'
    | 'slogan'
    | 'summary'
    | 'video_url'
    | 'social_media'
    | 'profile_image'
    | 'profile_thumb'
    | 'header_image'
    | 'updated_at'
  >
>;

export interface ProfilesRepo {
  putProfile(profile: ProfileRecord): Promise<void>;
  listSellers(page: { limit: number; cursor: string | undefined }): Promise<{
    items: ProfileRecord[];
    nextCursor: string | null;
  }>;
}

/** Reads and edits of one profile (the edit-profile calls). */
export interface ProfileStore {
  getProfile(userId: string): Promise<ProfileRecord | undefined>;
  /**
   * Sets the given fields (only these: the sellers index keys stay as they are) on an existing
   * profile; answers the profile before and after. 404 `users.errors.not_found` when none.
   */
  updateProfile(
    userId: string,
    changes: ProfileChanges,
  ): Promise<{ before: ProfileRecord; after: ProfileRecord }>;
}

/** The payments domain's write of the seller status (profiles' public module). */
export interface SellerStatusStore {
  /**
   * Keeps the user's seller onboarding status (spec 001 §4) and whether they are a seller: a
   * seller gets the sellers directory's index keys (gsi1, from the counter read), anyone else loses
   * them. Conditioned on the counter read, so a concurrent follow cannot leave a stale sort key (a
   * lost race is read again). `changed` is false when the profile already said so (a webhook
   * redelivered, a check repeated); 404 `users.errors.not_found` without a profile.
   */
  setSellerStatus(
    userId: string,
    status: { onboarding_status: string; is_seller: boolean },
  ): Promise<{ changed: boolean }>;
}

const SELLERS_CURSOR = 'sellers';
const SELLERS_CURSOR_KEYS = ['pk', 'sk', 'gsi1pk', 'gsi1sk'] as const;

function toRecord(item: Record<string, unknown>): ProfileRecord {
  const { pk: _pk, sk: _sk, gsi1pk: _g1, gsi1sk: _g2, type: _type, ...rest } = item;
  return rest as unknown as ProfileRecord;
}

/** The stored item of a profile: its keys, the sellers index keys for sellers, the record. */
export function profileItem(profile: ProfileRecord): Record<string, unknown> {
  return {
    ...profileKey(profile.id),
    ...(profile.is_seller ? sellerIndexKeys(profile.id, profile.followers_counter) : {}),
    type: PROFILE_TYPE,
    ...profile,
  };
}

/** The profiles domain's only DynamoDB caller. */
export function createProfilesRepo(deps: {
  doc: DynamoDBDocumentClient;
  tableName: string;
}): ProfilesRepo {
  const { doc, tableName } = deps;
  return {
    async putProfile(profile) {
      await doc.send(new PutCommand({ TableName: tableName, Item: profileItem(profile) }));
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

/** Profile reads and edits against the table (the profiles domain's only DynamoDB caller). */
export function createProfileStore(deps: {
  doc: DynamoDBDocumentClient;
  tableName: string;
}): ProfileStore & SellerStatusStore {
  const { doc, tableName } = deps;
  return {
    async getProfile(userId) {
      const result = await doc.send(
        new GetCommand({ TableName: tableName, Key: profileKey(userId), ConsistentRead: true }),
      );
      return result.Item === undefined ? undefined : toRecord(result.Item);
    },

    async setSellerStatus(userId, status) {
      for (let attempt = 0; ; attempt += 1) {
        const current = await doc.send(
          new GetCommand({
            TableName: tableName,
            Key: profileKey(userId),
            ConsistentRead: true,
            ProjectionExpression: 'pk, followers_counter, is_seller, onboarding_status',
          }),
        );
        if (current.Item === undefined) {
          throw new DomainError('users.errors.not_found', {
            message: 'This user could not be found.',
          });
        }
        const wasSeller = current.Item.is_seller === true;
        if (
          current.Item.onboarding_status === status.onboarding_status &&
          wasSeller === status.is_seller
        ) {
          return { changed: false };
        }
        const counter = Number(current.Item.followers_counter ?? 0);
        const followers = Number.isSafeInteger(counter) && counter > 0 ? counter : 0;
        const values: Record<string, unknown> = {
          ':status': status.onboarding_status,
          ':seller': status.is_seller,
        };
        let update = 'SET onboarding_status = :status, is_seller = :seller';
        if (status.is_seller) {
          const keys = sellerIndexKeys(userId, followers);
          values[':gpk'] = keys.gsi1pk;
          values[':gsk'] = keys.gsi1sk;
          update += ', gsi1pk = :gpk, gsi1sk = :gsk';
        } else {
          update += ' REMOVE gsi1pk, gsi1sk';
        }
        values[':followers'] = followers;
        try {
          await doc.send(
            new UpdateCommand({
              TableName: tableName,
              Key: profileKey(userId),
              UpdateExpression: update,
              ConditionExpression:
                followers === 0
                  ? 'attribute_exists(pk) AND (attribute_not_exists(followers_counter) OR followers_counter = :followers)'
                  : 'attribute_exists(pk) AND followers_counter = :followers',
              ExpressionAttributeValues: values,
            }),
          );
          return { changed: true };
        } catch (error) {
          if (!isConditionalCheckFailed(error) || attempt >= 4) throw error;
        }
      }
    },

    async updateProfile(userId, changes) {
      const entries = Object.entries(changes).filter(([, value]) => value !== undefined);
      if (entries.length === 0) {
        const current = await this.getProfile(userId);
        if (current === undefined) {
          throw new DomainError('users.errors.not_found', {
            message: 'This user could not be found.',
          });
        }
        return { before: current, after: current };
      }
      const names: Record<string, string> = {};
      const values: Record<string, unknown> = {};
      const sets = entries.map(([field, value], index) => {
        names[`#f${index}`] = field;
        values[`:v${index}`] = value;
        return `#f${index} = :v${index}`;
      });
      try {
        const result = await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: profileKey(userId),
            UpdateExpression: `SET ${sets.join(', ')}`,
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
            ReturnValues: 'ALL_OLD',
          }),
        );
        const before = toRecord(result.Attributes ?? {});
        return { before, after: { ...before, ...Object.fromEntries(entries) } as ProfileRecord };
      } catch (error) {
        if (isConditionalCheckFailed(error)) {
          throw new DomainError('users.errors.not_found', {
            message: 'This user could not be found.',
          });
        }
        throw error;
      }
    },
  };
}
