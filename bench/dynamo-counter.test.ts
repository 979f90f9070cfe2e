import { describe, expect, it } from 'vitest';
import { itemSize, requestWriteUnits } from './dynamo-counter';

describe('write units by the pricing rules', () => {
  const small = { pk: { S: 'ITEM#1' }, sk: { S: 'COPY#001' }, n: { N: '12345' } };
  const big = { pk: { S: 'A' }, v: { S: 'x'.repeat(3000) } };

  it('sizes items as DynamoDB does: names plus values', () => {
    // pk(2)+6, sk(2)+8, n(1)+ceil(5/2)+1
    expect(itemSize(small)).toBe(2 + 6 + 2 + 8 + 1 + 4);
    expect(itemSize({ m: { M: { a: { BOOL: true } } }, l: { L: [{ S: 'ab' }] } })).toBe(
      1 + 3 + (1 + 1) + 1 + 3 + (1 + 2),
    );
  });

  it.each([
    ['a small put', 'PutItem', { Item: small }, 1],
    ['a 3 KB put', 'PutItem', { Item: big }, 3],
    ['an update (lower bound)', 'UpdateItem', {}, 1],
    [
      'a batch of two puts and a delete',
      'BatchWriteItem',
      {
        RequestItems: {
          t: [
            { PutRequest: { Item: big } },
            { PutRequest: { Item: small } },
            { DeleteRequest: {} },
          ],
        },
      },
      5,
    ],
    [
      'a transaction of ten 3 KB puts and an update',
      'TransactWriteItems',
      {
        TransactItems: [
          ...Array.from({ length: 10 }, () => ({ Put: { Item: big } })),
          { Update: {} },
        ],
      },
      62,
    ],
  ])('%s', (_case, operation, body, expected) => {
    expect(requestWriteUnits(operation, body)).toBe(expected);
  });
});
