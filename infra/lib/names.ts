/**
 * Physical names of the stateful resources, derived from app name and stage.
 *
 * The stateless stacks find the table and buckets by these names instead of through CloudFormation
 * exports: changing or replacing a stateless stack can never be blocked by an export "in use", IAM
 * statements read `.../table/market-prod` rather than an opaque import, and the DataStack can be
 * deployed and kept on its own. Bucket names are global, so they carry account and region.
 */
import { Aws } from 'aws-cdk-lib';
import type { MarketConfig } from './config';

/** `failed`: the stream batches Lambda gave up on (functions/core/failed-batches.ts). */
export type BucketKind = 'images' | 'files' | 'web' | 'logs' | 'failed';

export interface ResourceNames {
  /** `market-prod`: prefix of stack ids, stack names and physical names. */
  prefix: string;
  tableName: string;
  /**
   * The SSM parameter holding the table's stream ARN (its label is known only once the table
   * exists): the stream triggers' event source mappings read it at deployment.
   */
  tableStreamParameter: string;
  bucketName(kind: BucketKind): string;
}

export function resourceNames(config: Pick<MarketConfig, 'appName' | 'stage'>): ResourceNames {
  const prefix = `${config.appName}-${config.stage}`;
  return {
    prefix,
    tableName: prefix,
    tableStreamParameter: `/${prefix}/table-stream-arn`,
    // At most 12 + 1 + 12 + 1 + 6 + 1 + 12 + 1 + 14 = 60 characters: within S3's 63.
    bucketName: (kind) => `${prefix}-${kind}-${Aws.ACCOUNT_ID}-${Aws.REGION}`,
  };
}

/**
 * A workflow's state machine is named `<prefix>-<workflow>` (`market-prod-follower-fanout`), so the
 * functions that start it know its ARN without a cross-stack reference: WORKFLOW_ARN_PREFIX + name.
 */
export function stateMachineName(
  config: Pick<MarketConfig, 'appName' | 'stage'>,
  workflow: string,
): string {
  return `${resourceNames(config).prefix}-${workflow}`;
}

export function workflowArnPrefix(config: Pick<MarketConfig, 'appName' | 'stage'>): string {
  return (
    `arn:${Aws.PARTITION}:states:${Aws.REGION}:${Aws.ACCOUNT_ID}:stateMachine:` +
    `${resourceNames(config).prefix}-`
  );
}

/**
 * The alarm topic (monitoring stack) is named `<prefix>-alarms`, so the alarms of every other stack
 * notify it through its ARN without a cross-stack reference, as functions find the table.
 */
export function alarmTopicName(config: Pick<MarketConfig, 'appName' | 'stage'>): string {
  return `${resourceNames(config).prefix}-alarms`;
}

export function alarmTopicArn(config: Pick<MarketConfig, 'appName' | 'stage'>): string {
  return `arn:${Aws.PARTITION}:sns:${Aws.REGION}:${Aws.ACCOUNT_ID}:${alarmTopicName(config)}`;
}

/** Path of the public images behind CloudFront and behind the local gateway. */
export const MEDIA_PATH = '/media';

/** Stage of the WebSocket API: clients connect to `wss://<api>.execute-api.<region>.amazonaws.com/live`. */
export const WEBSOCKET_STAGE = 'live';

/** `profiles/handlers/list-sellers` → `ProfilesListSellers` (construct ids). */
export function pascalId(value: string): string {
  return value
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part !== '' && part !== 'handlers')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}
