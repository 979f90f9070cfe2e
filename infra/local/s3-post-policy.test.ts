import { describe, expect, it } from 'vitest';
import {
  S3PolicyError,
  checkPostPolicy,
  checkSize,
  signPolicy,
  type FormField,
  type PolicyContext,
} from './s3-post-policy';

/** AWS's own SigV4 POST example ("Example: Browser-Based Upload using HTTP POST"). */
const AWS_POLICY =
  'eyAiZXhwaXJhdGlvbiI6ICIyMDE1LTEyLTMwVDEyOjAwOjAwLjAwMFoiLA0KICAiY29uZGl0aW9ucyI6IFsNCiAgICB7ImJ1Y2tldCI6ICJzaWd2NGV4YW1wbGVidWNrZXQifSwNCiAgICBbInN0YXJ0cy13aXRoIiwgIiRrZXkiLCAidXNlci91c2VyMS8iXSwNCiAgICB7ImFjbCI6ICJwdWJsaWMtcmVhZCJ9LA0KICAgIHsic3VjY2Vzc19hY3Rpb25fcmVkaXJlY3QiOiAiaHR0cDovL3NpZ3Y0ZXhhbXBsZWJ1Y2tldC5zMy5hbWF6b25hd3MuY29tL3N1Y2Nlc3NmdWxfdXBsb2FkLmh0bWwifSwNCiAgICBbInN0YXJ0cy13aXRoIiwgIiRDb250ZW50LVR5cGUiLCAiaW1hZ2UvIl0sDQogICAgeyJ4LWFtei1tZXRhLXV1aWQiOiAiMTQzNjUxMjM2NTEyNzQifSwNCiAgICB7IngtYW16LXNlcnZlci1zaWRlLWVuY3J5cHRpb24iOiAiQUVTMjU2In0sDQogICAgWyJzdGFydHMtd2l0aCIsICIkeC1hbXotbWV0YS10YWciLCAiIl0sDQoNCiAgICB7IngtYW16LWNyZWRlbnRpYWwiOiAiQUtJQUlPU0ZPRE5ON0VYQU1QTEUvMjAxNTEyMjkvdXMtZWFzdC0xL3MzL2F3czRfcmVxdWVzdCJ9LA0KICAgIHsieC1hbXotYWxnb3JpdGhtIjogIkFXUzQtSE1BQy1TSEEyNTYifSwNCiAgICB7IngtYW16LWRhdGUiOiAiMjAxNTEyMjlUMDAwMDAwWiIgfQ0KICBdDQp9';
const AWS_SIGNATURE = '8afdbf4008c03f22c2cd3cdb72e4afbb1f6a588f3255ac628749a66d7f09699e';
const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';

const awsFields: FormField[] = [
  { name: 'key', value: 'user/user1/${filename}' },
  { name: 'acl', value: 'public-read' },
  {
    name: 'success_action_redirect',
    value: 'http://sigv4examplebucket.s3.amazonaws.com/successful_upload.html',
  },
  { name: 'Content-Type', value: 'image/jpeg' },
  { name: 'x-amz-meta-uuid', value: '14365123651274' },
  { name: 'x-amz-server-side-encryption', value: 'AES256' },
  { name: 'X-Amz-Credential', value: 'AKIAIOSFODNN7EXAMPLE/20151229/us-east-1/s3/aws4_request' },
  { name: 'X-Amz-Algorithm', value: 'AWS4-HMAC-SHA256' },
  { name: 'X-Amz-Date', value: '20151229T000000Z' },
  { name: 'x-amz-meta-tag', value: '' },
  { name: 'Policy', value: AWS_POLICY },
  { name: 'X-Amz-Signature', value: AWS_SIGNATURE },
];

function context(overrides: Partial<PolicyContext> = {}): PolicyContext {
  return {
    bucket: 'sigv4examplebucket',
    fields: awsFields,
    filename: 'photo.jpg',
    now: new Date('2015-12-29T10:00:00Z'),
    region: 'us-east-1',
    secretFor: (id) => (id === 'AKIAIOSFODNN7EXAMPLE' ? AWS_SECRET : undefined),
    ...overrides,
  };
}

function refusal(run: () => unknown): { status: number; code: string; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof S3PolicyError) return error.info;
    throw error;
  }
  throw new Error('expected a refusal');
}

const replace = (name: string, value: string): FormField[] =>
  awsFields.map((field) => (field.name === name ? { name, value } : field));

describe('POST policy', () => {
  it('reproduces the signature of AWS example', () => {
    expect(signPolicy(AWS_POLICY, AWS_SECRET, '20151229', 'us-east-1')).toBe(AWS_SIGNATURE);
  });

  it('accepts the AWS example and expands ${filename}', () => {
    const approval = checkPostPolicy(context());
    expect(approval.key).toBe('user/user1/photo.jpg');
  });

  it('refuses it once expired', () => {
    expect(
      refusal(() => checkPostPolicy(context({ now: new Date('2015-12-30T12:00:01Z') }))),
    ).toMatchObject({
      status: 403,
      code: 'AccessDenied',
      message: 'Invalid according to Policy: Policy expired.',
    });
  });

  it('refuses a failed condition with the condition as S3 prints it', () => {
    expect(
      refusal(() => checkPostPolicy(context({ fields: replace('Content-Type', 'text/html') }))),
    ).toEqual({
      status: 403,
      code: 'AccessDenied',
      message:
        'Invalid according to Policy: Policy Condition failed: ["starts-with", "$Content-Type", "image/"]',
    });
    expect(
      refusal(() => checkPostPolicy(context({ fields: replace('acl', 'private') }))).message,
    ).toContain('["eq", "$acl", "public-read"]');
  });

  it('refuses a wrong bucket, an unknown key id, another region, a bad signature', () => {
    expect(refusal(() => checkPostPolicy(context({ bucket: 'other' }))).status).toBe(403);
    expect(refusal(() => checkPostPolicy(context({ secretFor: () => undefined }))).code).toBe(
      'InvalidAccessKeyId',
    );
    expect(refusal(() => checkPostPolicy(context({ region: 'eu-west-1' }))).code).toBe(
      'InvalidArgument',
    );
    expect(
      refusal(() =>
        checkPostPolicy(context({ fields: replace('X-Amz-Signature', '0'.repeat(64)) })),
      ).code,
    ).toBe('SignatureDoesNotMatch');
  });

  it('names a missing field and refuses uncovered fields', () => {
    expect(
      refusal(() =>
        checkPostPolicy(context({ fields: awsFields.filter((f) => f.name !== 'X-Amz-Signature') })),
      ),
    ).toMatchObject({ status: 400, code: 'InvalidArgument' });
    expect(
      refusal(() =>
        checkPostPolicy(context({ fields: [...awsFields, { name: 'x-amz-meta-x', value: '1' }] })),
      ).message,
    ).toBe('Invalid according to Policy: Extra input fields: x-amz-meta-x');
    expect(() =>
      checkPostPolicy(context({ fields: [...awsFields, { name: 'x-ignore-me', value: '1' }] })),
    ).not.toThrow();
  });

  it('treats an anonymous form as access denied', () => {
    expect(
      refusal(() => checkPostPolicy(context({ fields: [{ name: 'key', value: 'a' }] }))),
    ).toMatchObject({
      status: 403,
      code: 'AccessDenied',
    });
  });

  it('checks sizes inclusively', () => {
    const approval = { fields: [], key: 'k', minSize: 5, maxSize: 10 };
    expect(() => checkSize(approval, 5)).not.toThrow();
    expect(() => checkSize(approval, 10)).not.toThrow();
    expect(refusal(() => checkSize(approval, 11)).code).toBe('EntityTooLarge');
    expect(refusal(() => checkSize(approval, 4)).code).toBe('EntityTooSmall');
  });
});
