import { describe, expect, it } from 'vitest';
import { S3PolicyError } from './s3-post-policy';
import { isAuthenticated, verifySignature, type SignedRequest } from './s3-sigv4';

/** AWS's S3 SigV4 examples ("Examples: Signature Calculations in AWS Signature Version 4"). */
const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const secretFor = (id: string) => (id === 'AKIAIOSFODNN7EXAMPLE' ? SECRET : undefined);

const getObject: SignedRequest = {
  method: 'GET',
  rawPath: '/test.txt',
  rawQuery: '',
  headers: {
    host: 'examplebucket.s3.amazonaws.com',
    range: 'bytes=0-9',
    'x-amz-content-sha256': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    'x-amz-date': '20130524T000000Z',
    authorization:
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
  },
  now: new Date('2013-05-24T00:05:00Z'),
  region: 'us-east-1',
  secretFor,
};

const presigned: SignedRequest = {
  method: 'GET',
  rawPath: '/test.txt',
  rawQuery:
    'X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404',
  headers: { host: 'examplebucket.s3.amazonaws.com' },
  now: new Date('2013-05-24T12:00:00Z'),
  region: 'us-east-1',
  secretFor,
};

function code(run: () => void): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    if (error instanceof S3PolicyError) return error.info.code;
    throw error;
  }
}

describe('SigV4 verification', () => {
  it('accepts the AWS header-signed example', () => {
    expect(code(() => verifySignature(getObject))).toBeUndefined();
  });

  it('refuses it with another range or path', () => {
    expect(code(() => verifySignature({ ...getObject, rawPath: '/other.txt' }))).toBe(
      'SignatureDoesNotMatch',
    );
    expect(
      code(() =>
        verifySignature({ ...getObject, headers: { ...getObject.headers, range: 'bytes=0-99' } }),
      ),
    ).toBe('SignatureDoesNotMatch');
  });

  it('refuses a skewed clock and an unknown key', () => {
    expect(
      code(() => verifySignature({ ...getObject, now: new Date('2013-05-24T01:00:00Z') })),
    ).toBe('RequestTimeTooSkewed');
    expect(code(() => verifySignature({ ...getObject, secretFor: () => undefined }))).toBe(
      'InvalidAccessKeyId',
    );
  });

  it('accepts the AWS presigned example until it expires', () => {
    expect(code(() => verifySignature(presigned))).toBeUndefined();
    expect(
      code(() => verifySignature({ ...presigned, now: new Date('2013-05-25T00:00:01Z') })),
    ).toBe('AccessDenied');
    expect(code(() => verifySignature({ ...presigned, rawPath: '/secret.txt' }))).toBe(
      'SignatureDoesNotMatch',
    );
  });

  it('tells anonymous requests apart', () => {
    expect(isAuthenticated(presigned)).toBe(true);
    expect(isAuthenticated(getObject)).toBe(true);
    expect(isAuthenticated({ rawQuery: 'a=1', headers: {} })).toBe(false);
  });
});
