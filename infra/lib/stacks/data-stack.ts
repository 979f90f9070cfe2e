/**
 * The stateful stack: the single table and the buckets. Everything here is retained when the stack
 * is deleted; the table is also protected against deletion. Stateless stacks find these resources
 * by name (infra/lib/names.ts), not through exports.
 */
import { Aws, CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import type { Construct } from 'constructs';
import { UPLOADS_PREFIX } from '../../../functions/core/storage';
import { TABLE } from '../../../functions/core/table';
import type { MarketConfig } from '../config';
import { acknowledge } from '../nag';
import { resourceNames } from '../names';

export interface DataStackProps extends StackProps {
  config: MarketConfig;
}

export class DataStack extends Stack {
  readonly table: dynamodb.Table;
  readonly imagesBucket: s3.Bucket;
  readonly filesBucket: s3.Bucket;
  readonly webBucket: s3.Bucket;
  readonly logsBucket: s3.Bucket;
  readonly failedBatchesBucket: s3.Bucket;

  constructor(scope: Construct, id: string, props: DataStackProps) {
    super(scope, id, props);
    const { config } = props;
    const names = resourceNames(config);

    this.table = new dynamodb.Table(this, 'Table', {
      tableName: names.tableName,
      partitionKey: { name: TABLE.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: TABLE.sortKey, type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: TABLE.ttlAttribute,
      // New images, for the stream triggers (functions/routes.ts streamTriggers).
      stream: dynamodb.StreamViewType[TABLE.streamViewType],
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    // The stream's ARN carries a label known only once the table exists: the stateless stacks read
    // it from this parameter (by name, like the table), not through an export.
    new ssm.StringParameter(this, 'TableStreamArn', {
      parameterName: names.tableStreamParameter,
      description: `The stream of ${names.tableName} (stream triggers' event source mappings)`,
      stringValue: this.table.tableStreamArn ?? '',
    });
    for (const index of TABLE.globalIndexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: { name: index.partitionKey, type: dynamodb.AttributeType.STRING },
        sortKey: { name: index.sortKey, type: dynamodb.AttributeType.STRING },
        projectionType: dynamodb.ProjectionType.ALL,
      });
    }

    // Server access logs of the other buckets and CloudFront's standard logs. CloudFront's log
    // delivery writes with an ACL grant, hence ACLs enabled (BUCKET_OWNER_PREFERRED).
    this.logsBucket = new s3.Bucket(this, 'LogsBucket', {
      ...bucketDefaults(names.bucketName('logs')),
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(365) }],
    });
    acknowledge(
      this.logsBucket,
      'AwsSolutions-S1',
      'This is the access-log bucket itself; logging its own access would loop into itself.',
    );

    const uploadCors: s3.CorsRule[] = [
      {
        // Browsers upload with presigned POSTs straight to S3. When the web origin is not known
        // before deployment (no custom domain) any origin may POST: the signed policy, not CORS,
        // is what authorizes an upload.
        allowedOrigins: config.webOrigin ? [config.webOrigin, ...config.corsOrigins] : ['*'],
        allowedMethods: [s3.HttpMethods.POST, s3.HttpMethods.GET, s3.HttpMethods.HEAD],
        allowedHeaders: ['*'],
        maxAge: 3000,
      },
    ];
    const versioned: Partial<s3.BucketProps> = {
      versioned: true,
      lifecycleRules: [
        { noncurrentVersionExpiration: Duration.days(30) },
        { abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
    };
    this.imagesBucket = new s3.Bucket(this, 'ImagesBucket', {
      ...bucketDefaults(names.bucketName('images')),
      ...versioned,
      lifecycleRules: [
        ...(versioned.lifecycleRules ?? []),
        // Originals under uploads/ live until their confirm call re-encodes them elsewhere and
        // deletes them (profiles, items); an upload never confirmed expires here.
        { prefix: UPLOADS_PREFIX, expiration: Duration.days(1) },
      ],
      cors: uploadCors,
      serverAccessLogsBucket: this.logsBucket,
      serverAccessLogsPrefix: 'images/',
    });
    this.filesBucket = new s3.Bucket(this, 'FilesBucket', {
      ...bucketDefaults(names.bucketName('files')),
      ...versioned,
      cors: uploadCors,
      serverAccessLogsBucket: this.logsBucket,
      serverAccessLogsPrefix: 'files/',
    });
    this.webBucket = new s3.Bucket(this, 'WebBucket', {
      ...bucketDefaults(names.bucketName('web')),
      serverAccessLogsBucket: this.logsBucket,
      serverAccessLogsPrefix: 'web/',
    });

    // The stream triggers' S3 on-failure destination: each batch Lambda gives up on, with its
    // records (functions/core/failed-batches.ts). A trigger hands its kept batches to itself again
    // on a schedule and deletes each once it succeeds; one still failing after 90 days expires.
    this.failedBatchesBucket = new s3.Bucket(this, 'FailedBatchesBucket', {
      ...bucketDefaults(names.bucketName('failed')),
      lifecycleRules: [{ expiration: Duration.days(90) }],
      serverAccessLogsBucket: this.logsBucket,
      serverAccessLogsPrefix: 'failed/',
    });

    // CloudFront reads the web build and the public images through origin access control. The
    // distribution lives in the web stack, which depends on this one, so the policy cannot name
    // its id without a dependency cycle: it admits CloudFront distributions of this account only.
    // Both buckets hold public content; the attached-files bucket is not readable by CloudFront.
    for (const bucket of [this.webBucket, this.imagesBucket]) {
      bucket.addToResourcePolicy(
        new iam.PolicyStatement({
          sid: 'CloudFrontOriginAccessControlRead',
          principals: [new iam.ServicePrincipal('cloudfront.amazonaws.com')],
          actions: ['s3:GetObject'],
          resources: [bucket.arnForObjects('*')],
          conditions: {
            StringEquals: { 'AWS:SourceAccount': Aws.ACCOUNT_ID },
            ArnLike: {
              'AWS:SourceArn': `arn:${Aws.PARTITION}:cloudfront::${Aws.ACCOUNT_ID}:distribution/*`,
            },
          },
        }),
      );
    }

    const outputs: Record<string, string> = {
      TableName: this.table.tableName,
      ImagesBucketName: this.imagesBucket.bucketName,
      FilesBucketName: this.filesBucket.bucketName,
      WebBucketName: this.webBucket.bucketName,
      LogsBucketName: this.logsBucket.bucketName,
      FailedBatchesBucketName: this.failedBatchesBucket.bucketName,
    };
    for (const [name, value] of Object.entries(outputs)) new CfnOutput(this, name, { value });
  }
}

function bucketDefaults(bucketName: string): s3.BucketProps {
  return {
    bucketName,
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    encryption: s3.BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    minimumTLSVersion: 1.2,
    removalPolicy: RemovalPolicy.RETAIN,
  };
}
