/**
 * Deployment settings, read from CDK context (`-c key=value` on the command line, or `context` in
 * cdk.json). docs/operations.md lists them for operators; every value is checked here so a typo
 * fails the synth with a message instead of deploying something odd.
 */
import type { Node } from 'constructs';
import {
  readSwitches,
  switchEnvName,
  SwitchConfigError,
  type Switches,
} from '../../shared/switches';
import { ENV } from '../../functions/core/env';

export interface AuthConfig {
  /** `https://cognito-idp.<region>.amazonaws.com/<userPoolId>` */
  issuer: string;
  /** App client ids accepted in the token's `aud` / `client_id` claim. */
  audience: string[];
}

export interface MarketConfig {
  /** Prefix of every stack and physical name. */
  appName: string;
  /** Deployment stage: `dev`, `staging`, `prod`, ... (lower case, digits, dashes). */
  stage: string;
  /** Custom domain of the web app (CloudFront alias). Needs `certificateArn`. */
  domainName: string | undefined;
  /** ACM certificate in us-east-1 covering `domainName`. */
  certificateArn: string | undefined;
  /**
   * Origin of the web app when it is known before deployment (from `domainName` or `webOrigin`).
   * Undefined: the CloudFront domain of the distribution is used where a stack can reference it.
   */
  webOrigin: string | undefined;
  /** Extra origins allowed by CORS (e.g. a developer's Vite server against a dev stage). */
  corsOrigins: string[];
  /** Verified SES identity the application sends e-mail from. */
  emailSender: string | undefined;
  /** Name of the Secrets Manager secret holding the Stripe keys. */
  stripeSecretName: string;
  /**
   * An EXISTING Cognito user pool to trust instead of the one the identity stack creates
   * (`-c userPoolId=<region>_<id> -c userPoolClientId=<id>`). Undefined: the app's own pool.
   */
  auth: AuthConfig | undefined;
  /** E-mails of the admin accounts (ADMIN_EMAILS of every function; `-c adminEmails=a@x,b@y`). */
  adminEmails: string[];
  /**
   * E-mail subscribed to the alarm topic (`-c alarmEmail=ops@example.com`; SNS first sends it a
   * confirmation link). Undefined: the topic has no subscription, alarms still change state.
   */
  alarmEmail: string | undefined;
  /** CloudWatch retention of function, API and workflow logs. */
  logRetentionDays: number;
  /** Stage-wide API throttling (requests per second and burst). */
  apiRateLimit: number;
  apiBurstLimit: number;
  /**
   * Create the account-level IAM role API Gateway needs to write WebSocket access logs. Disable
   * when the account already has one configured by other means.
   */
  apiGatewayLogRole: boolean;
  /**
   * Feature-switch overrides (`-c features='{"passwordLogin":true}'`), as the FEATURE_* variables
   * every function receives. Checked against shared/switches.ts at synth time.
   */
  featureEnv: Record<string, string>;
}

export class ConfigError extends Error {
  constructor(key: string, value: unknown, expected: string) {
    super(`CDK context "${key}"=${JSON.stringify(value)} is not valid: expected ${expected}`);
    this.name = 'ConfigError';
  }
}

/** Log retention values CloudWatch accepts. */
const RETENTION_DAYS = [
  1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288,
  3653,
];

type ContextSource = Pick<Node, 'tryGetContext'> | Record<string, unknown>;

function lookup(source: ContextSource, key: string): unknown {
  if (typeof source.tryGetContext === 'function') {
    return (source as Pick<Node, 'tryGetContext'>).tryGetContext(key);
  }
  return (source as Record<string, unknown>)[key];
}

function text(source: ContextSource, key: string): string | undefined {
  const value = lookup(source, key);
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new ConfigError(key, value, 'a string');
  return value.trim();
}

function matching(
  source: ContextSource,
  key: string,
  pattern: RegExp,
  expected: string,
): string | undefined {
  const value = text(source, key);
  if (value !== undefined && !pattern.test(value)) throw new ConfigError(key, value, expected);
  return value;
}

function integer(source: ContextSource, key: string, fallback: number): number {
  const value = lookup(source, key);
  if (value === undefined || value === null || value === '') return fallback;
  const parsed = typeof value === 'number' ? value : Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) {
    throw new ConfigError(key, value, 'a positive integer');
  }
  return parsed;
}

function boolean(source: ContextSource, key: string, fallback: boolean): boolean {
  const value = lookup(source, key);
  if (value === undefined || value === null || value === '') return fallback;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw new ConfigError(key, value, 'true or false');
}

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const ORIGIN = /^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const USER_POOL_ID = /^([a-z]{2}(-[a-z]+)+-\d)_[A-Za-z0-9]+$/;

/** Reads and validates the configuration from CDK context (an App's node, or a plain object). */
export function readConfig(source: ContextSource): MarketConfig {
  const appName =
    matching(source, 'appName', /^[a-z][a-z0-9]{1,11}$/, 'lower-case letters and digits') ??
    'market';
  const stage =
    matching(
      source,
      'stage',
      /^[a-z][a-z0-9-]{0,11}$/,
      'lower-case letters, digits and dashes, at most 12 characters, starting with a letter',
    ) ?? 'dev';
  const domainName = matching(source, 'domainName', HOSTNAME, 'a lower-case host name');
  const certificateArn = matching(
    source,
    'certificateArn',
    /^arn:aws[a-z-]*:acm:us-east-1:\d{12}:certificate\/[0-9a-f-]+$/,
    'an ACM certificate ARN in us-east-1 (CloudFront only accepts certificates from there)',
  );
  if (domainName !== undefined && certificateArn === undefined) {
    throw new ConfigError(
      'certificateArn',
      undefined,
      `an ACM certificate (us-east-1) for ${domainName}, required with domainName`,
    );
  }
  const explicitOrigin = matching(source, 'webOrigin', ORIGIN, 'an origin like https://host');
  const webOrigin = explicitOrigin ?? (domainName ? `https://${domainName}` : undefined);
  const corsOrigins = (text(source, 'corsOrigins') ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter((origin) => origin !== '');
  for (const origin of corsOrigins) {
    if (!ORIGIN.test(origin))
      throw new ConfigError('corsOrigins', origin, 'origins like https://host');
  }
  const emailSender =
    matching(source, 'emailSender', EMAIL, 'an e-mail address verified in SES') ??
    (domainName ? `no-reply@${domainName}` : undefined);
  const stripeSecretName =
    matching(source, 'stripeSecretName', /^[A-Za-z0-9/_+=.@-]{1,512}$/, 'a secret name') ??
    `${appName}/${stage}/stripe`;

  const userPoolId = matching(source, 'userPoolId', USER_POOL_ID, 'a Cognito user pool id');
  const clientIds = (text(source, 'userPoolClientId') ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
  let auth: AuthConfig | undefined;
  if (userPoolId !== undefined) {
    if (clientIds.length === 0) {
      throw new ConfigError('userPoolClientId', undefined, 'the app client id(s) of the user pool');
    }
    const region = USER_POOL_ID.exec(userPoolId)?.[1] ?? '';
    auth = {
      issuer: `https://cognito-idp.${region}.amazonaws.com/${userPoolId}`,
      audience: clientIds,
    };
  }

  const adminEmails = (text(source, 'adminEmails') ?? '')
    .split(',')
    .map((email) => email.trim().toLowerCase())
    .filter((email) => email !== '');
  for (const email of adminEmails) {
    if (!EMAIL.test(email)) throw new ConfigError('adminEmails', email, 'comma-separated e-mails');
  }
  if (new Set(adminEmails).size !== adminEmails.length) {
    throw new ConfigError('adminEmails', adminEmails.join(','), 'each e-mail once');
  }

  const alarmEmail = matching(source, 'alarmEmail', EMAIL, 'an e-mail address');

  const logRetentionDays = integer(source, 'logRetentionDays', 30);
  if (!RETENTION_DAYS.includes(logRetentionDays)) {
    throw new ConfigError('logRetentionDays', logRetentionDays, RETENTION_DAYS.join(', '));
  }

  return {
    // Operator settings every function reads, beside the switches: the auctions' soft-close window.
    featureEnv: {
      ...features(source),
      [ENV.auctionSoftCloseMinutes]: String(integer(source, 'auctionSoftCloseMinutes', 5)),
    },
    appName,
    stage,
    domainName,
    certificateArn,
    webOrigin,
    corsOrigins,
    emailSender,
    stripeSecretName,
    auth,
    adminEmails,
    alarmEmail,
    logRetentionDays,
    apiRateLimit: integer(source, 'apiRateLimit', 100),
    apiBurstLimit: integer(source, 'apiBurstLimit', 200),
    apiGatewayLogRole: boolean(source, 'apiGatewayLogRole', true),
  };
}

/** `features` context: a JSON object of switch name → value, validated like the functions will. */
function features(source: ContextSource): Record<string, string> {
  const raw = lookup(source, 'features');
  if (raw === undefined || raw === null || raw === '') return {};
  let parsed: unknown = raw;
  if (typeof raw === 'string') {
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw new ConfigError('features', raw, 'a JSON object such as {"passwordLogin":true}');
    }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError('features', raw, 'a JSON object such as {"passwordLogin":true}');
  }
  const known = Object.keys(readSwitches({}));
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (!known.includes(key))
      throw new ConfigError(`features.${key}`, value, `one of ${known.join(', ')}`);
    env[switchEnvName(key as keyof Switches)] = Array.isArray(value)
      ? value.join(',')
      : String(value);
  }
  try {
    readSwitches(env);
  } catch (error) {
    if (error instanceof SwitchConfigError) throw new ConfigError('features', raw, error.message);
    throw error;
  }
  return env;
}
