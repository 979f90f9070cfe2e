import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The POST-policy check S3 applies to browser uploads (POST Object with a SigV4-signed policy),
 * which s3rver skips entirely. Pure functions: the guard in s3.ts feeds them the form fields that
 * precede the file part, then enforces `content-length-range` while the file streams.
 *
 * Behaviour follows AWS's "POST Policy" and "Browser-based uploads using POST (SigV4)" pages and
 * S3's observed answers (status, code and message texts):
 * - field names are case-insensitive, values case-sensitive; fields after `file` are ignored;
 * - anonymous form (no policy, no signature fields): 403 AccessDenied (our buckets are private);
 * - missing SigV4 fields: 400 InvalidArgument "Bucket POST must contain a field named '…'";
 * - signature over the base64 policy text as received: 403 SignatureDoesNotMatch;
 * - malformed policy: 400 InvalidPolicyDocument "Invalid Policy: …";
 * - expired: 403 AccessDenied "Invalid according to Policy: Policy expired.";
 * - a failed condition: 403 AccessDenied "… Policy Condition failed: [\"eq\", \"$key\", …]";
 * - a form field no condition covers: 403 AccessDenied "… Extra input fields: <name>";
 * - size: 400 EntityTooLarge / EntityTooSmall with ProposedSize and Max/MinSizeAllowed.
 */

export interface S3ErrorInfo {
  status: number;
  code: string;
  message: string;
  /** Extra elements of the XML error, in order. */
  details?: [string, string][];
}

export class S3PolicyError extends Error {
  constructor(readonly info: S3ErrorInfo) {
    super(info.message);
  }
}

/** A form field as sent, before `${filename}` expansion. */
export interface FormField {
  name: string;
  value: string;
}

export interface PolicyContext {
  /** The bucket in the request URL. */
  bucket: string;
  /** Fields preceding the file part, in order. */
  fields: FormField[];
  /** The file part's filename parameter, if any (used for `${filename}`). */
  filename: string | undefined;
  now: Date;
  region: string;
  /** Access key id → secret access key. */
  secretFor: (accessKeyId: string) => string | undefined;
}

/** The outcome of a successful check: the expanded fields and the allowed file sizes. */
export interface PolicyApproval {
  /** Fields after `${filename}` expansion, names as sent. */
  fields: FormField[];
  key: string;
  minSize: number;
  maxSize: number;
}

/** S3's largest single upload without multipart (5 GiB), the ceiling when no range is given. */
export const S3_MAX_POST_OBJECT_BYTES = 5 * 1024 ** 3;

/** S3's limit on the form fields preceding the file part. */
export const MAX_POST_PRE_DATA_BYTES = 20_480;

const EXEMPT_FIELDS = new Set(['x-amz-signature', 'file', 'policy']);
const SIGV4_FIELDS = ['X-Amz-Algorithm', 'X-Amz-Credential', 'X-Amz-Date', 'X-Amz-Signature'];

function fail(status: number, code: string, message: string, details?: [string, string][]): never {
  throw new S3PolicyError({ status, code, message, ...(details ? { details } : {}) });
}

function invalidPolicy(message: string): never {
  fail(400, 'InvalidPolicyDocument', `Invalid Policy: ${message}`);
}

function missingField(name: string): never {
  fail(
    400,
    'InvalidArgument',
    `Bucket POST must contain a field named '${name}'.  If it is specified, please check the order of the fields.`,
    [
      ['ArgumentName', name],
      ['ArgumentValue', ''],
    ],
  );
}

/** Looks a field up case-insensitively; S3 joins repeated fields with commas. */
export function fieldValue(fields: FormField[], name: string): string | undefined {
  const lower = name.toLowerCase();
  const values = fields.filter((field) => field.name.toLowerCase() === lower).map((f) => f.value);
  return values.length === 0 ? undefined : values.join(',');
}

/** The SigV4 signing key for a date (yyyymmdd), region and service. */
export function signingKey(secret: string, date: string, region: string, service: string): Buffer {
  const kDate = createHmac('sha256', `AWS4${secret}`).update(date).digest();
  const kRegion = createHmac('sha256', kDate).update(region).digest();
  const kService = createHmac('sha256', kRegion).update(service).digest();
  return createHmac('sha256', kService).update('aws4_request').digest();
}

/** The hex POST-policy signature: HMAC-SHA256 of the base64 policy text under the signing key. */
export function signPolicy(
  policyBase64: string,
  secret: string,
  date: string,
  region: string,
): string {
  return createHmac('sha256', signingKey(secret, date, region, 's3'))
    .update(policyBase64, 'utf8')
    .digest('hex');
}

type Condition =
  | { kind: 'eq' | 'starts-with'; field: string; value: string; text: string }
  | { kind: 'range'; min: number; max: number; text: string }
  | { kind: 'failed'; text: string };

/** How S3 prints a condition in its messages: a JSON array with ", " separators. */
function conditionText(parts: unknown[]): string {
  return `[${parts.map((part) => JSON.stringify(part)).join(', ')}]`;
}

function parseCondition(raw: unknown): Condition {
  if (Array.isArray(raw)) {
    if (raw.length === 0) invalidPolicy('Invalid Condition: missing operation identifier.');
    const [op, ...args] = raw as unknown[];
    if (typeof op !== 'string') invalidPolicy('Invalid JSON.');
    const operation = op.toLowerCase();
    const text = conditionText(raw);
    if (operation === 'eq' || operation === 'starts-with') {
      if (args.length !== 2) invalidPolicy(`Invalid ${op}: wrong number of arguments.`);
      const [field, value] = args;
      if (typeof field !== 'string' || typeof value !== 'string') invalidPolicy('Invalid JSON.');
      // A field named without '$' never matches (S3 answers "Policy Condition failed").
      if (!field.startsWith('$')) return { kind: 'failed', text };
      return { kind: operation, field: field.slice(1).toLowerCase(), value, text };
    }
    if (operation === 'content-length-range') {
      if (args.length !== 2) invalidPolicy(`Invalid ${op}: wrong number of arguments.`);
      const bounds = args.map((bound) => {
        if (typeof bound === 'number') {
          if (!Number.isInteger(bound)) invalidPolicy('Invalid JSON.');
          if (bound < 0) invalidPolicy(`Invalid ${op}: bounds must be non-negative.`);
          return bound;
        }
        if (typeof bound === 'string' && /^\d+$/.test(bound)) return Number(bound);
        return undefined;
      });
      const [min, max] = bounds;
      if (min === undefined || max === undefined) return { kind: 'failed', text };
      return { kind: 'range', min, max, text };
    }
    invalidPolicy(`Invalid Condition: unknown operation '${op}'.`);
  }
  if (typeof raw === 'object' && raw !== null) {
    const entries = Object.entries(raw);
    if (entries.length !== 1) {
      invalidPolicy(
        'Invalid Simple-Condition: Simple-Conditions must have exactly one property specified.',
      );
    }
    const [name, value] = entries[0] as [string, unknown];
    if (typeof value !== 'string') {
      invalidPolicy('Invalid Simple-Condition: value must be a string.');
    }
    return {
      kind: 'eq',
      field: name.toLowerCase(),
      value,
      text: conditionText(['eq', `$${name}`, value]),
    };
  }
  invalidPolicy('Invalid condition test: must be a List or Object.');
}

const EXPIRATION = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

function decodePolicy(policyBase64: string): { expiration: Date; conditions: Condition[] } {
  const compact = policyBase64.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1) {
    invalidPolicy('invalid Base64 encoding.');
  }
  let document: unknown;
  try {
    document = JSON.parse(Buffer.from(compact, 'base64').toString('utf8'));
  } catch {
    invalidPolicy('Invalid JSON.');
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    invalidPolicy('Invalid JSON.');
  }
  const record = document as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (key !== 'expiration' && key !== 'conditions') {
      invalidPolicy(`Unexpected: '${key.toLowerCase()}'`);
    }
  }
  if (record.expiration === undefined) invalidPolicy('Policy missing expiration.');
  if (record.conditions === undefined) invalidPolicy('Policy missing conditions.');
  const expirationText = record.expiration;
  if (typeof expirationText !== 'string' || !EXPIRATION.test(expirationText)) {
    invalidPolicy(`Invalid 'expiration' value: '${String(expirationText)}'`);
  }
  const expiration = new Date(expirationText);
  if (Number.isNaN(expiration.getTime())) {
    invalidPolicy(`Invalid 'expiration' value: '${expirationText}'`);
  }
  if (!Array.isArray(record.conditions)) {
    invalidPolicy("Invalid 'conditions' value: must be a List.");
  }
  return { expiration, conditions: (record.conditions as unknown[]).map(parseCondition) };
}

/** `${filename}` in any field becomes the file's name (its last path segment). */
function expand(value: string, filename: string | undefined): string {
  if (filename === undefined) return value;
  const base = filename.split(/[/\\]/).pop() ?? '';
  return value.split('${filename}').join(base);
}

function conditionFailed(text: string): never {
  fail(403, 'AccessDenied', `Invalid according to Policy: Policy Condition failed: ${text}`);
}

/**
 * Checks everything S3 checks before it accepts the file: required fields, credential scope,
 * signature, policy document, expiration, every condition, and that every field is covered.
 * Throws S3PolicyError with S3's status, code and message.
 */
export function checkPostPolicy(context: PolicyContext): PolicyApproval {
  const { fields } = context;
  const get = (name: string): string | undefined => fieldValue(fields, name);

  const policyBase64 = get('policy');
  const present = ['policy', ...SIGV4_FIELDS, 'AWSAccessKeyId', 'Signature'].some(
    (name) => get(name) !== undefined,
  );
  if (!present) fail(403, 'AccessDenied', 'Access Denied');
  if (get('AWSAccessKeyId') !== undefined && get('X-Amz-Algorithm') === undefined) {
    fail(
      400,
      'InvalidArgument',
      'POST requests signed with Signature Version 2 (AWSAccessKeyId, Signature) are not emulated by the local twin; sign with AWS4-HMAC-SHA256.',
    );
  }
  for (const name of SIGV4_FIELDS) if (get(name) === undefined) missingField(name);
  if (policyBase64 === undefined) missingField('Policy');
  const rawKey = get('key');
  if (rawKey === undefined) missingField('key');

  const algorithm = get('X-Amz-Algorithm') as string;
  if (algorithm !== 'AWS4-HMAC-SHA256') {
    fail(400, 'InvalidArgument', 'X-Amz-Algorithm only supports "AWS4-HMAC-SHA256"', [
      ['ArgumentName', 'X-Amz-Algorithm'],
      ['ArgumentValue', algorithm],
    ]);
  }
  const credential = get('X-Amz-Credential') as string;
  const scope = credential.split('/');
  const [accessKeyId, date, region, service, terminal] = scope;
  if (
    scope.length !== 5 ||
    accessKeyId === undefined ||
    date === undefined ||
    region === undefined ||
    !/^\d{8}$/.test(date) ||
    service !== 's3' ||
    terminal !== 'aws4_request'
  ) {
    fail(
      400,
      'InvalidArgument',
      'the Credential is mal-formed; expecting "<YOUR-AKID>/YYYYMMDD/REGION/SERVICE/aws4_request".',
      [
        ['ArgumentName', 'X-Amz-Credential'],
        ['ArgumentValue', credential],
      ],
    );
  }
  if (accessKeyId === '') {
    fail(
      400,
      'InvalidArgument',
      'a non-empty Access Key (AKID) must be provided in the credential.',
    );
  }
  const secret = context.secretFor(accessKeyId);
  if (secret === undefined) {
    fail(
      403,
      'InvalidAccessKeyId',
      'The AWS Access Key Id you provided does not exist in our records.',
      [['AWSAccessKeyId', accessKeyId]],
    );
  }
  if (region !== context.region) {
    fail(400, 'InvalidArgument', `the region '${region}' is wrong; expecting '${context.region}'`, [
      ['ArgumentName', 'X-Amz-Credential'],
      ['ArgumentValue', credential],
      ['Region', context.region],
    ]);
  }
  const provided = (get('X-Amz-Signature') as string).toLowerCase();
  const expected = signPolicy(policyBase64, secret, date, region);
  const matches =
    provided.length === expected.length &&
    timingSafeEqual(Buffer.from(provided), Buffer.from(expected));
  if (!matches) {
    fail(
      403,
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
      [
        ['AWSAccessKeyId', accessKeyId],
        ['StringToSign', policyBase64],
        ['SignatureProvided', provided],
        [
          'StringToSignBytes',
          [...Buffer.from(policyBase64, 'utf8')]
            .map((byte) => byte.toString(16).padStart(2, '0'))
            .join(' '),
        ],
      ],
    );
  }

  const policy = decodePolicy(policyBase64);
  if (context.now.getTime() > policy.expiration.getTime()) {
    fail(403, 'AccessDenied', 'Invalid according to Policy: Policy expired.');
  }

  const expanded = fields.map((field) => ({
    name: field.name,
    value: expand(field.value, context.filename),
  }));
  const valueOf = (name: string): string | undefined =>
    name === 'bucket' ? context.bucket : fieldValue(expanded, name);

  let minSize = 0;
  let maxSize = S3_MAX_POST_OBJECT_BYTES;
  const covered = new Set<string>();
  for (const condition of policy.conditions) {
    if (condition.kind === 'failed') conditionFailed(condition.text);
    if (condition.kind === 'range') {
      minSize = Math.max(minSize, condition.min);
      maxSize = Math.min(maxSize, condition.max);
      continue;
    }
    covered.add(condition.field);
    const actual = valueOf(condition.field);
    if (actual === undefined) conditionFailed(condition.text);
    if (condition.kind === 'eq') {
      if (actual !== condition.value) conditionFailed(condition.text);
    } else if (condition.field === 'content-type') {
      // Content-Type lists: every comma-separated type must match the prefix.
      const types = actual.split(',').map((type) => type.trim());
      if (!types.every((type) => type.startsWith(condition.value))) {
        conditionFailed(condition.text);
      }
    } else if (!actual.startsWith(condition.value)) {
      conditionFailed(condition.text);
    }
  }

  for (const field of fields) {
    const name = field.name.toLowerCase();
    if (EXEMPT_FIELDS.has(name) || name.startsWith('x-ignore-')) continue;
    if (!covered.has(name)) {
      fail(403, 'AccessDenied', `Invalid according to Policy: Extra input fields: ${field.name}`);
    }
  }

  const key = expand(rawKey, context.filename);
  if (key.length === 0) {
    fail(400, 'InvalidArgument', 'User key must have a length greater than 0.', [
      ['ArgumentName', 'key'],
      ['ArgumentValue', ''],
    ]);
  }
  return { fields: expanded, key, minSize, maxSize };
}

/** Checks the file size against the approved range (bounds inclusive). */
export function checkSize(approval: PolicyApproval, size: number): void {
  if (size > approval.maxSize) {
    fail(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size', [
      ['ProposedSize', String(size)],
      ['MaxSizeAllowed', String(approval.maxSize)],
    ]);
  }
  if (size < approval.minSize) {
    fail(400, 'EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed size', [
      ['ProposedSize', String(size)],
      ['MinSizeAllowed', String(approval.minSize)],
    ]);
  }
}
