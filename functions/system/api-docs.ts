import type { RouteDeclaration } from '../core/route';

/**
 * The call list of docs/api.md, generated from the routes files (the one list of calls), between
 * the markers below. `npm run docs:api` rewrites it; a test fails when the file is stale.
 */
export const CALLS_BEGIN =
  '<!-- calls:begin — generated from functions/<domain>/<domain>.routes.ts by `npm run docs:api`; do not edit -->';
export const CALLS_END = '<!-- calls:end -->';

function options(route: RouteDeclaration): string {
  const parts = [
    route.auth,
    ...(route.owner === undefined ? [] : [`{${route.owner}} = caller`]),
    ...(route.idempotency === undefined ? [] : [`Idempotency-Key ${route.idempotency}`]),
    ...(route.status === undefined ? [] : [String(route.status)]),
  ];
  return parts.join(', ');
}

/** One list item per call, grouped by tag, in the order of the route table. */
export function callsSection(routes: readonly RouteDeclaration[]): string {
  const byTag = new Map<string, RouteDeclaration[]>();
  for (const route of routes) {
    const tag = route.tags[0] ?? 'other';
    byTag.set(tag, [...(byTag.get(tag) ?? []), route]);
  }
  const lines = [CALLS_BEGIN, ''];
  for (const [tag, list] of byTag) {
    lines.push(`**${tag}**`, '');
    for (const route of list) {
      lines.push(`- \`${route.method} ${route.path}\` (${options(route)}): ${route.summary}`);
    }
    lines.push('');
  }
  lines.push(CALLS_END);
  return lines.join('\n');
}

/** The document with its calls section replaced. */
export function withCallsSection(document: string, routes: readonly RouteDeclaration[]): string {
  const begin = document.indexOf(CALLS_BEGIN);
  const end = document.indexOf(CALLS_END);
  if (begin < 0 || end < begin) throw new Error('docs/api.md has no calls:begin/calls:end markers');
  return document.slice(0, begin) + callsSection(routes) + document.slice(end + CALLS_END.length);
}
