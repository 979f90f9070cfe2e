/**
 * The single DynamoDB table, defined once. CDK (infra/lib/stacks/data-stack.ts) and the local twin
 * (infra/local) both create the table from this object, so the two runtimes cannot drift apart.
 *
 * Every item carries `pk`, `sk` and `type`; index keys are optional and sparse. Key strings are built
 * only in each domain's `<domain>.keys.ts`; docs/data-model.md gathers their access patterns.
 */
export const TABLE = {
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: 'ttl',
  /** The table's stream (the stream triggers of functions/routes.ts read new images). */
  streamViewType: 'NEW_IMAGE',
  /** All global secondary indexes: string keys, projection ALL. */
  globalIndexes: [
    { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    { indexName: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
    { indexName: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
    { indexName: 'gsi4', partitionKey: 'gsi4pk', sortKey: 'gsi4sk' },
    { indexName: 'gsi5', partitionKey: 'gsi5pk', sortKey: 'gsi5sk' },
  ],
} as const;

export type IndexName = (typeof TABLE.globalIndexes)[number]['indexName'];

/** Attribute definitions as DynamoDB wants them (all keys are strings). */
export function tableAttributeNames(): string[] {
  return [
    TABLE.partitionKey,
    TABLE.sortKey,
    ...TABLE.globalIndexes.flatMap((index) => [index.partitionKey, index.sortKey]),
  ];
}
