import * as z from 'zod';
import type { ZodType } from 'zod';
import type { RouteDeclaration } from '../core/route';
import { httpRoutes } from '../routes';

/** The error answer of every call (docs/api.md "Conventions"). */
export const errorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
    details: z.record(z.string(), z.unknown()).optional(),
    requestId: z.string(),
  }),
});

type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
  }) as JsonSchema;
  return rest;
}

function parameters(schema: ZodType | undefined, where: 'query' | 'path'): unknown[] {
  if (schema === undefined) return [];
  const object = jsonSchema(schema, 'input') as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || (object.required ?? []).includes(name),
    schema: property,
  }));
}

function operation(route: RouteDeclaration) {
  const call = route;
  const request = route.request ?? {};
  const status = String(route.status ?? 200);
  const errorContent = { 'application/json': { schema: jsonSchema(errorBodySchema, 'output') } };
  return {
    summary: call.summary,
    tags: [...call.tags],
    operationId: route.handler.replace(/\/handlers\//, '.').replace(/[^A-Za-z0-9.]+/g, '_'),
    ...(route.auth === 'public' ? { security: [] } : {}),
    parameters: [...parameters(request.path, 'path'), ...parameters(request.query, 'query')],
    ...(request.body === undefined
      ? {}
      : {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchema(request.body, 'input') } },
          },
        }),
    responses:
      status === '404'
        ? { '404': { description: 'Not found', content: errorContent } }
        : {
            [status]: {
              description: 'Success',
              content: call.html
                ? { 'text/html': { schema: { type: 'string' } } }
                : {
                    'application/json': {
                      schema: call.unwrapped
                        ? jsonSchema(call.response, 'output')
                        : {
                            type: 'object',
                            properties: { data: jsonSchema(call.response, 'output') },
                            required: ['data'],
                          },
                    },
                  },
            },
            default: { description: 'Error', content: errorContent },
          },
  };
}

/** The OpenAPI 3.1 document of the route table, generated from the calls' declarations. */
export function buildOpenApi(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of httpRoutes) {
    const methods =
      route.method === 'ANY'
        ? ['get', 'post', 'put', 'patch', 'delete']
        : [route.method.toLowerCase()];
    const entry = (paths[route.path] ??= {});
    for (const method of methods) entry[method] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tokenised items marketplace API',
      version: '1.0.0',
      description:
        'Answers are `{ "data": … }`; errors `{ "error": { code, message, fields?, details?, requestId } }`. ' +
        'Error codes are the web i18n keys; see docs/api.md.',
    },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    },
    security: [{ bearer: [] }],
    paths,
  };
}
