/**
 * A Lambda function with the marketplace's defaults: Node 24 on ARM, its bundle from
 * `dist/functions/<handler>/`, its own log group with retention, JSON logs, X-Ray tracing, source
 * maps, and its own role holding only what the bind helpers grant.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Aws, Duration, RemovalPolicy, Tags } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { ENV, STRIPE_ENV } from '../../../functions/core/env';
import { TABLE } from '../../../functions/core/table';
import { BUNDLE_FILE } from '../bundle';
import { acknowledge, wildcardResourceFinding } from '../nag';
import { MEDIA_PATH } from '../names';

export type TableAccess = 'read' | 'write';
export type BucketAccess = 'read' | 'write' | 'readwrite';
export type BucketRole = 'images' | 'files';

export interface MarketFunctionProps {
  /** Module path under functions/ without extension, e.g. `profiles/handlers/list-sellers`. */
  handler: string;
  /** Root of the bundles (`dist/functions`); the code is `<assetDir>/<handler>/index.mjs`. */
  assetDir: string;
  /** Deployment stage, given to the handler as STAGE. */
  stage: string;
  /** Origin of the web app (WEB_ORIGIN), when the stack can know it. */
  webOrigin?: string;
  logRetentionDays: number;
  /** Extra environment (feature switches, the live channel's URL). */
  environment?: Record<string, string>;
  /** Default 512 MB. */
  memorySize?: number;
  /**
   * The Lambda timeout in seconds: the budget its declaration states (functions/core/budgets.ts
   * `timeoutOf`), never a number of its own.
   */
  timeoutSeconds: number;
  /**
   * The function loads native modules shipped beside its bundle (built for NATIVE_PLATFORM,
   * linux x64): it then runs on x86_64 instead of ARM.
   */
  native?: boolean;
}

const READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'];
/** TransactWriteItems needs the per-item actions below; Scan is never granted (DESIGN §5). */
const WRITE_ACTIONS = [
  ...READ_ACTIONS,
  'dynamodb:ConditionCheckItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
];

export class MarketFunction extends Construct {
  readonly function: lambda.Function;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;
  readonly handlerPath: string;

  constructor(scope: Construct, id: string, props: MarketFunctionProps) {
    super(scope, id);
    this.handlerPath = props.handler;
    const codeDir = path.join(props.assetDir, props.handler);
    if (!existsSync(path.join(codeDir, BUNDLE_FILE))) {
      throw new Error(
        `No bundle for handler "${props.handler}" at ${path.join(codeDir, BUNDLE_FILE)}: ` +
          'run `npm run build:functions` first (npm run synth does).',
      );
    }

    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetentionDays as logs.RetentionDays,
      // Function logs are operational, bounded by retention; destroying the stack removes them.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // An own role instead of Lambda's default one: no AWSLambdaBasicExecutionRole managed policy
    // (which allows writing to any log group), just this function's log group.
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Lambda ${props.handler}`,
    });
    this.logGroup.grantWrite(this.role);

    const environment: Record<string, string> = {
      ...props.environment,
      [ENV.stage]: props.stage,
      [ENV.imagesBaseUrl]: MEDIA_PATH,
      NODE_OPTIONS: '--enable-source-maps',
    };
    if (props.webOrigin !== undefined) environment[ENV.webOrigin] = props.webOrigin;

    this.function = new lambda.Function(this, 'Function', {
      description: props.handler,
      runtime: lambda.Runtime.NODEJS_24_X,
      architecture: props.native === true ? lambda.Architecture.X86_64 : lambda.Architecture.ARM_64,
      handler: 'index.handler',
      code: lambda.Code.fromAsset(codeDir),
      memorySize: props.memorySize ?? 512,
      timeout: Duration.seconds(props.timeoutSeconds),
      role: this.role,
      logGroup: this.logGroup,
      loggingFormat: lambda.LoggingFormat.JSON,
      tracing: lambda.Tracing.ACTIVE,
      environment,
    });
    Tags.of(this.function).add('market:handler', props.handler);
    acknowledge(
      this.role,
      'AwsSolutions-IAM5[Resource::*]',
      'X-Ray PutTraceSegments/PutTelemetryRecords support no resource-level permissions; the ' +
        'only `*` statement on this role is the one Lambda active tracing adds.',
    );
  }

  get functionArn(): string {
    return this.function.functionArn;
  }

  /** Sets TABLE_NAME and grants item-level reads (or reads and writes) on the table and its GSIs. */
  bindTable(table: ITable, access: TableAccess): this {
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: access === 'read' ? READ_ACTIONS : WRITE_ACTIONS,
        resources: [
          table.tableArn,
          ...TABLE.globalIndexes.map((index) => `${table.tableArn}/index/${index.indexName}`),
        ],
      }),
    );
    this.function.addEnvironment(ENV.tableName, table.tableName);
    return this;
  }

  /**
   * Sets IMAGES_BUCKET or FILES_BUCKET and grants object reads (GetObject: also what presigned
   * GETs need) and/or writes (PutObject, DeleteObject: also what presigned POSTs need).
   */
  bindBucket(bucket: IBucket, role: BucketRole, access: BucketAccess): this {
    const actions = [
      ...(access === 'read' || access === 'readwrite' ? ['s3:GetObject'] : []),
      ...(access === 'write' || access === 'readwrite' ? ['s3:PutObject', 's3:DeleteObject'] : []),
    ];
    const objects = bucket.arnForObjects('*');
    this.role.addToPrincipalPolicy(new iam.PolicyStatement({ actions, resources: [objects] }));
    this.function.addEnvironment(
      role === 'images' ? ENV.imagesBucket : ENV.filesBucket,
      bucket.bucketName,
    );
    acknowledge(
      this.role,
      wildcardResourceFinding(this.role, objects),
      `Object-level ${access} access to the ${role} bucket: object keys are chosen at run time, ` +
        'so the grant covers the objects of this one bucket and nothing else.',
    );
    return this;
  }

  /**
   * A stream trigger's kept failed batches (functions/core/failed-batches.ts): its event source
   * mapping writes each batch it gives up on under `aws/lambda/` of the bucket (Lambda needs
   * `s3:PutObject` and `s3:ListBucket` in the function's role for an S3 on-failure destination), and
   * the function itself reads them back, replays and deletes them. Sets FAILED_BATCHES_BUCKET.
   */
  bindFailedBatches(bucket: IBucket, prefix: string): this {
    const objects = bucket.arnForObjects(`${prefix}*`);
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['s3:PutObject', 's3:GetObject', 's3:DeleteObject'],
        resources: [objects],
      }),
    );
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucket.bucketArn] }),
    );
    this.function.addEnvironment(ENV.failedBatchesBucket, bucket.bucketName);
    acknowledge(
      this.role,
      wildcardResourceFinding(this.role, objects),
      'The batches Lambda keeps are objects with keys it chooses at run time under one prefix of ' +
        'one bucket; the grant covers those and nothing else.',
    );
    return this;
  }

  /**
   * Sets WS_CONNECTIONS_ENDPOINT and allows posting to, reading and closing connections of one
   * WebSocket API stage (`execute-api:ManageConnections` on `@connections`). The API id must be a
   * token of this function's stack (see `wildcardResourceFinding`).
   */
  bindConnections(connections: { apiId: string; stageName: string; callbackUrl: string }): this {
    const resource =
      `arn:${Aws.PARTITION}:execute-api:${Aws.REGION}:${Aws.ACCOUNT_ID}:` +
      `${connections.apiId}/${connections.stageName}/*/@connections/*`;
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['execute-api:ManageConnections'],
        resources: [resource],
      }),
    );
    this.function.addEnvironment(ENV.wsConnectionsEndpoint, connections.callbackUrl);
    acknowledge(
      this.role,
      wildcardResourceFinding(this.role, resource),
      'Connection ids are only known at run time; the grant is limited to the @connections ' +
        'management API of one stage of one WebSocket API.',
    );
    return this;
  }

  /**
   * Sets EMAIL_SENDER and allows SES v2 SendEmail from that one address (notification e-mails:
   * the functions that notify, `notify: true` in the route table). Without a configured sender
   * (a stage that sends no e-mail) nothing is granted and notify() skips e-mails it cannot send.
   */
  bindEmailSender(emailSender: string | undefined): this {
    if (emailSender === undefined) return this;
    const domain = emailSender.split('@')[1] ?? '';
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['ses:SendEmail'],
        resources: [
          `arn:${Aws.PARTITION}:ses:${Aws.REGION}:${Aws.ACCOUNT_ID}:identity/${emailSender}`,
          `arn:${Aws.PARTITION}:ses:${Aws.REGION}:${Aws.ACCOUNT_ID}:identity/${domain}`,
        ],
        conditions: { StringEquals: { 'ses:FromAddress': emailSender } },
      }),
    );
    this.function.addEnvironment(ENV.emailSender, emailSender);
    return this;
  }

  /**
   * Sets WORKFLOW_ARN_PREFIX and allows `states:StartExecution` on exactly the named workflows'
   * state machines (the `workflows` option of a route or a workflow task; functions/core/workflows.ts).
   * The ARNs are built from the machines' physical names (names.ts `stateMachineName`), so a route
   * stack needs no reference to the workflows stack.
   */
  bindWorkflowStarts(arnPrefix: string, workflows: readonly string[]): this {
    if (workflows.length === 0) return this;
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['states:StartExecution'],
        resources: [...new Set(workflows)].sort().map((workflow) => `${arnPrefix}${workflow}`),
      }),
    );
    this.function.addEnvironment(ENV.workflowArnPrefix, arnPrefix);
    return this;
  }

  /**
   * Allows settling the callback tasks (`.waitForTaskToken`) of the named workflows
   * (`states:SendTaskSuccess|Failure|Heartbeat` on their state machines, what CDK's
   * `grantTaskResponse` grants), and sets WORKFLOW_ARN_PREFIX: the `callbacks` option of a route or
   * task (functions/core/workflows.ts settleTask).
   */
  bindTaskCallbacks(arnPrefix: string, workflows: readonly string[]): this {
    if (workflows.length === 0) return this;
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['states:SendTaskSuccess', 'states:SendTaskFailure', 'states:SendTaskHeartbeat'],
        resources: [...new Set(workflows)].sort().map((workflow) => `${arnPrefix}${workflow}`),
      }),
    );
    this.function.addEnvironment(ENV.workflowArnPrefix, arnPrefix);
    return this;
  }

  /**
   * Sets STRIPE_SECRET_NAME and allows reading that one Secrets Manager secret (the Stripe keys;
   * only the payment functions, `stripe: true` in the route table). A secret's ARN ends in six
   * random characters Secrets Manager adds, hence the `-??????` suffix (what CDK's
   * `Secret.fromSecretNameV2` grants too).
   */
  bindStripeSecret(secretName: string): this {
    const resource =
      `arn:${Aws.PARTITION}:secretsmanager:${Aws.REGION}:${Aws.ACCOUNT_ID}:secret:` +
      `${secretName}-??????`;
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['secretsmanager:GetSecretValue'],
        resources: [resource],
      }),
    );
    this.function.addEnvironment(STRIPE_ENV.secretName, secretName);
    acknowledge(
      this.role,
      wildcardResourceFinding(this.role, resource),
      'Secrets Manager appends six random characters to a secret ARN; the grant names the one ' +
        'Stripe secret of this deployment and nothing else.',
    );
    return this;
  }
}
