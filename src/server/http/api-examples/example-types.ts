import type { z } from 'zod/mini';
import type { Endpoint } from '#shared/contracts/endpoint.ts';

/**
 * A typical request body and answer of an endpoint, shown in the OpenAPI reference: a body where
 * the endpoint takes one, an answer unless it answers a file. Kept on the server, beside the
 * document they go into, so the web app's bundle never carries them.
 */
type EndpointExamples<E extends Endpoint> = (E['body'] extends z.ZodMiniType ? { body: z.input<E['body']> } : { body?: never }) &
  (E['response'] extends z.ZodMiniType ? { response: z.input<E['response']> } : { response?: never });

/** One example per endpoint of a contract's group: leaving one out does not compile. */
export type ExamplesOf<G extends Record<string, Endpoint>> = { readonly [K in keyof G]: EndpointExamples<G[K]> };

export type AnyExamples = { body?: unknown; response?: unknown };
