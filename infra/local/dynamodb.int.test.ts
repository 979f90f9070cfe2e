import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { TABLE } from '../../functions/core/table';
import { dynamoClient, ensureTable, tableDefinition } from './dynamodb';
import { twin } from './test/twin-context';

const context = twin();
const tableName = context.env.TABLE_NAME as string;
const client: DynamoDBClient = dynamoClient(context.urls.dynamodb);
afterAll(() => client.destroy());

describe('the table on DynamoDB Local', () => {
  it('is created from TABLE: keys, every GSI with projection ALL, on-demand', async () => {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    expect(Table?.KeySchema).toEqual([
      { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
      { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
    ]);
    expect(Table?.BillingModeSummary?.BillingMode).toBe('PAY_PER_REQUEST');
    const indexes = new Map(
      (Table?.GlobalSecondaryIndexes ?? []).map((index) => [index.IndexName, index]),
    );
    expect([...indexes.keys()].sort()).toEqual(TABLE.globalIndexes.map((i) => i.indexName).sort());
    for (const expected of TABLE.globalIndexes) {
      const index = indexes.get(expected.indexName);
      expect(index?.KeySchema).toEqual([
        { AttributeName: expected.partitionKey, KeyType: 'HASH' },
        { AttributeName: expected.sortKey, KeyType: 'RANGE' },
      ]);
      expect(index?.Projection?.ProjectionType).toBe('ALL');
    }
  });

  it('streams new images (the stream triggers read them)', async () => {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    expect(Table?.StreamSpecification).toEqual({
      StreamEnabled: true,
      StreamViewType: TABLE.streamViewType,
    });
    expect(Table?.LatestStreamArn).toContain(`table/${tableName}/stream/`);
  });

  it('has TTL enabled on the ttl attribute', async () => {
    const { TimeToLiveDescription } = await client.send(
      new DescribeTimeToLiveCommand({ TableName: tableName }),
    );
    expect(TimeToLiveDescription).toMatchObject({
      TimeToLiveStatus: 'ENABLED',
      AttributeName: TABLE.ttlAttribute,
    });
  });

  it('ensureTable is idempotent', async () => {
    await ensureTable(context.urls.dynamodb, tableName);
    await ensureTable(context.urls.dynamodb, `${tableName}-second`);
    await ensureTable(context.urls.dynamodb, `${tableName}-second`);
    const { Table } = await client.send(
      new DescribeTableCommand({ TableName: `${tableName}-second` }),
    );
    expect(Table?.TableStatus).toBe('ACTIVE');
  });

  it('ensureTable turns the stream on for a table kept from before it had one', async () => {
    const name = `${tableName}-unstreamed`;
    const { StreamSpecification: _stream, ...withoutStream } = tableDefinition(name);
    await client.send(new CreateTableCommand(withoutStream));
    await ensureTable(context.urls.dynamodb, name);
    const { Table } = await client.send(new DescribeTableCommand({ TableName: name }));
    expect(Table?.StreamSpecification).toEqual({
      StreamEnabled: true,
      StreamViewType: TABLE.streamViewType,
    });
  });
});
