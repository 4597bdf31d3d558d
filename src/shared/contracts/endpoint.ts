import type { z } from 'zod/mini';

/**
 * One HTTP endpoint of /api/v1 as both sides see it: the server registers its route from it
 * (validation, serialisation, OpenAPI) and the web app calls it through `api(endpoint, input)`, so a
 * path, a parameter or a response shape is written once.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

type AnySchema = z.ZodMiniType;

export type Endpoint = {
  method: HttpMethod;
  /** Fastify-style path with `:name` parameters, e.g. `/api/v1/meetings/:id`. */
  path: string;
  params?: AnySchema;
  query?: AnySchema;
  body?: AnySchema;
  /** Request headers the endpoint reads (a loose object: every other header passes through). */
  headers?: AnySchema;
  /**
   * The success answer: a zod schema for JSON, or `'file'` for a download (a file or stream the
   * web app saves or plays rather than parses).
   */
  response: AnySchema | 'file';
  /** Status of a successful answer (200 unless given: 201 created, 202 accepted). */
  status?: 200 | 201 | 202;
  /** Largest request body in bytes, where an endpoint takes more than the server's default (1 MiB). */
  bodyLimit?: number;
  /** Signed-in callers only (the default); `false` for public endpoints such as a share link. */
  auth?: boolean;
  /**
   * Personal API tokens are accepted (the default, within their scopes); `false` for what only a
   * signed-in session may do: deleting data or the account, managing the tokens themselves.
   */
  apiTokens?: boolean;
  /** OpenAPI grouping. */
  tag: string;
  summary?: string;
};

/** Keeps the literal types of an endpoint (method, path, schemas) for inference on both sides. */
export const defineEndpoint = <const E extends Endpoint>(endpoint: E): E => endpoint;

type Infer<S> = S extends AnySchema ? z.infer<S> : never;
type InputOf<S> = S extends AnySchema ? z.input<S> : never;

/** What a caller passes: the endpoint's params, query and body, each only when it has them. */
export type EndpointInput<E extends Endpoint> = (E['params'] extends AnySchema ? { params: InputOf<E['params']> } : { params?: never }) &
  (E['query'] extends AnySchema ? { query?: InputOf<E['query']> } : { query?: never }) &
  (E['body'] extends AnySchema ? { body: InputOf<E['body']> } : { body?: never });

/** What a successful call answers (JSON endpoints). */
export type EndpointResponse<E extends Endpoint> = E['response'] extends AnySchema ? Infer<E['response']> : never;

/** `/api/v1/meetings/:id` with `{ id: 'm1' }` → `/api/v1/meetings/m1` (each value URI-encoded). */
export function fillPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null || value === '') throw new Error(`Missing path parameter "${name}" for ${path}`);
    return encodeURIComponent(String(value));
  });
}

/** A query object as a search string (`?a=1&b=x`), leaving out undefined and empty values. */
export function toSearch(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) for (const item of value) search.append(key, String(item));
    else search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
