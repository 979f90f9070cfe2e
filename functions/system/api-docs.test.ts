import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { httpRoutes } from '../routes';
import { callsSection, CALLS_BEGIN, CALLS_END, withCallsSection } from './api-docs';

describe('docs/api.md call list', () => {
  const document = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');

  it('is the one generated from the routes files (run `npm run docs:api` when this fails)', () => {
    expect(withCallsSection(document, httpRoutes)).toBe(document);
  });

  it('names every declared call once', () => {
    const section = callsSection(httpRoutes);
    for (const route of httpRoutes) {
      expect(section.split(`\`${route.method} ${route.path}\``)).toHaveLength(2);
    }
    expect(section.startsWith(CALLS_BEGIN) && section.endsWith(CALLS_END)).toBe(true);
  });
});
