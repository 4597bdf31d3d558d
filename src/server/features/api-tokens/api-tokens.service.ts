import crypto from 'node:crypto';
import { API_TOKEN_PREFIX, MAX_API_TOKENS, type ApiToken, type ApiTokenScope } from '#shared/contracts/api-tokens.ts';
import type { Db } from '#server/db/create-db.ts';
import { AppError, notFound } from '#server/lib/app-error.ts';
import { hashOpaqueToken } from '#server/lib/opaque-token.ts';
import type { RateLimiters } from '#server/lib/rate-limit.ts';
import type { ApiTokenGrant } from '../auth/api-guard.ts';
import {
  countApiTokens,
  deleteApiToken,
  deleteApiTokensOf,
  findApiTokenByHash,
  insertApiToken,
  listApiTokens,
  touchApiToken,
  type ApiTokenRow,
} from './api-tokens.repository.ts';

const API_TOKEN_REQUESTS_PER_MINUTE = 300;

export type ApiTokensService = ReturnType<typeof createApiTokensService>;

const present = (row: ApiTokenRow): ApiToken => ({
  id: row.id,
  name: row.name,
  scopes: row.scopes.split(',').filter((s): s is ApiTokenScope => s === 'read' || s === 'write'),
  preview: row.preview,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  lastUsedAt: row.last_used_at,
});

/**
 * Personal API tokens: `prly_` and 32 random bytes (base64url), shown once; only the SHA-256 is kept
 * (a fast hash is right for a secret of full entropy). Checked by the /api/v1 guard (auth/api-guard.ts).
 */
export function createApiTokensService(deps: { db: Db; now: () => Date; rateLimiters: RateLimiters }) {
  const { db } = deps;
  return {
    /** Requests one token may make a minute (scripts, MCP clients), counted by the /api/v1 guard. */
    limiter: deps.rateLimiters.limiter({ keyPrefix: 'api-token', points: API_TOKEN_REQUESTS_PER_MINUTE, duration: 60 }),

    create: async (
      userId: string,
      input: { name: string; scopes: ApiTokenScope[]; expiresAt?: string | null | undefined },
    ): Promise<{ id: string; token: string }> => {
      const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
      if (expiresAt && expiresAt.getTime() <= deps.now().getTime()) throw new AppError('VALIDATION_FAILED', 'The expiry date must be in the future.');
      if ((await countApiTokens(db, userId)) >= MAX_API_TOKENS)
        throw new AppError('CONFLICT', `You have ${MAX_API_TOKENS} API tokens, the most one account may hold. Revoke one you no longer use first.`);
      const token = `${API_TOKEN_PREFIX}${crypto.randomBytes(32).toString('base64url')}`;
      const id = crypto.randomUUID();
      // read is implied by write: a token that may change things may read what it changes.
      const scopes: ApiTokenScope[] = input.scopes.includes('write') ? ['read', 'write'] : ['read'];
      await insertApiToken(db, {
        id,
        user_id: userId,
        name: input.name,
        token_hash: hashOpaqueToken(token),
        preview: `${token.slice(0, API_TOKEN_PREFIX.length + 4)}…`,
        scopes: scopes.join(','),
        created_at: deps.now().toISOString(),
        expires_at: expiresAt?.toISOString() ?? null,
        last_used_at: null,
      });
      return { id, token };
    },

    list: async (userId: string): Promise<ApiToken[]> => (await listApiTokens(db, userId)).map(present),

    revoke: async (userId: string, id: string): Promise<void> => {
      if (!(await deleteApiToken(db, userId, id))) throw notFound('API token');
    },

    /** The grant of a presented token; undefined for an unknown, revoked or expired one. Records the use. */
    verify: async (token: string): Promise<ApiTokenGrant | undefined> => {
      if (!token.startsWith(API_TOKEN_PREFIX) || token.length > 200) return undefined;
      const row = await findApiTokenByHash(db, hashOpaqueToken(token));
      const now = deps.now();
      if (!row || (row.expires_at !== null && Date.parse(row.expires_at) <= now.getTime())) return undefined;
      await touchApiToken(db, row.id, now.toISOString(), new Date(now.getTime() - 60_000).toISOString());
      return { id: row.id, userId: row.user_id, scopes: present(row).scopes };
    },

    /** Delete All Data and Delete Account: no token of the person opens anything any more. */
    removeFor: async (userId: string): Promise<void> => deleteApiTokensOf(db, userId),
  };
}
