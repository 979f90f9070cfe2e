import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
  sign as cryptoSign,
  verify as cryptoVerify,
  type KeyObject,
} from 'node:crypto';

/**
 * RS256 JSON Web Tokens with node:crypto, as Cognito signs them: header `{ kid, alg: 'RS256' }`,
 * base64url segments, one RSA 2048 key per user pool published as a JWKS.
 */

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

/** The persisted form of a key (PKCS#8 PEM). */
export interface StoredKey {
  kid: string;
  privatePem: string;
}

export interface Jwk {
  kid: string;
  alg: 'RS256';
  kty: 'RSA';
  use: 'sig';
  n: string;
  e: string;
}

export function newSigningKey(): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { kid: randomBytes(32).toString('base64'), privateKey, publicKey };
}

export function storeKey(key: SigningKey): StoredKey {
  return {
    kid: key.kid,
    privatePem: key.privateKey.export({ format: 'pem', type: 'pkcs8' }) as string,
  };
}

export function loadKey(stored: StoredKey): SigningKey {
  const privateKey = createPrivateKey(stored.privatePem);
  return { kid: stored.kid, privateKey, publicKey: createPublicKey(privateKey) };
}

export function publicJwk(key: SigningKey): Jwk {
  const jwk = key.publicKey.export({ format: 'jwk' }) as { n?: string; e?: string };
  if (jwk.n === undefined || jwk.e === undefined) throw new Error('not an RSA key');
  return { alg: 'RS256', e: jwk.e, kid: key.kid, kty: 'RSA', n: jwk.n, use: 'sig' };
}

const b64url = (value: Buffer | string): string => Buffer.from(value).toString('base64url');

export function signJwt(payload: Record<string, unknown>, key: SigningKey): string {
  const header = b64url(JSON.stringify({ kid: key.kid, alg: 'RS256' }));
  const body = b64url(JSON.stringify(payload));
  const signature = cryptoSign('RSA-SHA256', Buffer.from(`${header}.${body}`), key.privateKey);
  return `${header}.${body}.${b64url(signature)}`;
}

/**
 * Checks the signature (with the key named by `kid`) and returns the payload, or null when the
 * token is malformed or the signature is wrong. Expiry and claims are the caller's business.
 */
export function verifyJwt(
  token: string,
  keys: readonly SigningKey[],
): Record<string, unknown> | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [header, body, signature] = parts as [string, string, string];
  try {
    const head = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as {
      kid?: unknown;
      alg?: unknown;
    };
    const key = keys.find((candidate) => candidate.kid === head.kid);
    if (key === undefined || head.alg !== 'RS256') return null;
    const ok = cryptoVerify(
      'RSA-SHA256',
      Buffer.from(`${header}.${body}`),
      key.publicKey,
      Buffer.from(signature, 'base64url'),
    );
    if (!ok) return null;
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as unknown;
    return typeof payload === 'object' && payload !== null && !Array.isArray(payload)
      ? (payload as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** Reads a JWT's payload without checking anything (for tests and logs). */
export function decodeJwtPayload(token: string): Record<string, unknown> {
  const body = token.split('.')[1] ?? '';
  return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
}
