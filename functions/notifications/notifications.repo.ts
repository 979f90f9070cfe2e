import {
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { decodeCursor, encodeCursor } from '../core/cursor';
import { cancellationReasons, isConditionalCheckFailed } from '../core/dynamo';
import {
  NOTIFICATION_SECTIONS,
  type EmailGroup,
  type Notification,
  type NotificationSection,
} from '../../shared/schemas/notifications';
import {
  eventGuardKey,
  NOTIFICATION_EVENT_TYPE,
  NOTIFICATION_PREFIX,
  NOTIFICATION_STATE_TYPE,
  NOTIFICATION_TYPE,
  notificationKey,
  notificationsPartition,
  stateKey,
} from './notifications.keys';
import { emailAttribute, sectionAttribute, UNREAD_ATTRIBUTE } from './notifications.rules';

/** A notification as stored: the answer's fields, its read epoch, e-mail state and expiry. */
export interface StoredNotification extends Omit<Notification, 'read'> {
  read: boolean;
  read_epoch?: string;
  /** due: to be e-mailed; sending: claimed until email_lease (ms); sent. */
  email_state?: 'due' | 'sending' | 'sent';
  email_group?: EmailGroup;
  email_lease?: number;
  ttl: number;
}

/** The user's notification state item, as stored (counters, watermark, preferences, key). */
export type StateRecord = Record<string, unknown>;

export type InsertOutcome = 'created' | 'duplicate' | 'stale_id' | 'conflict';
export type WriteOutcome = 'done' | 'conflict';

export interface NotificationsRepo {
  /**
   * Writes a notification, its event guard and the counters in one transaction. `duplicate`: the
   * event was notified before; `stale_id`: the id is not after the user's read watermark (a
   * mark-all committed meanwhile: take a newer id); `conflict`: a concurrent transaction (retry).
   */
  insert(input: {
    notification: StoredNotification;
    eventHash: string;
    section: NotificationSection;
  }): Promise<InsertOutcome>;
  /** The notification id a source event produced, if it was notified. */
  notifiedBy(userId: string, eventHash: string): Promise<string | undefined>;
  getState(userId: string): Promise<StateRecord | undefined>;
  getNotification(userId: string, notificationId: string): Promise<StoredNotification | undefined>;
  listNotifications(
    userId: string,
    page: { cursor: string | undefined; limit: number; section: NotificationSection | undefined },
  ): Promise<{ items: StoredNotification[]; nextCursor: string | null }>;
  /** The newest notification's id (strongly consistent), if any. */
  newestId(userId: string): Promise<string | undefined>;
  /**
   * Sets `read` on a notification (in the current epoch) and moves its section's counters by
   * `delta` (and their version by one), conditioned on the notification and the watermark being
   * as read.
   */
  setRead(input: {
    userId: string;
    item: StoredNotification;
    read: boolean;
    delta: number;
    section: NotificationSection;
    watermark: { read_before?: string; read_epoch?: string };
  }): Promise<WriteOutcome>;
  /**
   * Mark all: counters to 0 and the watermark to `newest`, if the counters did not change since
   * `version` was read (no notification came, none was read meanwhile); the version moves on.
   */
  markAll(input: {
    userId: string;
    version: number;
    newest: string;
    epoch: string;
  }): Promise<WriteOutcome>;
  /** Sets the given e-mail groups; answers the state after. */
  setPreferences(userId: string, email: Partial<Record<EmailGroup, boolean>>): Promise<StateRecord>;
  /** The user's unsubscribe key: the kept one, else `candidate` (kept from now on). */
  keepEmailKey(userId: string, candidate: string): Promise<string>;
  /** Claims a due e-mail for sending (or one whose earlier claim ran out); false if not due. */
  claimEmail(userId: string, notificationId: string, now: Date, leaseMs: number): Promise<boolean>;
  /** Marks a claimed e-mail sent, or gives the claim back (`due`) after a failure. */
  settleEmail(userId: string, notificationId: string, sent: boolean): Promise<void>;
}

const LIST_CURSOR = 'notifications';
const LIST_CURSOR_KEYS = ['pk', 'sk'] as const;

function toStored(item: Record<string, unknown>): StoredNotification {
  const { pk: _pk, sk: _sk, type: _type, section: section, ...rest } = item;
  return { ...(rest as unknown as StoredNotification), type: section as NotificationSection };
}

/** The notifications domain's only DynamoDB caller. */
export function createNotificationsRepo(deps: {
  doc: DynamoDBDocumentClient;
  tableName: string;
}): NotificationsRepo {
  const { doc, tableName: TableName } = deps;

  async function getState(userId: string): Promise<StateRecord | undefined> {
    const result = await doc.send(
      new GetCommand({ TableName, Key: stateKey(userId), ConsistentRead: true }),
    );
    return result.Item;
  }

  async function getNotification(
    userId: string,
    notificationId: string,
  ): Promise<StoredNotification | undefined> {
    const result = await doc.send(
      new GetCommand({
        TableName,
        Key: notificationKey(userId, notificationId),
        ConsistentRead: true,
      }),
    );
    return result.Item === undefined ? undefined : toStored(result.Item);
  }

  return {
    async insert({ notification, eventHash, section }) {
      const userId = notification.destinationid;
      const { type: _section, ...fields } = notification;
      try {
        await doc.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName,
                  Item: {
                    ...eventGuardKey(userId, eventHash),
                    type: NOTIFICATION_EVENT_TYPE,
                    notification_id: notification.id,
                    ttl: notification.ttl,
                  },
                  ConditionExpression: 'attribute_not_exists(pk)',
                },
              },
              {
                Put: {
                  TableName,
                  Item: {
                    ...notificationKey(userId, notification.id),
                    ...fields,
                    type: NOTIFICATION_TYPE,
                    section,
                  },
                },
              },
              {
                Update: {
                  TableName,
                  Key: stateKey(userId),
                  UpdateExpression:
                    'SET #type = :type, user_id = :uid ADD #unread :one, #section :one, version :one',
                  ConditionExpression: 'attribute_not_exists(read_before) OR read_before < :id',
                  ExpressionAttributeNames: {
                    '#type': 'type',
                    '#unread': UNREAD_ATTRIBUTE,
                    '#section': sectionAttribute(section),
                  },
                  ExpressionAttributeValues: {
                    ':type': NOTIFICATION_STATE_TYPE,
                    ':uid': userId,
                    ':one': 1,
                    ':id': notification.id,
                  },
                },
              },
            ],
          }),
        );
        return 'created';
      } catch (error) {
        const reasons = cancellationReasons(error);
        if (reasons === undefined) throw error;
        if (reasons[0]?.Code === 'ConditionalCheckFailed') return 'duplicate';
        if (reasons[2]?.Code === 'ConditionalCheckFailed') return 'stale_id';
        if (reasons.some((reason) => reason.Code === 'TransactionConflict')) return 'conflict';
        throw error;
      }
    },

    async notifiedBy(userId, eventHash) {
      const result = await doc.send(
        new GetCommand({
          TableName,
          Key: eventGuardKey(userId, eventHash),
          ConsistentRead: true,
        }),
      );
      const id = result.Item?.notification_id;
      return typeof id === 'string' ? id : undefined;
    },

    getState,
    getNotification,

    async listNotifications(userId, { cursor, limit, section }) {
      const items: StoredNotification[] = [];
      let startKey = decodeCursor(LIST_CURSOR, cursor, LIST_CURSOR_KEYS);
      // With a section filter a read may return fewer than `limit`: read on until the page is full.
      for (let reads = 0; reads < 10; reads += 1) {
        const result = await doc.send(
          new QueryCommand({
            TableName,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
            ExpressionAttributeValues: {
              ':pk': notificationsPartition(userId),
              ':prefix': NOTIFICATION_PREFIX,
              ...(section === undefined ? {} : { ':section': section }),
            },
            ...(section === undefined
              ? {}
              : {
                  FilterExpression: '#section = :section',
                  ExpressionAttributeNames: { '#section': 'section' },
                }),
            ScanIndexForward: false,
            Limit: section === undefined ? limit - items.length : Math.max(limit * 5, 50),
            ExclusiveStartKey: startKey,
          }),
        );
        const found = result.Items ?? [];
        let cut = false;
        for (const item of found) {
          if (items.length >= limit) {
            cut = true;
            break;
          }
          items.push(toStored(item));
          startKey = { pk: String(item.pk), sk: String(item.sk) };
        }
        if (cut) return { items, nextCursor: encodeCursor(LIST_CURSOR, startKey) };
        if (result.LastEvaluatedKey === undefined) return { items, nextCursor: null };
        if (items.length >= limit) {
          return { items, nextCursor: encodeCursor(LIST_CURSOR, startKey) };
        }
        startKey = result.LastEvaluatedKey as Record<string, string>;
      }
      return { items, nextCursor: encodeCursor(LIST_CURSOR, startKey) };
    },

    async newestId(userId) {
      const result = await doc.send(
        new QueryCommand({
          TableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: {
            ':pk': notificationsPartition(userId),
            ':prefix': NOTIFICATION_PREFIX,
          },
          ScanIndexForward: false,
          Limit: 1,
          ConsistentRead: true,
          ProjectionExpression: 'sk',
        }),
      );
      const sk = result.Items?.[0]?.sk;
      return typeof sk === 'string' ? sk.slice(NOTIFICATION_PREFIX.length) : undefined;
    },

    async setRead({ userId, item, read, delta, section, watermark }) {
      const itemCondition =
        item.read_epoch === undefined
          ? '#read = :was AND attribute_not_exists(read_epoch)'
          : '#read = :was AND read_epoch = :wasEpoch';
      const stateCondition =
        watermark.read_epoch === undefined
          ? 'attribute_not_exists(read_epoch)'
          : 'read_epoch = :epoch';
      try {
        await doc.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName,
                  Key: notificationKey(userId, item.id),
                  UpdateExpression:
                    watermark.read_epoch === undefined
                      ? 'SET #read = :read REMOVE read_epoch'
                      : 'SET #read = :read, read_epoch = :epoch',
                  ConditionExpression: `attribute_exists(pk) AND ${itemCondition}`,
                  ExpressionAttributeNames: { '#read': 'read' },
                  ExpressionAttributeValues: {
                    ':read': read,
                    ':was': item.read,
                    ...(item.read_epoch === undefined ? {} : { ':wasEpoch': item.read_epoch }),
                    ...(watermark.read_epoch === undefined
                      ? {}
                      : { ':epoch': watermark.read_epoch }),
                  },
                },
              },
              {
                Update: {
                  TableName,
                  Key: stateKey(userId),
                  UpdateExpression: 'ADD #unread :delta, #section :delta, version :one',
                  ConditionExpression: `attribute_exists(pk) AND ${stateCondition}`,
                  ExpressionAttributeNames: {
                    '#unread': UNREAD_ATTRIBUTE,
                    '#section': sectionAttribute(section),
                  },
                  ExpressionAttributeValues: {
                    ':delta': delta,
                    ':one': 1,
                    ...(watermark.read_epoch === undefined
                      ? {}
                      : { ':epoch': watermark.read_epoch }),
                  },
                },
              },
            ],
          }),
        );
        return 'done';
      } catch (error) {
        if (cancellationReasons(error) !== undefined) return 'conflict';
        throw error;
      }
    },

    async markAll({ userId, version, newest, epoch }) {
      const zeros = NOTIFICATION_SECTIONS.map((section, index) => `#s${index} = :zero`);
      const names = Object.fromEntries(
        NOTIFICATION_SECTIONS.map((section, index) => [`#s${index}`, sectionAttribute(section)]),
      );
      try {
        await doc.send(
          new UpdateCommand({
            TableName,
            Key: stateKey(userId),
            UpdateExpression: `SET #unread = :zero, ${zeros.join(', ')}, read_before = :newest, read_epoch = :epoch ADD version :one`,
            ConditionExpression: 'version = :version',
            ExpressionAttributeNames: { '#unread': UNREAD_ATTRIBUTE, ...names },
            ExpressionAttributeValues: {
              ':zero': 0,
              ':newest': newest,
              ':epoch': epoch,
              ':version': version,
              ':one': 1,
            },
          }),
        );
        return 'done';
      } catch (error) {
        if (isConditionalCheckFailed(error)) return 'conflict';
        throw error;
      }
    },

    async setPreferences(userId, email) {
      const entries = Object.entries(email).filter(
        (entry): entry is [EmailGroup, boolean] => typeof entry[1] === 'boolean',
      );
      const sets = ['#type = :type', 'user_id = :uid'];
      const names: Record<string, string> = { '#type': 'type' };
      const values: Record<string, unknown> = { ':type': NOTIFICATION_STATE_TYPE, ':uid': userId };
      entries.forEach(([group, on], index) => {
        names[`#g${index}`] = emailAttribute(group);
        values[`:g${index}`] = on;
        sets.push(`#g${index} = :g${index}`);
      });
      const result = await doc.send(
        new UpdateCommand({
          TableName,
          Key: stateKey(userId),
          UpdateExpression: `SET ${sets.join(', ')}`,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      );
      return result.Attributes ?? {};
    },

    async keepEmailKey(userId, candidate) {
      const result = await doc.send(
        new UpdateCommand({
          TableName,
          Key: stateKey(userId),
          UpdateExpression:
            'SET email_key = if_not_exists(email_key, :key), #type = :type, user_id = :uid',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: {
            ':key': candidate,
            ':type': NOTIFICATION_STATE_TYPE,
            ':uid': userId,
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return String(result.Attributes?.email_key ?? candidate);
    },

    async claimEmail(userId, notificationId, now, leaseMs) {
      try {
        await doc.send(
          new UpdateCommand({
            TableName,
            Key: notificationKey(userId, notificationId),
            UpdateExpression: 'SET email_state = :sending, email_lease = :until',
            ConditionExpression:
              'email_state = :due OR (email_state = :sending AND email_lease < :now)',
            ExpressionAttributeValues: {
              ':sending': 'sending',
              ':due': 'due',
              ':until': now.getTime() + leaseMs,
              ':now': now.getTime(),
            },
          }),
        );
        return true;
      } catch (error) {
        if (isConditionalCheckFailed(error)) return false;
        throw error;
      }
    },

    async settleEmail(userId, notificationId, sent) {
      await doc.send(
        new UpdateCommand({
          TableName,
          Key: notificationKey(userId, notificationId),
          UpdateExpression: 'SET email_state = :state REMOVE email_lease',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':state': sent ? 'sent' : 'due' },
        }),
      );
    },
  };
}
