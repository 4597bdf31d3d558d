import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, onRequestAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { en } from 'zod/locales';
import { config, type z } from 'zod/mini';
import type { Endpoint, EndpointResponse } from '#shared/contracts/endpoint.ts';
import { examplesOf } from './api-examples/index.ts';
import { SESSION_ONLY_SECURITY } from './openapi.ts';

// The shared contracts are written with zod/mini so the web app downloads a fraction of zod; mini
// carries no messages of its own. The server answers validation errors in zod's English words
// ("Invalid request: body.title Too big: expected string to have <=200 characters"), which classic
// zod would load on its first schema; loaded here so that wording never depends on module order.
config(en());

type Parsed<S> = S extends z.ZodMiniType ? z.infer<S> : undefined;

/** The request of an endpoint's route, typed from its schemas (already validated by Fastify). */
export type EndpointRequest<E extends Endpoint> = FastifyRequest<{
  Params: Parsed<E['params']>;
  Querystring: Parsed<E['query']>;
  Body: Parsed<E['body']>;
  Headers: Parsed<E['headers']>;
}>;

/**
 * A route's handler: JSON endpoints answer their response shape (Fastify serialises and checks
 * it); file endpoints answer through `reply` themselves (headers, a stream).
 */
export type EndpointHandler<E extends Endpoint> = (
  request: EndpointRequest<E>,
  reply: FastifyReply,
) => Promise<E['response'] extends 'file' ? FastifyReply : EndpointResponse<E>>;

export type Router = <E extends Endpoint>(endpoint: E, handler: EndpointHandler<E>) => void;

/**
 * Routes registered from the shared endpoint contracts: method, path, validation, response schema,
 * success status, OpenAPI tag and the sign-in guard all come from the contract, so a route cannot
 * drift from what the web app calls.
 */
export function createRouter(app: FastifyInstance, requireUser: onRequestAsyncHookHandler): Router {
  const api = app.withTypeProvider<ZodTypeProvider>();
  return (endpoint, handler) => {
    const status = endpoint.status ?? 200;
    const schema: FastifySchema = {
      tags: [endpoint.tag],
      ...(endpoint.summary ? { summary: endpoint.summary } : {}),
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(endpoint.body ? { body: endpoint.body } : {}),
      ...(endpoint.headers ? { headers: endpoint.headers } : {}),
      ...(endpoint.response === 'file' ? {} : { response: { [status]: endpoint.response } }),
      ...(endpoint.auth === false ? { security: [] } : endpoint.apiTokens === false ? { security: SESSION_ONLY_SECURITY } : {}),
    };
    api.route({
      method: endpoint.method,
      url: endpoint.path,
      schema,
      ...(endpoint.bodyLimit ? { bodyLimit: endpoint.bodyLimit } : {}),
      config: { apiTokens: endpoint.apiTokens !== false, examples: examplesOf(endpoint) },
      // The guard runs first, before the body is parsed or validated: a caller who may not use the route learns nothing of its schema.
      ...(endpoint.auth === false ? {} : { onRequest: requireUser }),
      handler: async (request, reply) => {
        const result = await handler(request as unknown as EndpointRequest<typeof endpoint>, reply);
        if (endpoint.response === 'file') return result;
        return reply.status(status).send(result);
      },
    });
  };
}
