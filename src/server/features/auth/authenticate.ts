import type { FastifyRequest } from 'fastify';
import { verifyAccessToken, type AccessTokenClaims } from './access-token.ts';
import type { AuthContext } from './auth-context.ts';
import type { SessionRow, UserRow } from './auth.table.ts';
import { errors } from './gotrue-error.ts';
import { hasVerifiedFactor } from './mfa.repository.ts';
import { bearerToken } from './request-input.ts';
import { findSession } from './sessions.repository.ts';
import { findUserById } from './users.repository.ts';
import { isBanned } from './users.ts';

export type Authenticated = { claims: AccessTokenClaims; user: UserRow; session: SessionRow };

/**
 * The bearer check of the /auth/v1 routes: a valid signature, and a session that still exists, so
 * sign-out and revocation take effect at once (GoTrue does the same). An aal1 session of a user
 * with MFA passes: these routes apply GoTrue's own per-endpoint rules (the challenge and verify
 * must be reachable, credential changes ask for aal2). Throws GoTrueError with the contract's codes.
 */
export async function authenticate(ctx: AuthContext, request: FastifyRequest): Promise<Authenticated> {
  return authenticateSession(ctx, bearerToken(request));
}

/**
 * The check of everything outside /auth/v1 (the /api/v1 guard, tus uploads, the realtime and live
 * sockets): the session check above, and the assurance level. A user with a verified factor whose
 * token or session is still aal1 (signed in with the password only) reaches nothing here until the
 * MFA challenge is passed: 403 `insufficient_aal` (Supabase's guidance for apps with MFA).
 */
export async function authenticateToken(ctx: AuthContext, token: string | undefined): Promise<Authenticated> {
  const authenticated = await authenticateSession(ctx, token);
  // Both must say aal2: a session falls back to aal1 when its factor is removed, while its last token still says aal2.
  const passedMfa = authenticated.claims.aal === 'aal2' && authenticated.session.aal === 'aal2';
  if (!passedMfa && (await hasVerifiedFactor(ctx.db, authenticated.user.id))) throw errors.insufficientAal();
  return authenticated;
}

/**
 * Whether the session still exists. A socket asks again once it watches for the session's end: a
 * sign-out that came between its authentication's read and the watch was told to no one.
 */
export async function sessionStillOpen(ctx: AuthContext, sessionId: string): Promise<boolean> {
  return (await findSession(ctx.db, sessionId)) !== undefined;
}

async function authenticateSession(ctx: AuthContext, token: string | undefined): Promise<Authenticated> {
  if (!token) throw errors.noAuthorization();
  const claims = await verifyAccessToken(ctx.keys, token, ctx.issuer);
  if (typeof claims.session_id !== 'string') throw errors.sessionNotFound();
  const [session, user] = await Promise.all([findSession(ctx.db, claims.session_id), findUserById(ctx.db, claims.sub)]);
  if (!user) throw errors.userNotFound();
  if (!session || session.user_id !== user.id) throw errors.sessionNotFound();
  if (isBanned(user)) throw errors.userBanned(403);
  return { claims, user, session };
}
