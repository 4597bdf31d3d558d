import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

/**
 * The OpenAPI document of /api/v1, generated from the same zod schemas that validate requests
 * and responses, so it cannot drift from the code. /auth/v1 is documented by Supabase Auth itself.
 * Call before the API routes are registered.
 */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Parley API', version, description: 'Meetings, transcripts and insights. Authenticate with a bearer access token from /auth/v1.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: (input) => {
      if (!input.url.startsWith('/api/v1/') || input.url === '/api/v1/openapi.json') return { schema: { ...input.schema, hide: true }, url: input.url };
      return jsonSchemaTransform(input);
    },
    transformObject: jsonSchemaTransformObject,
  });
  app.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
