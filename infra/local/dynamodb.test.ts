import { describe, expect, it } from 'vitest';
import { TABLE } from '../../functions/core/table';
import { javaMajor, tableDefinition } from './dynamodb';

describe('javaMajor', () => {
  it.each([
    ['openjdk version "17.0.15" 2025-04-15', 17],
    ['java version "1.8.0_392"', 8],
    ['openjdk version "21" 2023-09-19', 21],
    ['nonsense', undefined],
  ])('%s → %s', (output, major) => {
    expect(javaMajor(output)).toBe(major);
  });
});

describe('tableDefinition', () => {
  it('follows TABLE', () => {
    const definition = tableDefinition('t');
    expect(definition.KeySchema?.map((key) => key.AttributeName)).toEqual([
      TABLE.partitionKey,
      TABLE.sortKey,
    ]);
    expect(definition.GlobalSecondaryIndexes?.map((index) => index.IndexName)).toEqual(
      TABLE.globalIndexes.map((index) => index.indexName),
    );
  });
});
