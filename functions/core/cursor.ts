import { DomainError } from './errors';

/**
 * Opaque pagination cursors. A cursor wraps DynamoDB's LastEvaluatedKey together with the name of
 * the query it belongs to. Decoding checks the query name and that the key has exactly the
 * expected string attributes, so a hand-made or foreign cursor is a 400 naming the `cursor` field,
 * never a DynamoDB validation error (a 500) or a read outside the query's partition.
 */
export function encodeCursor(
  scope: string,
  key: Record<string, unknown> | undefined,
): string | null {
  if (key === undefined) return null;
  return Buffer.from(JSON.stringify({ s: scope, k: key })).toString('base64url');
}

function invalid(): DomainError {
  return new DomainError('invalid_request', {
    message: 'The cursor is not valid for this list.',
    fields: { cursor: 'forms.validation.cursor' },
  });
}

export function decodeCursor(
  scope: string,
  cursor: string | undefined,
  keyAttributes: readonly string[],
): Record<string, string> | undefined {
  if (cursor === undefined) return undefined;
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (typeof parsed !== 'object' || parsed === null) throw invalid();
  const { s, k } = parsed as { s?: unknown; k?: unknown };
  if (s !== scope || typeof k !== 'object' || k === null || Array.isArray(k)) throw invalid();
  const entries = Object.entries(k);
  const names = entries.map(([name]) => name).sort();
  if (names.join('|') !== [...keyAttributes].sort().join('|')) throw invalid();
  if (
    !entries.every(
      ([, value]) => typeof value === 'string' && value.length > 0 && value.length <= 1024,
    )
  ) {
    throw invalid();
  }
  return Object.fromEntries(entries) as Record<string, string>;
}
