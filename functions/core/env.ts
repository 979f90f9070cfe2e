/**
 * The environment contract of every handler. Endpoints come from configuration only: in AWS the
 * endpoint variables are absent and the SDK uses its defaults; the local twin sets them.
 */
export interface HandlerEnv {
  /** 'local' on the twin, otherwise the deployment stage name ('dev', 'prod', ...). */
  stage: string;
  region: string;
  tableName: string;
  imagesBucket: string;
  filesBucket: string;
  /**
   * The stream batches Lambda gave up on (the stream triggers' S3 on-failure destination;
   * core/failed-batches.ts).
   */
  failedBatchesBucket: string;
  /** Public base URL of images ('/media' behind CloudFront and behind the local gateway). */
  imagesBaseUrl: string;
  /** Origin of the web app, for CORS. */
  webOrigin: string;
  /** Twin-only endpoint overrides; undefined in AWS. */
  dynamodbEndpoint: string | undefined;
  s3Endpoint: string | undefined;
  sfnEndpoint: string | undefined;
  /**
   * ARN of a state machine without its workflow name: `<prefix><name>` is the state machine of
   * `infra/workflows/<name>.asl.json` (`arn:aws:states:<region>:<account>:stateMachine:<app>-<stage>-`
   * in AWS; the local runner's `…:stateMachine:` on the twin). Set for the functions that may start
   * a workflow (the `workflows` option of a route or task).
   */
  workflowArnPrefix: string | undefined;
  /** Management endpoint of the WebSocket API (`@connections`). */
  wsConnectionsEndpoint: string | undefined;
  /** Public URL of the live channel that browsers connect to (wss://… in AWS). */
  realtimeUrl: string | undefined;
  /** Cognito user pool (`<region>_<id>`) and the web's app client. */
  userPoolId: string | undefined;
  userPoolClientId: string | undefined;
  /** Twin-only: the local Cognito-compatible endpoint (undefined in AWS). */
  cognitoEndpoint: string | undefined;
  /** Verified SES identity e-mails are sent from. */
  emailSender: string;
  /** Comma-separated e-mails of the admin accounts (spec 001 §6: configured admin nicks). */
  adminEmails: string[];
  /** Auctions' soft-close window, minutes (an operator setting; CDK context auctionSoftCloseMinutes). */
  auctionSoftCloseMinutes: number;
}

/** Names of the variables, shared with CDK and the twin so nobody types them twice. */
export const ENV = {
  stage: 'STAGE',
  region: 'AWS_REGION',
  tableName: 'TABLE_NAME',
  imagesBucket: 'IMAGES_BUCKET',
  filesBucket: 'FILES_BUCKET',
  failedBatchesBucket: 'FAILED_BATCHES_BUCKET',
  imagesBaseUrl: 'IMAGES_BASE_URL',
  webOrigin: 'WEB_ORIGIN',
  dynamodbEndpoint: 'DYNAMODB_ENDPOINT',
  s3Endpoint: 'S3_ENDPOINT',
  sfnEndpoint: 'SFN_ENDPOINT',
  workflowArnPrefix: 'WORKFLOW_ARN_PREFIX',
  wsConnectionsEndpoint: 'WS_CONNECTIONS_ENDPOINT',
  realtimeUrl: 'REALTIME_URL',
  userPoolId: 'USER_POOL_ID',
  userPoolClientId: 'USER_POOL_CLIENT_ID',
  cognitoEndpoint: 'COGNITO_ENDPOINT',
  emailSender: 'EMAIL_SENDER',
  adminEmails: 'ADMIN_EMAILS',
  auctionSoftCloseMinutes: 'AUCTION_SOFT_CLOSE_MINUTES',
} as const satisfies Record<keyof HandlerEnv, string>;

function positive(raw: string | undefined, fallback: number): number {
  const value = raw === undefined ? Number.NaN : Number(raw);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

/** Reads the environment at call time (the twin may change it between tests). */
export function readEnv(source: NodeJS.ProcessEnv = process.env): HandlerEnv {
  const optional = (name: string): string | undefined => {
    const value = source[name];
    return value === undefined || value === '' ? undefined : value;
  };
  const get = (name: string, fallback: string): string => optional(name) ?? fallback;
  return {
    stage: get(ENV.stage, 'local'),
    region: get(ENV.region, 'us-east-1'),
    tableName: get(ENV.tableName, 'market'),
    imagesBucket: get(ENV.imagesBucket, 'market-images'),
    filesBucket: get(ENV.filesBucket, 'market-files'),
    failedBatchesBucket: get(ENV.failedBatchesBucket, 'market-failed'),
    imagesBaseUrl: get(ENV.imagesBaseUrl, '/media'),
    webOrigin: get(ENV.webOrigin, 'http://localhost:3000'),
    dynamodbEndpoint: optional(ENV.dynamodbEndpoint),
    s3Endpoint: optional(ENV.s3Endpoint),
    sfnEndpoint: optional(ENV.sfnEndpoint),
    workflowArnPrefix: optional(ENV.workflowArnPrefix),
    wsConnectionsEndpoint: optional(ENV.wsConnectionsEndpoint),
    realtimeUrl: optional(ENV.realtimeUrl),
    userPoolId: optional(ENV.userPoolId),
    userPoolClientId: optional(ENV.userPoolClientId),
    cognitoEndpoint: optional(ENV.cognitoEndpoint),
    emailSender: get(ENV.emailSender, 'no-reply@localhost'),
    adminEmails: (optional(ENV.adminEmails) ?? '')
      .split(',')
      .map((email) => email.trim().toLowerCase())
      .filter((email) => email !== ''),
    auctionSoftCloseMinutes: positive(optional(ENV.auctionSoftCloseMinutes), 5),
  };
}

/**
 * The payment functions' Stripe configuration (functions/payments/payments.stripe.ts). In AWS only
 * `secretName` is set (the Secrets Manager secret holding `secretKey` and `webhookSecret`, readable
 * by the payment functions only) and the SDK uses Stripe's own host; the twin sets the keys and its
 * Stripe server's host, port and protocol instead.
 */
export const STRIPE_ENV = {
  secretName: 'STRIPE_SECRET_NAME',
  secretKey: 'STRIPE_SECRET_KEY',
  webhookSecret: 'STRIPE_WEBHOOK_SECRET',
  host: 'STRIPE_API_HOST',
  port: 'STRIPE_API_PORT',
  protocol: 'STRIPE_API_PROTOCOL',
} as const;
