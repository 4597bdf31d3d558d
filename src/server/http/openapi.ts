import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { AnyExamples } from './api-examples/example-types.ts';

/** The two bearer schemes of /api/v1 (the guard in features/auth/api-guard.ts tells them apart by the token's prefix). */
const API_SECURITY: Record<string, string[]>[] = [{ apiToken: [] }, { session: [] }];
/** Endpoints a personal API token may not call (token management, deleting data or the account). */
export const SESSION_ONLY_SECURITY: Record<string, string[]>[] = [{ session: [] }];

const DESCRIPTION = `Meetings, transcripts, notes, action items, teams, webhooks.

**Authentication**: \`Authorization: Bearer <token>\` with either

- a **personal API token** (\`prly_…\`, Settings › Developers): scope \`read\` allows GET and HEAD, \`write\` every method; 300 requests a minute per token; never accepted where an operation lists only \`session\`; or
- the **access token of a signed-in session** (an ES256 JWT from \`POST /auth/v1/token?grant_type=password\`, Supabase Auth compatible).

**Errors** answer \`{"error":{"code","message","details"?}}\`: UNAUTHENTICATED 401, FORBIDDEN 403, INSUFFICIENT_AAL 403, NOT_FOUND 404 (also for what the caller may not read), VALIDATION_FAILED 400, CONFLICT 409, GONE 410, PAYLOAD_TOO_LARGE 413, UNSUPPORTED_MEDIA_TYPE 415, RATE_LIMITED 429, ENGINE_UNAVAILABLE 503, INTERNAL 500.

**Webhooks** are signed by the Standard Webhooks spec (\`webhook-id\`, \`webhook-timestamp\`, \`webhook-signature\`); **MCP**: \`/mcp\` (Streamable HTTP) with an API token.`;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's contract's examples, for the OpenAPI document. */
    examples?: AnyExamples;
  }
}

type Transformed = ReturnType<typeof jsonSchemaTransform>;

/**
 * An endpoint's examples (api-examples/) on its JSON schemas: @fastify/swagger moves a schema's
 * `examples` onto the media type, where the reference shows them.
 */
function withExamples(transformed: Transformed, examples: AnyExamples | undefined): Transformed {
  if (!examples) return transformed;
  const schema = transformed.schema as { body?: object; response?: Record<string, object> };
  if (examples.body !== undefined && schema.body) schema.body = { ...schema.body, examples: [examples.body] };
  const [status, response] = Object.entries(schema.response ?? {})[0] ?? [];
  if (examples.response !== undefined && status && response) schema.response = { ...schema.response, [status]: { ...response, examples: [examples.response] } };
  return transformed;
}

/**
 * The OpenAPI 3.1 document of /api/v1, the public reference, generated from the same zod schemas
 * that validate requests and responses, so it cannot drift from the code. /auth/v1 is documented by
 * Supabase Auth itself. Call before the API routes are registered.
 */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Parley API', version, description: DESCRIPTION, license: { name: 'MIT', identifier: 'MIT' } },
      components: {
        securitySchemes: {
          apiToken: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'prly_…',
            description: 'A personal API token from Settings › Developers, e.g. `Authorization: Bearer prly_3q2…`.',
          },
          session: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The access token of a signed-in session (/auth/v1).' },
        },
      },
      security: API_SECURITY,
    },
    transform: (input) => {
      if (!input.url.startsWith('/api/v1/') || input.url === '/api/v1/openapi.json') return { schema: { ...input.schema, hide: true }, url: input.url };
      return withExamples(jsonSchemaTransform(input), input.route.config?.examples);
    },
    transformObject: jsonSchemaTransformObject,
  });
  app.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
