import { z } from 'zod/mini';
import { defineEndpoint } from './endpoint.ts';

/** Personal API tokens (Settings › Developers): what a token may do. GET and HEAD need `read`; every other method `write`. */
export const ApiTokenScopeSchema = z.enum(['read', 'write']);
export type ApiTokenScope = z.infer<typeof ApiTokenScopeSchema>;

/** Every token starts with this, so a leaked one is recognisable (secret scanners, logs). */
export const API_TOKEN_PREFIX = 'prly_';
/** Tokens one person may hold at once. */
export const MAX_API_TOKENS = 50;

export const CreateApiTokenBodySchema = z.object({
  name: z.string().check(z.trim(), z.minLength(1, 'Give the token a name.'), z.maxLength(100, 'A token name may be at most 100 characters.')),
  scopes: z.array(ApiTokenScopeSchema).check(z.minLength(1, 'Choose at least one scope.'), z.maxLength(2)),
  /** When it stops working; omitted or null: never. */
  expiresAt: z.optional(z.nullable(z.iso.datetime({ offset: true }))),
});

export const CreatedApiTokenSchema = z.object({
  id: z.uuid(),
  /** Shown once: only its hash is kept. */
  token: z.string(),
});

export const ApiTokenSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  scopes: z.array(ApiTokenScopeSchema),
  /** The first characters, to tell tokens apart (`prly_AbCd…`). */
  preview: z.string(),
  createdAt: z.string(),
  expiresAt: z.nullable(z.string()),
  lastUsedAt: z.nullable(z.string()),
});
export type ApiToken = z.infer<typeof ApiTokenSchema>;

const tag = 'api-tokens';

export const apiTokenEndpoints = {
  // Token management is a session's only: a token cannot mint or revoke tokens.
  create: defineEndpoint({
    method: 'POST',
    path: '/api/v1/tokens',
    body: CreateApiTokenBodySchema,
    response: CreatedApiTokenSchema,
    status: 201,
    apiTokens: false,
    tag,
    summary: 'Creates a personal API token; the token is in this answer only',
  }),
  list: defineEndpoint({
    method: 'GET',
    path: '/api/v1/tokens',
    response: z.object({ tokens: z.array(ApiTokenSchema) }),
    apiTokens: false,
    tag,
    summary: "The caller's API tokens (never the tokens themselves)",
  }),
  revoke: defineEndpoint({
    method: 'DELETE',
    path: '/api/v1/tokens/:id',
    params: z.object({ id: z.uuid() }),
    response: z.object({ ok: z.literal(true) }),
    apiTokens: false,
    tag,
    summary: 'Revokes an API token at once',
  }),
};
