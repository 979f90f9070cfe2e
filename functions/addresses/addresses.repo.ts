import {
  QueryCommand,
  TransactWriteCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import type { Address } from '../../shared/schemas/addresses';
import type { BookState, Plan } from './addresses.rules';
import {
  ADDRESS_BOOK_TYPE,
  ADDRESS_ITEMS_PREFIX,
  ADDRESS_TYPE,
  addressBookKey,
  addressKey,
  isBookSortKey,
  userPartition,
} from './addresses.keys';

export interface AddressesRepo {
  /** All of a user's addresses and the book's version, in one consistent Query. */
  load(userId: string): Promise<BookState>;
  /**
   * Runs a plan in one transaction conditioned on the book's version. 'stale' when another change
   * of the same book won the race (read again and re-plan).
   */
  commit(userId: string, expectedVersion: number, plan: Plan): Promise<'done' | 'stale'>;
}

function toAddress(item: Record<string, unknown>): Address {
  return {
    id: String(item.id),
    country: String(item.country),
    fullname: String(item.fullname),
    line1: String(item.line1),
    line2: typeof item.line2 === 'string' ? item.line2 : null,
    postalcode: String(item.postalcode),
    city: String(item.city),
    stateprovince: String(item.stateprovince),
    instructions: typeof item.instructions === 'string' ? item.instructions : null,
    default: item.default === true,
    created_at: String(item.created_at),
    updated_at: String(item.updated_at),
  };
}

function isCancelled(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { name?: string }).name === 'TransactionCanceledException'
  );
}

/** The addresses domain's only DynamoDB caller. */
export function createAddressesRepo(deps: {
  doc: DynamoDBDocumentClient;
  tableName: string;
}): AddressesRepo {
  const { doc, tableName: TableName } = deps;
  return {
    async load(userId) {
      const addresses: Address[] = [];
      let version = 0;
      let start: Record<string, unknown> | undefined;
      do {
        const result = await doc.send(
          new QueryCommand({
            TableName,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
            ExpressionAttributeValues: {
              ':pk': userPartition(userId),
              ':prefix': ADDRESS_ITEMS_PREFIX,
            },
            ConsistentRead: true,
            ...(start === undefined ? {} : { ExclusiveStartKey: start }),
          }),
        );
        for (const item of result.Items ?? []) {
          if (isBookSortKey(String(item.sk))) version = Number(item.version ?? 0);
          else addresses.push(toAddress(item));
        }
        start = result.LastEvaluatedKey;
      } while (start !== undefined);
      return { version, addresses };
    },

    async commit(userId, expectedVersion, plan) {
      const created = new Set(plan.created);
      const items = [
        ...plan.put.map((address) => ({
          Put: {
            TableName,
            Item: {
              ...addressKey(userId, address.id),
              type: ADDRESS_TYPE,
              user_id: userId,
              ...address,
            },
            ConditionExpression: created.has(address.id)
              ? 'attribute_not_exists(pk)'
              : 'attribute_exists(pk)',
          },
        })),
        ...plan.delete.map((addressId) => ({
          Delete: {
            TableName,
            Key: addressKey(userId, addressId),
            ConditionExpression: 'attribute_exists(pk)',
          },
        })),
        {
          Put: {
            TableName,
            Item: {
              ...addressBookKey(userId),
              type: ADDRESS_BOOK_TYPE,
              user_id: userId,
              count: plan.count,
              default_id: plan.defaultId,
              version: expectedVersion + 1,
            },
            ...(expectedVersion === 0
              ? { ConditionExpression: 'attribute_not_exists(pk)' }
              : {
                  ConditionExpression: '#version = :version',
                  ExpressionAttributeNames: { '#version': 'version' },
                  ExpressionAttributeValues: { ':version': expectedVersion },
                }),
          },
        },
      ];
      try {
        await doc.send(new TransactWriteCommand({ TransactItems: items }));
        return 'done';
      } catch (error) {
        if (isCancelled(error)) return 'stale';
        throw error;
      }
    },
  };
}
