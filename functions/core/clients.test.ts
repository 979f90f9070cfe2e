import { describe, expect, it } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import {
  cognitoClient,
  connectionsClient,
  dynamoDocumentClient,
  s3Client,
  sesClient,
  sfnClient,
  snsClient,
} from './clients';
import type { HandlerEnv } from './env';

/** The DynamoDB client every repository shares (functions/core/clients.ts). */
describe('the DynamoDB document client', () => {
  const env = {
    region: 'eu-west-1',
    // Nothing listens here: the request fails before any answer.
    dynamodbEndpoint: 'http://127.0.0.1:9',
    tableName: 'market',
  } as HandlerEnv;

  it("leaves the SDK's logger middleware out of its stack (it masks every request for no log)", () => {
    const doc = dynamoDocumentClient(env);
    const names = doc.middlewareStack.identify().join('\n');
    expect(names).toContain('retryMiddleware');
    expect(names).not.toContain('loggerMiddleware');
  });

  it("leaves it out of every other client's stack too", () => {
    const all = { ...env, wsConnectionsEndpoint: 'http://127.0.0.1:9' } as HandlerEnv;
    for (const client of [
      s3Client(all),
      connectionsClient(all),
      cognitoClient(all),
      sesClient(all),
      snsClient(all),
      sfnClient(all),
    ]) {
      const names = client.middlewareStack.identify().join('\n');
      expect(names).toContain('retryMiddleware');
      expect(names).not.toContain('loggerMiddleware');
    }
  });

  it('still hands a failed call its error', async () => {
    const doc = dynamoDocumentClient(env);
    await expect(
      doc.send(new GetCommand({ TableName: 'market', Key: { pk: 'a', sk: 'b' } }), {
        requestTimeout: 500,
      }),
    ).rejects.toBeInstanceOf(Error);
  });
});
