import { describe, expect, it } from 'vitest';
import { httpRoutes } from '../routes';
import { buildOpenApi } from './openapi';

describe('OpenAPI document', () => {
  it('documents every declared call once, with its answer schema and tags', () => {
    const routeKeys = httpRoutes.map((route) => `${route.method} ${route.path}`);
    expect(new Set(routeKeys).size).toBe(routeKeys.length);
    const document = buildOpenApi() as {
      paths: Record<string, Record<string, { summary: string; tags: string[] }>>;
    };
    for (const route of httpRoutes) {
      const method = route.method === 'ANY' ? 'get' : route.method.toLowerCase();
      const operation = document.paths[route.path]?.[method];
      expect(operation?.summary, `${route.method} ${route.path}`).toBe(route.summary);
      expect(operation?.tags).toEqual([...route.tags]);
    }
  });

  it('documents every path with its parameters from the zod schemas', () => {
    const document = buildOpenApi() as {
      openapi: string;
      paths: Record<
        string,
        Record<string, { parameters: { name: string; in: string; schema: { maximum?: number } }[] }>
      >;
    };
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths).sort()).toEqual(
      [...new Set(httpRoutes.map((route) => route.path))].sort(),
    );
    const sellers = document.paths['/api/users/sellers']?.get;
    expect(sellers?.parameters.map((parameter) => `${parameter.in}:${parameter.name}`)).toEqual([
      'query:limit',
      'query:cursor',
    ]);
    expect(sellers?.parameters[0]?.schema.maximum).toBe(50);
  });
});
