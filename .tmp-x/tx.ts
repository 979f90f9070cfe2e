import { DynamoDBDocumentClient, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { startDynamoLocal, dynamoClient, ensureTable } from '../infra/local/dynamodb';

const local = await startDynamoLocal({});
const endpoint = local.url;
await ensureTable(endpoint, 'bench');
const doc = DynamoDBDocumentClient.from(dynamoClient(endpoint));
const T = 'bench';
const book = Array.from({ length: 20 }, (_, i) => ({ user: `u${i}xxxxxxxxxxxxxxxxxxxx`, nick: `nick${i}`, max: 1000 + i, qty: 1, at: new Date().toISOString(), card: 'pm_xxxxxxxxxxxxxxxxxxxx' }));
await doc.send(new PutCommand({ TableName: T, Item: { pk: 'RAW', sk: 'RAW', n: 0, v: 0 } }));
await doc.send(new PutCommand({ TableName: T, Item: { pk: 'LOT', sk: 'LOT', v: 0, book } }));
let v = 0; let line = 0;
const kinds: Record<string, () => Promise<unknown>> = {
  update: () => doc.send(new UpdateCommand({ TableName: T, Key: { pk: 'RAW', sk: 'RAW' }, UpdateExpression: 'SET n = n + :one', ConditionExpression: 'attribute_exists(pk)', ExpressionAttributeValues: { ':one': 1 } })),
  putLot: async () => { await doc.send(new PutCommand({ TableName: T, Item: { pk: 'LOT', sk: 'LOT', v: v + 1, book }, ConditionExpression: 'v = :v', ExpressionAttributeValues: { ':v': v } })); v += 1; },
  tx1: async () => { await doc.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: T, Item: { pk: 'LOT', sk: 'LOT', v: v + 1, book }, ConditionExpression: 'v = :v', ExpressionAttributeValues: { ':v': v } } }] })); v += 1; },
  tx3: async () => { line += 1; await doc.send(new TransactWriteCommand({ TransactItems: [
    { Put: { TableName: T, Item: { pk: 'LOT', sk: 'LOT', v: v + 1, book }, ConditionExpression: 'v = :v', ExpressionAttributeValues: { ':v': v } } },
    { Put: { TableName: T, Item: { pk: 'LOT', sk: `LOG#${String(line).padStart(8, '0')}`, amount: 1000, user: 'u1', at: 'x' }, ConditionExpression: 'attribute_not_exists(pk)' } },
    { Put: { TableName: T, Item: { pk: 'USER#u1', sk: 'BID#LOT', amount: 1000, status: 'active', gsi1pk: 'x', gsi1sk: 'y' } } },
  ] })); v += 1; },
};
const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results: Record<string, number[]> = {};
for (let round = 0; round < 7; round += 1) {
  for (const [name, fn] of Object.entries(kinds)) {
    const until = performance.now() + 2000; let n = 0; const t0 = performance.now();
    while (performance.now() < until) { await fn(); n += 1; }
    (results[name] ??= []).push(n / ((performance.now() - t0) / 1000));
  }
}
for (const [name, xs] of Object.entries(results)) console.log(name, median(xs).toFixed(1), (median(xs) / median(results.update)).toFixed(2));
await local.stop();
