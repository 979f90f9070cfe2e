import { describe, expect, it } from 'vitest';
import { apiSchemas } from '../../shared/schemas/api';
import { httpRoutes } from '../routes';
import { buildOpenApi } from './openapi';

describe('OpenAPI document', () => {
  it('has schemas for every route of the route table, and none for routes that do not exist', () => {
    const routeKeys = httpRoutes.map((route) => `${route.method} ${route.path}`).sort();
    expect(Object.keys(apiSchemas).sort()).toEqual(routeKeys);
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
