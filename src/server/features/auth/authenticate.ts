import type { FastifyRequest } from 'fastify';
import { verifyAccessToken, type AccessTokenClaims } from './access-token.ts';
import type { AuthContext } from './auth-context.ts';
import type { SessionRow, UserRow } from './auth.table.ts';
import { errors } from './gotrue-error.ts';
import { bearerToken } from './request-input.ts';
import { findSession } from './sessions.repository.ts';
import { findUserById } from './users.repository.ts';
import { isBanned } from './users.ts';

export type Authenticated = { claims: AccessTokenClaims; user: UserRow; session: SessionRow };

/**
 * The bearer check of every authenticated route, /auth/v1 and /api/v1 alike: a valid signature,
 * and a session that still exists, so sign-out and revocation take effect at once (GoTrue does
 * the same). Throws GoTrueError with the contract's codes.
 */
export async function authenticate(ctx: AuthContext, request: FastifyRequest): Promise<Authenticated> {
  return authenticateToken(ctx, bearerToken(request));
}

/** The same check for callers that are not Fastify routes (the tus upload server). */
export async function authenticateToken(ctx: AuthContext, token: string | undefined): Promise<Authenticated> {
  if (!token) throw errors.noAuthorization();
  const claims = await verifyAccessToken(ctx.keys, token, ctx.issuer);
  if (typeof claims.session_id !== 'string') throw errors.sessionNotFound();
  const [session, user] = await Promise.all([findSession(ctx.db, claims.session_id), findUserById(ctx.db, claims.sub)]);
  if (!user) throw errors.userNotFound();
  if (!session || session.user_id !== user.id) throw errors.sessionNotFound();
  if (isBanned(user)) throw errors.userBanned(403);
  return { claims, user, session };
}
