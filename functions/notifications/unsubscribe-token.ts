import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { readUnsubscribeToken, type EmailGroup } from '../../shared/schemas/notifications';

/**
 * The unsubscribe links of notification e-mails: `<user id, base64url>.<group>.<signature>`, the
 * signature an HMAC-SHA256 of the user id and group under the user's own random key (kept on the
 * user's notification state). A link therefore works without a session, only for that user and
 * group, and a forged or altered one is refused; no deployment-wide secret is needed.
 */

const SIGNATURE_BYTES = 24;

export function newEmailKey(): string {
  return randomBytes(32).toString('base64url');
}

function signature(key: string, userId: string, group: EmailGroup): Buffer {
  return createHmac('sha256', Buffer.from(key, 'base64url'))
    .update(`unsubscribe:${userId}:${group}`)
    .digest()
    .subarray(0, SIGNATURE_BYTES);
}

export function signUnsubscribeToken(key: string, userId: string, group: EmailGroup): string {
  const user = Buffer.from(userId, 'utf8').toString('base64url');
  return `${user}.${group}.${signature(key, userId, group).toString('base64url')}`;
}

/** Whether `token`'s signature is the user's for its group (constant-time comparison). */
export function verifyUnsubscribeToken(
  key: string,
  token: string,
): { userId: string; group: EmailGroup } | null {
  const parsed = readUnsubscribeToken(token);
  if (parsed === null) return null;
  const given = Buffer.from(parsed.signature, 'base64url');
  const expected = signature(key, parsed.userId, parsed.group);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return { userId: parsed.userId, group: parsed.group };
}
