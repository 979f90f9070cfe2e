import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { isConditionalCheckFailed } from '../core/dynamo';
import { accountKey } from './accounts.keys';
import { readAccountStatus } from './accounts.repo';
import type { SessionsStore } from './sessions';

/**
 * The sessions domain's DynamoDB calls, all on the account item (pk = USER#<id>, sk = ACCOUNT;
 * keys from accounts.keys.ts): `blocked` and `sessions_revoked_at`. Updates are conditioned on
 * the item existing, so an unknown user is never created by a block.
 */
export function createSessionsStore(deps: {
  doc: DynamoDBDocumentClient;
  tableName: string;
}): SessionsStore {
  const { doc, tableName } = deps;

  const update = async (
    userId: string,
    expression: string,
    values: Record<string, unknown>,
  ): Promise<boolean> => {
    try {
      await doc.send(
        new UpdateCommand({
          TableName: tableName,
          Key: accountKey(userId),
          UpdateExpression: expression,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: values,
        }),
      );
      return true;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return false;
      throw error;
    }
  };

  return {
    status: (userId) => readAccountStatus(deps, userId),
    revokeSessions: (userId, at) => update(userId, 'SET sessions_revoked_at = :at', { ':at': at }),
    setBlocked: (userId, blocked, at) =>
      blocked
        ? update(userId, 'SET blocked = :true, sessions_revoked_at = :at', {
            ':true': true,
            ':at': at,
          })
        : update(userId, 'SET blocked = :false', { ':false': false }),
  };
}
