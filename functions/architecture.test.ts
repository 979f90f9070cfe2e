import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { httpRoutes } from './routes';

/**
 * The layering rules ESLint cannot express (docs/architecture.md "Layering rules"): every domain
 * has its public module and its routes file, every call is declared by its own domain, and the
 * graph of domains' core modules (everything but the composition: handlers/ and *.deps.ts) has no
 * cycle, so a domain's public module never pulls in a domain that needs it back.
 */
const FUNCTIONS = path.dirname(fileURLToPath(import.meta.url));
const NOT_DOMAINS = new Set(['core']);
const SUPPORT_MODULES = new Set(['images']);

const domains = readdirSync(FUNCTIONS).filter(
  (name) => statSync(path.join(FUNCTIONS, name)).isDirectory() && !NOT_DOMAINS.has(name),
);

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : full.endsWith('.ts') ? [full] : [];
  });
}

const isComposition = (file: string) =>
  /\/handlers\//.test(file) ||
  /\/triggers\//.test(file) ||
  file.endsWith('.deps.ts') ||
  /\.test\.ts$/.test(file) ||
  /\/testing\//.test(file) ||
  file.endsWith('.fake.ts');

function coreGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const domain of domains) {
    const edges = new Set<string>();
    for (const file of files(path.join(FUNCTIONS, domain)).filter((f) => !isComposition(f))) {
      const source = readFileSync(file, 'utf8');
      for (const match of source.matchAll(/from '((?:\.\.\/)+)([a-z-]+)\/index'/g)) {
        const target = match[2] as string;
        if (target !== domain && domains.includes(target)) edges.add(target);
      }
    }
    graph.set(domain, edges);
  }
  return graph;
}

describe('domain seams', () => {
  it('every domain has a public module, and every API domain its routes file', () => {
    for (const domain of domains) {
      expect(statSync(path.join(FUNCTIONS, domain, 'index.ts')).isFile(), domain).toBe(true);
    }
    const withCalls = new Set(httpRoutes.map((route) => route.handler.split('/')[0]));
    for (const domain of withCalls) {
      expect(statSync(path.join(FUNCTIONS, domain as string, `${domain}.routes.ts`)).isFile()).toBe(
        true,
      );
    }
    expect(domains.filter((d) => !SUPPORT_MODULES.has(d) && d !== 'realtime')).toEqual(
      expect.arrayContaining([...withCalls]),
    );
  });

  it('each call is declared next to its handler (the handler lives in the declaring domain)', async () => {
    for (const domain of domains) {
      const file = path.join(FUNCTIONS, domain, `${domain}.routes.ts`);
      if (!statSync(file, { throwIfNoEntry: false })?.isFile()) continue;
      const module = (await import(file)) as Record<string, Record<string, { handler: string }>>;
      const declared = Object.values(module[`${domain}Routes`] ?? {});
      expect(declared.length, domain).toBeGreaterThan(0);
      for (const route of declared)
        expect(route.handler.startsWith(`${domain}/handlers/`)).toBe(true);
    }
  });

  it("the domains' core modules import each other without a cycle", () => {
    const graph = coreGraph();
    const state = new Map<string, 'open' | 'done'>();
    const cycles: string[] = [];
    const visit = (domain: string, trail: string[]) => {
      if (state.get(domain) === 'done') return;
      if (state.get(domain) === 'open') {
        cycles.push([...trail.slice(trail.indexOf(domain)), domain].join(' → '));
        return;
      }
      state.set(domain, 'open');
      for (const next of graph.get(domain) ?? []) visit(next, [...trail, domain]);
      state.set(domain, 'done');
    };
    for (const domain of domains) visit(domain, []);
    expect(cycles).toEqual([]);
    // The edges the design names (docs/architecture.md): items builds on collections, not back.
    expect(graph.get('collections')?.has('items')).toBe(false);
    expect(graph.get('items')?.has('collections')).toBe(true);
  });
});
