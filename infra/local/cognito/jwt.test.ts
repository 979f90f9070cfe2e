import { describe, expect, it } from 'vitest';
import { flattenClaims } from './authorizer';
import {
  decodeJwtPayload,
  loadKey,
  newSigningKey,
  publicJwk,
  signJwt,
  storeKey,
  verifyJwt,
} from './jwt';

describe('RS256 tokens of the local user pool', () => {
  const key = newSigningKey();

  it('signs with a kid and verifies, also after a store/load round trip', () => {
    const token = signJwt({ sub: 'u1', n: 1 }, key);
    const header = JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString()) as {
      kid: string;
      alg: string;
    };
    expect(header).toEqual({ kid: key.kid, alg: 'RS256' });
    expect(verifyJwt(token, [key])).toEqual({ sub: 'u1', n: 1 });
    expect(verifyJwt(token, [loadKey(storeKey(key))])).toEqual({ sub: 'u1', n: 1 });
    expect(decodeJwtPayload(token)).toEqual({ sub: 'u1', n: 1 });
  });

  it('refuses another key, a changed payload and garbage', () => {
    const token = signJwt({ sub: 'u1' }, key);
    const other = newSigningKey();
    expect(verifyJwt(token, [{ ...other, kid: key.kid }])).toBeNull();
    const [head, , signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ sub: 'u2' })).toString('base64url');
    expect(verifyJwt(`${head}.${forged}.${signature}`, [key])).toBeNull();
    expect(verifyJwt('a.b.c', [key])).toBeNull();
    expect(verifyJwt('nope', [key])).toBeNull();
  });

  it('publishes the public key as an RS256 JWK', () => {
    expect(publicJwk(key)).toMatchObject({
      kid: key.kid,
      alg: 'RS256',
      kty: 'RSA',
      use: 'sig',
      e: 'AQAB',
    });
  });
});

describe('flattenClaims (API Gateway JWT authorizer rendering)', () => {
  it('turns every claim into a string and arrays into [a b]', () => {
    expect(
      flattenClaims({ sub: 'u1', 'cognito:groups': ['admin', 'ops'], exp: 17, ok: true, n: null }),
    ).toEqual({ sub: 'u1', 'cognito:groups': '[admin ops]', exp: '17', ok: 'true' });
  });
});
