import type { FastifyRequest } from 'fastify';
import { API_TOKEN_PREFIX, type ApiTokenScope } from '#shared/contracts/api-tokens.ts';
import { AppError } from '#server/lib/app-error.ts';
import type { RateLimiter } from '#server/lib/rate-limit.ts';
import type { AccessTokenClaims } from './access-token.ts';
import type { AuthContext } from './auth-context.ts';
import type { SessionRow, UserRow } from './auth.table.ts';
import { authenticateToken, type Authenticated } from './authenticate.ts';
import { GoTrueError } from './gotrue-error.ts';
import { bearerToken } from './request-input.ts';
import { findUserById } from './users.repository.ts';
import { isBanned } from './users.ts';

/** A personal API token's grant, as the guard found it. */
export type ApiTokenGrant = { id: string; userId: string; scopes: readonly ApiTokenScope[] };

/** Who called an /api/v1 route: a signed-in session, or a personal API token (no session). */
export type ApiCaller =
  | (Authenticated & { apiToken?: undefined })
  | { user: UserRow; apiToken: ApiTokenGrant; claims?: AccessTokenClaims | undefined; session?: SessionRow | undefined };

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the /api/v1 guard on every authenticated route. */
    auth?: ApiCaller;
  }
  interface FastifyContextConfig {
    /** The route takes personal API tokens (from its contract's `apiTokens`, on by default). */
    apiTokens?: boolean;
    /** The scope a token needs here, where the method does not say it (/mcp reads with POST). */
    tokenScope?: ApiTokenScope;
  }
}

/** What the guard needs of the api-tokens feature (deps.ts hands it over). */
export type ApiTokenPort = {
  verify: (token: string) => Promise<ApiTokenGrant | undefined>;
  /** Requests per token and minute (the rate-limit port). */
  limiter: RateLimiter;
};

/**
 * The /api/v1 bearer guard, the one place access is decided: a session's JWT (signature, expiry,
 * live session and assurance level, authenticateToken), or a personal API token (`prly_…`) within its
 * scopes on routes that take tokens, rate limited per token. Reported in the API's own error format:
 * a session that still owes its MFA challenge is a 403 INSUFFICIENT_AAL (refreshing will not help);
 * any other failure of a session is a 401 so the web app knows to refresh or sign in.
 */
export function createApiGuard(ctx: AuthContext, apiTokens?: ApiTokenPort) {
  return async function requireUser(request: FastifyRequest): Promise<void> {
    const token = bearerToken(request);
    if (token?.startsWith(API_TOKEN_PREFIX)) {
      request.auth = await authenticateApiToken(ctx, apiTokens, request, token);
      return;
    }
    try {
      request.auth = await authenticateToken(ctx, token);
    } catch (error) {
      if (error instanceof GoTrueError) throw toApiAuthError(error);
      throw error;
    }
  };
}

async function authenticateApiToken(ctx: AuthContext, port: ApiTokenPort | undefined, request: FastifyRequest, token: string): Promise<ApiCaller> {
  if (!port || request.routeOptions.config.apiTokens === false)
    throw new AppError('FORBIDDEN', 'API tokens cannot be used for this; sign in to Parley to do it.');
  const grant = await port.verify(token);
  if (!grant) throw new AppError('UNAUTHENTICATED', 'This API token is not valid: it was revoked, it expired, or it was mistyped.');
  const needs: ApiTokenScope = request.routeOptions.config.tokenScope ?? (request.method === 'GET' || request.method === 'HEAD' ? 'read' : 'write');
  if (!grant.scopes.includes(needs)) throw new AppError('FORBIDDEN', `This API token may not do this: ${request.method} needs the ${needs} scope.`);
  const use = await port.limiter.consume(grant.id);
  if (!use.allowed)
    throw new AppError('RATE_LIMITED', `Too many requests with this API token. Try again in ${Math.ceil(use.msBeforeNext / 1000)} seconds.`, {
      details: { retryAfterSeconds: Math.ceil(use.msBeforeNext / 1000) },
    });
  const user = await findUserById(ctx.db, grant.userId);
  if (!user) throw new AppError('UNAUTHENTICATED', 'This API token is not valid: it was revoked, it expired, or it was mistyped.');
  if (isBanned(user)) throw new AppError('FORBIDDEN', 'This account is suspended.');
  return { user, apiToken: grant };
}

/** An auth failure in the /api/v1 vocabulary. */
function toApiAuthError(error: GoTrueError): AppError {
  if (error.code === 'insufficient_aal') return new AppError('INSUFFICIENT_AAL', error.message);
  return new AppError('UNAUTHENTICATED', error.message);
}

/** The authenticated caller of a guarded route (the guard has run, so it is there). */
export function caller(request: FastifyRequest): ApiCaller {
  if (!request.auth) throw new AppError('UNAUTHENTICATED', 'This endpoint requires a valid Bearer token');
  return request.auth;
}

/** The caller's session, for what only a signed-in session may do (its contract also refuses API tokens). */
export function sessionCaller(request: FastifyRequest): Authenticated {
  const auth = caller(request);
  if (auth.apiToken !== undefined || !auth.session || !auth.claims)
    throw new AppError('FORBIDDEN', 'API tokens cannot be used for this; sign in to Parley to do it.');
  return { user: auth.user, session: auth.session, claims: auth.claims };
}
