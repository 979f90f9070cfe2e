import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { DomainError } from '../core/errors';
import {
  TAKEN_CODES,
  UNIQUE_FIELDS,
  type Registered,
  type UniqueField,
} from '../../shared/schemas/accounts';
import type { UserOption } from '../../shared/schemas/profiles';
import { profileItemKey, type UpdateIntent } from '../profiles/index';
import {
  ACCOUNT_TYPE,
  accountKey,
  GUARD_TYPE,
  guardKey,
  REGISTER_IDEMPOTENCY_SCOPE,
  LOGIN_FAILURES_TYPE,
  LOGIN_TRUSTED_SOURCE_TYPE,
  loginFailuresKey,
  loginFailuresPartition,
  loginPairFailuresKey,
  loginPairFailuresSortKey,
  loginTrustedSourceKey,
  sourceFailuresKey,
  sourceFailuresPartition,
  PASSWORD_RESET_REQUESTS_TYPE,
  PASSWORD_RESET_TYPE,
  passwordResetKey,
  passwordResetRequestsKey,
  PIN_TYPE,
  pinKey,
  registerIdempotencyKey,
} from './accounts.keys';
import { PIN_RULES, pinTtl, type PinRecord, type PinStep } from './pins';
import { cancellationReasons, isConditionalCheckFailed } from '../core/dynamo';
import { idempotencyRecordPut } from '../core/idempotency';
import { NO_FAILURES, type FailureCount, type ThrottleState } from './login-throttle';

/** A user's private identity record (never answered to other users). */
export interface AccountRecord {
  id: string;
  nick: string;
  email: string;
  phone: string;
  user_option: UserOption;
  email_verified: boolean;
  phone_verified: boolean;
  /** Blocked by an admin: login and every call answer 403. */
  blocked: boolean;
  is_admin: boolean;
  created_at: string;
  /**
   * Set by logout, block (functions/sessions): access tokens whose sign-in (`auth_time`) is older
   * are refused on every call. ISO-8601 UTC; absent until the first logout.
   */
  sessions_revoked_at?: string;
}

/** What the per-call session check needs of an account (functions/sessions). */
export interface AccountStatus {
  blocked: boolean;
  sessionsRevokedAt: string | undefined;
}

/**
 * The per-call session check's read: ONE strongly consistent GetItem of the account item,
 * projected to the two attributes it needs. undefined when there is no account.
 */
export async function readAccountStatus(
  deps: { doc: DynamoDBDocumentClient; tableName: string },
  userId: string,
): Promise<AccountStatus | undefined> {
  const result = await deps.doc.send(
    new GetCommand({
      TableName: deps.tableName,
      Key: accountKey(userId),
      ConsistentRead: true,
      ProjectionExpression: 'pk, blocked, sessions_revoked_at',
    }),
  );
  if (result.Item === undefined) return undefined;
  const revoked = result.Item.sessions_revoked_at;
  return {
    blocked: result.Item.blocked === true,
    sessionsRevokedAt: typeof revoked === 'string' ? revoked : undefined,
  };
}

export interface IdempotencyRecord {
  fingerprint: string;
  result: Registered;
}

export interface CreateAccountInput {
  account: AccountRecord;
  /** The profile item (keys included) from the profiles domain. */
  profileItem: Record<string, unknown>;
  idempotency?: { key: string; fingerprint: string; result: Registered; ttl: number };
}

export type CreateAccountResult = { status: 'created' } | { status: 'replay' };

export interface AccountsRepo {
  /**
   * Guards, account, profile (and the idempotency record) in one transaction. Throws 409
   * `users.errors.taken` naming the taken fields; answers 'replay' when the idempotency key was
   * already used (the caller reads the stored result).
   */
  createAccount(input: CreateAccountInput): Promise<CreateAccountResult>;
  /** Compensation: removes what createAccount wrote, only where it is still this user's. */
  removeAccount(account: AccountRecord, idempotencyKey: string | undefined): Promise<void>;
  getIdempotency(key: string): Promise<IdempotencyRecord | undefined>;
  isTaken(field: UniqueField, value: string): Promise<boolean>;
  getAccount(userId: string): Promise<AccountRecord | undefined>;

  getPin(challengeId: string): Promise<PinRecord | undefined>;
  putPin(record: PinRecord): Promise<void>;
  /**
   * A wrong answer, atomically: the pin's tries + 1 and the hourly failures + 1 of the login name,
   * of the source and of the pair (the last two only with a source), each stamped with `at`.
   */
  recordFailure(input: {
    challengeId: string | undefined;
    userName: string;
    source: string | undefined;
    hourBucket: string;
    at: string;
    ttl: number;
  }): Promise<void>;
  /** The counters login-throttle.ts decides on (4 strongly consistent reads, in parallel). */
  readThrottle(input: {
    userName: string;
    source: string | undefined;
    buckets: { previous: string; current: string };
    now: Date;
  }): Promise<ThrottleState>;
  /** A login completed from `source`: it is trusted for this login name until `until`. */
  trustSource(input: {
    userName: string;
    source: string;
    until: string;
    ttl: number;
  }): Promise<void>;
  /** A RESEND after the cooldown: the pin is retired (its next challenge carries a new pin). */
  retirePin(challengeId: string): Promise<void>;
  /**
   * A correct answer: the pin becomes used (only if still unused and under the try limit) and the
   * account's e-mail or phone flag is set; `profile` (on the phone step) marks the profile
   * verified in the same transaction. False when the pin was consumed concurrently.
   */
  consumePin(input: {
    challengeId: string;
    userId: string;
    step: PinStep;
    profile: UpdateIntent | undefined;
  }): Promise<boolean>;
}

/** Two hour buckets of a counter → FailureCount (the latest `lastAt` of either). */
export function failureCountOf(
  items: readonly Record<string, unknown>[],
  sortKeys: { previous: string; current: string },
): FailureCount {
  let count: FailureCount = { ...NO_FAILURES };
  for (const item of items) {
    const value = Number(item.count ?? 0);
    if (item.sk === sortKeys.current) count = { ...count, current: count.current + value };
    else if (item.sk === sortKeys.previous) count = { ...count, previous: count.previous + value };
    else continue;
    const last = typeof item.lastAt === 'string' ? item.lastAt : undefined;
    if (last !== undefined && (count.lastFailureAt === undefined || last > count.lastFailureAt)) {
      count = { ...count, lastFailureAt: last };
    }
  }
  return count;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const MAX_CONFLICT_RETRIES = 8;

function strip(item: Record<string, unknown>): Record<string, unknown> {
  const { pk: _pk, sk: _sk, type: _type, ttl: _ttl, ...rest } = item;
  return rest;
}

/** The accounts domain's only DynamoDB caller. */
export function createAccountsRepo(deps: {
  doc: DynamoDBDocumentClient;
  tableName: string;
}): AccountsRepo {
  const { doc, tableName } = deps;
  const TableName = tableName;

  return {
    async createAccount({ account, profileItem, idempotency }) {
      const guards = UNIQUE_FIELDS.map((field) => ({
        Put: {
          TableName,
          Item: {
            ...guardKey(field, account[field]),
            type: GUARD_TYPE,
            field,
            userId: account.id,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      }));
      const items = [
        ...guards,
        {
          Put: {
            TableName,
            Item: { ...accountKey(account.id), type: ACCOUNT_TYPE, ...account },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        { Put: { TableName, Item: profileItem, ConditionExpression: 'attribute_not_exists(pk)' } },
        ...(idempotency === undefined
          ? []
          : [
              idempotencyRecordPut(TableName, {
                scope: REGISTER_IDEMPOTENCY_SCOPE,
                key: idempotency.key,
                fingerprint: idempotency.fingerprint,
                ttl: idempotency.ttl,
                fields: { result: idempotency.result },
              }),
            ]),
      ];
      const idempotencyIndex = UNIQUE_FIELDS.length + 2;
      for (let attempt = 0; ; attempt += 1) {
        try {
          await doc.send(new TransactWriteCommand({ TransactItems: items }));
          return { status: 'created' };
        } catch (error) {
          const reasons = cancellationReasons(error);
          if (reasons === undefined) throw error;
          const failed = (index: number) => reasons[index]?.Code === 'ConditionalCheckFailed';
          if (idempotency !== undefined && failed(idempotencyIndex)) return { status: 'replay' };
          const taken = UNIQUE_FIELDS.filter((_field, index) => failed(index));
          if (taken.length > 0) {
            throw new DomainError('users.errors.taken', {
              message: `Already in use: ${taken.join(', ')}.`,
              fields: Object.fromEntries(taken.map((field) => [field, TAKEN_CODES[field]])),
            });
          }
          const conflict = reasons.some((reason) => reason.Code === 'TransactionConflict');
          if (!conflict || attempt >= MAX_CONFLICT_RETRIES) throw error;
          // Another sign-up holds one of the same guards: wait, then let the conditions decide.
          await sleep(10 + Math.random() * 40 * (attempt + 1));
        }
      }
    },

    async removeAccount(account, idempotencyKey) {
      const mine = { ':id': account.id };
      await doc.send(
        new TransactWriteCommand({
          TransactItems: [
            ...UNIQUE_FIELDS.map((field) => ({
              Delete: {
                TableName,
                Key: guardKey(field, account[field]),
                ConditionExpression: 'attribute_not_exists(pk) OR userId = :id',
                ExpressionAttributeValues: mine,
              },
            })),
            { Delete: { TableName, Key: accountKey(account.id) } },
            { Delete: { TableName, Key: profileItemKey(account.id) } },
            ...(idempotencyKey === undefined
              ? []
              : [{ Delete: { TableName, Key: registerIdempotencyKey(idempotencyKey) } }]),
          ],
        }),
      );
    },

    async getIdempotency(key) {
      const result = await doc.send(
        new GetCommand({ TableName, Key: registerIdempotencyKey(key), ConsistentRead: true }),
      );
      if (result.Item === undefined) return undefined;
      return {
        fingerprint: String(result.Item.fingerprint),
        result: result.Item.result as Registered,
      };
    },

    async isTaken(field, value) {
      const result = await doc.send(
        new GetCommand({
          TableName,
          Key: guardKey(field, value),
          ProjectionExpression: 'pk',
        }),
      );
      return result.Item !== undefined;
    },

    async getAccount(userId) {
      const result = await doc.send(
        new GetCommand({ TableName, Key: accountKey(userId), ConsistentRead: true }),
      );
      return result.Item === undefined
        ? undefined
        : (strip(result.Item) as unknown as AccountRecord);
    },

    async getPin(challengeId) {
      const result = await doc.send(
        new GetCommand({ TableName, Key: pinKey(challengeId), ConsistentRead: true }),
      );
      return result.Item === undefined ? undefined : (strip(result.Item) as unknown as PinRecord);
    },

    async putPin(record) {
      await doc.send(
        new PutCommand({
          TableName,
          Item: { ...pinKey(record.challengeId), type: PIN_TYPE, ...record, ttl: pinTtl(record) },
        }),
      );
    },

    async recordFailure({ challengeId, userName, source, hourBucket, at, ttl }) {
      const counter = (Key: { pk: string; sk: string }) => ({
        Update: {
          TableName,
          Key,
          UpdateExpression: 'ADD #count :one SET #type = :type, #ttl = :ttl, #lastAt = :at',
          ExpressionAttributeNames: {
            '#count': 'count',
            '#type': 'type',
            '#ttl': 'ttl',
            '#lastAt': 'lastAt',
          },
          ExpressionAttributeValues: {
            ':one': 1,
            ':type': LOGIN_FAILURES_TYPE,
            ':ttl': ttl,
            ':at': at,
          },
        },
      });
      const counters = [
        counter(loginFailuresKey(userName, hourBucket)),
        ...(source === undefined
          ? []
          : [
              counter(sourceFailuresKey(source, hourBucket)),
              counter(loginPairFailuresKey(userName, source, hourBucket)),
            ]),
      ];
      const tries =
        challengeId === undefined
          ? []
          : [
              {
                Update: {
                  TableName,
                  Key: pinKey(challengeId),
                  UpdateExpression: 'ADD tries :one',
                  ConditionExpression: 'attribute_exists(pk)',
                  ExpressionAttributeValues: { ':one': 1 },
                },
              },
            ];
      await doc
        .send(new TransactWriteCommand({ TransactItems: [...counters, ...tries] }))
        .catch(async (error: unknown) => {
          // The pin vanished (TTL): still count the failure.
          if (tries.length === 0 || cancellationReasons(error) === undefined) throw error;
          await doc.send(new TransactWriteCommand({ TransactItems: counters }));
        });
    },

    async readThrottle({ userName, source, buckets, now }) {
      const query = async (pk: string, from: string, to: string) =>
        (
          await doc.send(
            new QueryCommand({
              TableName,
              KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
              ExpressionAttributeValues: { ':pk': pk, ':from': from, ':to': to },
              ConsistentRead: true,
            }),
          )
        ).Items ?? [];
      const accountItems = query(
        loginFailuresPartition(userName),
        buckets.previous,
        buckets.current,
      );
      if (source === undefined) {
        return { account: failureCountOf(await accountItems, buckets), trusted: false };
      }
      const pairKeys = {
        previous: loginPairFailuresSortKey(source, buckets.previous),
        current: loginPairFailuresSortKey(source, buckets.current),
      };
      const [account, pair, sourceItems, trust] = await Promise.all([
        accountItems,
        query(loginFailuresPartition(userName), pairKeys.previous, pairKeys.current),
        query(sourceFailuresPartition(source), buckets.previous, buckets.current),
        doc.send(
          new GetCommand({
            TableName,
            Key: loginTrustedSourceKey(userName, source),
            ConsistentRead: true,
          }),
        ),
      ]);
      const until = trust.Item?.until;
      return {
        account: failureCountOf(account, buckets),
        pair: failureCountOf(pair, pairKeys),
        source: failureCountOf(sourceItems, buckets),
        trusted: typeof until === 'string' && Date.parse(until) > now.getTime(),
      };
    },

    async trustSource({ userName, source, until, ttl }) {
      await doc.send(
        new PutCommand({
          TableName,
          Item: {
            ...loginTrustedSourceKey(userName, source),
            type: LOGIN_TRUSTED_SOURCE_TYPE,
            until,
            ttl,
          },
        }),
      );
    },

    async retirePin(challengeId) {
      await doc.send(
        new UpdateCommand({
          TableName,
          Key: pinKey(challengeId),
          UpdateExpression: 'SET retired = :true',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':true': true },
        }),
      );
    },

    async consumePin({ challengeId, userId, step, profile }) {
      const flag = step === 'email' ? 'email_verified' : 'phone_verified';
      try {
        await doc.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName,
                  Key: pinKey(challengeId),
                  UpdateExpression: 'SET used = :true',
                  ConditionExpression:
                    'used = :false AND retired = :false AND tries < :max AND decoy = :false',
                  ExpressionAttributeValues: {
                    ':true': true,
                    ':false': false,
                    ':max': PIN_RULES.maxTries,
                  },
                },
              },
              {
                Update: {
                  TableName,
                  Key: accountKey(userId),
                  UpdateExpression: `SET ${flag} = :true`,
                  ConditionExpression: 'attribute_exists(pk)',
                  ExpressionAttributeValues: { ':true': true },
                },
              },
              ...(profile === undefined ? [] : [{ Update: { TableName, ...profile } }]),
            ],
          }),
        );
        return true;
      } catch (error) {
        if (cancellationReasons(error) !== undefined) return false;
        throw error;
      }
    },
  };
}

/**
 * The owner of a nick, e-mail or phone: ONE GetItem of its guard item (never a Scan). undefined
 * when the value is free. Used through the accounts directory (directory.ts) by other domains.
 */
export async function readGuardOwner(
  deps: { doc: DynamoDBDocumentClient; tableName: string },
  field: UniqueField,
  value: string,
): Promise<string | undefined> {
  const result = await deps.doc.send(
    new GetCommand({
      TableName: deps.tableName,
      Key: guardKey(field, value),
      ProjectionExpression: 'userId',
    }),
  );
  const owner = result.Item?.userId;
  return typeof owner === 'string' && owner !== '' ? owner : undefined;
}

/** A stored password-reset token: only its hash (the key), the user and the expiry. */
export interface ResetTokenRecord {
  tokenHash: string;
  userId: string;
  /** ISO-8601 UTC; checked in code (TTL deletion is late, up to days). */
  expiresAt: string;
  /** Epoch seconds for DynamoDB TTL. */
  ttl: number;
}

/** The password-reset use case's table access (functions/accounts/password-reset.ts). */
export interface PasswordResetStore {
  /** The owner of a (normalised) e-mail: one GetItem of its guard item. */
  emailOwner(email: string): Promise<string | undefined>;
  getAccount(userId: string): Promise<AccountRecord | undefined>;
  /** +1 on the e-mail's counter of this hour; answers the new count. */
  countRequest(input: { email: string; hourBucket: string; ttl: number }): Promise<number>;
  putToken(record: ResetTokenRecord): Promise<void>;
  /**
   * Consumes a token atomically: a conditional DeleteItem (exists and not expired at `now`), so
   * of two concurrent resets with one token exactly one gets the user id; the other undefined.
   */
  consumeToken(tokenHash: string, now: Date): Promise<string | undefined>;
}

export function createPasswordResetStore(deps: {
  doc: DynamoDBDocumentClient;
  tableName: string;
}): PasswordResetStore {
  const { doc, tableName: TableName } = deps;
  return {
    emailOwner: (email) => readGuardOwner(deps, 'email', email),

    async getAccount(userId) {
      const result = await doc.send(
        new GetCommand({ TableName, Key: accountKey(userId), ConsistentRead: true }),
      );
      return result.Item === undefined
        ? undefined
        : (strip(result.Item) as unknown as AccountRecord);
    },

    async countRequest({ email, hourBucket, ttl }) {
      const result = await doc.send(
        new UpdateCommand({
          TableName,
          Key: passwordResetRequestsKey(email, hourBucket),
          UpdateExpression: 'ADD #count :one SET #type = :type, #ttl = :ttl',
          ExpressionAttributeNames: { '#count': 'count', '#type': 'type', '#ttl': 'ttl' },
          ExpressionAttributeValues: {
            ':one': 1,
            ':type': PASSWORD_RESET_REQUESTS_TYPE,
            ':ttl': ttl,
          },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return Number(result.Attributes?.count ?? 1);
    },

    async putToken({ tokenHash, userId, expiresAt, ttl }) {
      await doc.send(
        new PutCommand({
          TableName,
          Item: {
            ...passwordResetKey(tokenHash),
            type: PASSWORD_RESET_TYPE,
            userId,
            expires_at: expiresAt,
            ttl,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    },

    async consumeToken(tokenHash, now) {
      try {
        const result = await doc.send(
          new DeleteCommand({
            TableName,
            Key: passwordResetKey(tokenHash),
            ConditionExpression: 'attribute_exists(pk) AND expires_at > :now',
            ExpressionAttributeValues: { ':now': now.toISOString() },
            ReturnValues: 'ALL_OLD',
          }),
        );
        const userId = result.Attributes?.userId;
        return typeof userId === 'string' ? userId : undefined;
      } catch (error) {
        if (isConditionalCheckFailed(error)) {
          return undefined;
        }
        throw error;
      }
    },
  };
}
