import type { AuthContext } from './auth-context.ts';
import { GoTrueError, errors } from './gotrue-error.ts';
import { checkPasswordStrength, verifyPassword } from './passwords.ts';
import { createSession, rotateRefreshToken } from './sessions.ts';
import { tokenResponse, type TokenResponse } from './token-response.ts';
import { findUserByEmail, findUserById, touchLastSignIn } from './users.repository.ts';
import { isBanned } from './users.ts';

/** The password grant once the request has passed its checks (auth-contract §4.2); a weak password still signs in, flagged. */
export async function signInWithPassword(
  ctx: AuthContext,
  input: { email: string; password: string; ip: string; userAgent: string | null },
): Promise<TokenResponse> {
  const { email, password } = input;
  const user = await findUserByEmail(ctx.db, email);
  // Unknown emails still pay for a hash check, so response times do not reveal who has an account.
  const passwordOk = await verifyPassword(password, user?.encrypted_password ?? null, ctx.config.auth.passwordHash);
  if (!user || !passwordOk) throw errors.invalidCredentials();
  if (isBanned(user)) throw errors.userBanned(400);
  if (!user.email_confirmed_at) throw new GoTrueError(400, 'email_not_confirmed', 'Email not confirmed');
  const { session, refreshToken } = await createSession(ctx.db, { userId: user.id, method: 'password', ip: input.ip, userAgent: input.userAgent });
  await touchLastSignIn(ctx.db, user.id);
  const response = await tokenResponse(ctx, session, refreshToken);
  const weak = checkPasswordStrength(password, ctx.config.auth.passwordMinLength);
  return weak ? { ...response, weak_password: weak } : response;
}

/** The refresh_token grant (auth-contract §4.3): the token rotates by sessions.ts's rules if its user still exists and is not banned. */
export async function refreshSession(ctx: AuthContext, presented: string): Promise<TokenResponse> {
  const { session, refreshToken } = await rotateRefreshToken(ctx.db, presented, {
    reuseIntervalSeconds: ctx.config.auth.refreshTokenReuseIntervalSeconds,
    clock: ctx.clock,
    onSessionsEnded: ctx.onSessionsEnded,
  });
  const user = await findUserById(ctx.db, session.user_id);
  if (!user) throw new GoTrueError(400, 'session_not_found', 'Invalid Refresh Token: No Valid Session Found');
  if (isBanned(user)) throw errors.userBanned(400);
  return tokenResponse(ctx, session, refreshToken);
}
