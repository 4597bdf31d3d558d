import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AuthContext } from '../auth-context.ts';
import { GoTrueError, errors } from '../gotrue-error.ts';
import { checkPasswordStrength, verifyPassword } from '../passwords.ts';
import { optionalString, parseBody, queryParam, userAgent } from '../request-input.ts';
import { createSession, rotateRefreshToken } from '../sessions.ts';
import { tokenResponse } from '../token-response.ts';
import { findUserByEmail, findUserById, isBanned, touchLastSignIn } from '../users.ts';

const PasswordBody = z.looseObject({ email: optionalString, phone: optionalString, password: optionalString });
const RefreshBody = z.looseObject({ refresh_token: optionalString });

/** POST /token?grant_type=password|refresh_token (auth-contract §4.2, §4.3). */
export function registerToken(app: FastifyInstance, ctx: AuthContext): void {
  app.post('/token', async (request) => {
    await ctx.limits.consume('token', request.ip);
    const grantType = queryParam(request, 'grant_type');
    if (grantType === 'password') return passwordGrant(ctx, request.body, request.ip, userAgent(request));
    if (grantType === 'refresh_token') return refreshGrant(ctx, request.body);
    if (grantType === 'pkce') throw new GoTrueError(404, 'flow_state_not_found', 'invalid flow state, no valid flow state found');
    throw new GoTrueError(400, 'invalid_credentials', 'unsupported_grant_type');
  });
}

async function passwordGrant(ctx: AuthContext, rawBody: unknown, ip: string, agent: string | null) {
  const body = parseBody(PasswordBody, rawBody);
  if (body.email && body.phone) throw errors.validation('Only an email address or phone number should be provided on login.');
  if (!body.email && !body.phone) throw errors.validation('missing email or phone');
  if (body.phone) throw new GoTrueError(422, 'phone_provider_disabled', 'Phone logins are disabled');
  const email = (body.email ?? '').trim().toLowerCase();
  await ctx.limits.consume('signInPerEmail', email);
  const password = body.password ?? '';
  const user = await findUserByEmail(ctx.db, email);
  // Unknown emails still pay for a hash check, so response times do not reveal who has an account.
  const passwordOk = await verifyPassword(password, user?.encrypted_password ?? null);
  if (!user || !passwordOk) throw errors.invalidCredentials();
  if (isBanned(user)) throw errors.userBanned(400);
  if (!user.email_confirmed_at) throw new GoTrueError(400, 'email_not_confirmed', 'Email not confirmed');
  const { session, refreshToken } = await createSession(ctx.db, { userId: user.id, method: 'password', ip, userAgent: agent });
  await touchLastSignIn(ctx.db, user.id);
  const response = await tokenResponse(ctx, session, refreshToken);
  const weak = checkPasswordStrength(password, ctx.config.auth.passwordMinLength);
  return weak ? { ...response, weak_password: weak } : response;
}

async function refreshGrant(ctx: AuthContext, rawBody: unknown) {
  const body = parseBody(RefreshBody, rawBody);
  if (!body.refresh_token) throw errors.validation('Refresh token is not valid');
  const { session, refreshToken } = await rotateRefreshToken(ctx.db, body.refresh_token, {
    reuseIntervalSeconds: ctx.config.auth.refreshTokenReuseIntervalSeconds,
  });
  const user = await findUserById(ctx.db, session.user_id);
  if (!user) throw new GoTrueError(400, 'session_not_found', 'Invalid Refresh Token: No Valid Session Found');
  if (isBanned(user)) throw errors.userBanned(400);
  return tokenResponse(ctx, session, refreshToken);
}
