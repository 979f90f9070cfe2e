/** References from a stateless stack to the DataStack's resources, by name (see names.ts). */
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import type { DataAccess } from '../access';
import type { MarketConfig } from '../config';
import type { MarketFunction } from '../constructs/market-function';
import { resourceNames } from '../names';

export interface StatefulRefs {
  table: dynamodb.ITable;
  images: s3.IBucket;
  files: s3.IBucket;
  /** The stream triggers' on-failure destination (functions/core/failed-batches.ts). */
  failedBatches: s3.IBucket;
}

export function importStateful(scope: Construct, config: MarketConfig): StatefulRefs {
  const names = resourceNames(config);
  return {
    table: dynamodb.Table.fromTableName(scope, 'TableRef', names.tableName),
    images: s3.Bucket.fromBucketName(scope, 'ImagesBucketRef', names.bucketName('images')),
    files: s3.Bucket.fromBucketName(scope, 'FilesBucketRef', names.bucketName('files')),
    failedBatches: s3.Bucket.fromBucketName(
      scope,
      'FailedBatchesBucketRef',
      names.bucketName('failed'),
    ),
  };
}

/** Grants a function the data access its kind of call needs (access.ts). */
export function applyAccess(fn: MarketFunction, access: DataAccess, refs: StatefulRefs): void {
  if (access.table) fn.bindTable(refs.table, access.table);
  if (access.images) fn.bindBucket(refs.images, 'images', access.images);
  if (access.files) fn.bindBucket(refs.files, 'files', access.files);
}
