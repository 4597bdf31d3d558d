import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AuthContext } from '../auth-context.ts';
import { GoTrueError, errors } from '../gotrue-error.ts';
import { optionalString, parseBody, queryParam, userAgent } from '../request-input.ts';
import { refreshSession, signInWithPassword } from '../token.service.ts';

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
  await ctx.limits.signIn.before(email, ip);
  try {
    const response = await signInWithPassword(ctx, { email, password: body.password ?? '', ip, userAgent: agent });
    await ctx.limits.signIn.succeeded(email, ip);
    return response;
  } catch (error) {
    // Only a wrong password (or unknown email) counts: an unconfirmed or banned account knew its password.
    if (error instanceof GoTrueError && error.code === 'invalid_credentials') await ctx.limits.signIn.failed(email, ip);
    throw error;
  }
}

async function refreshGrant(ctx: AuthContext, rawBody: unknown) {
  const body = parseBody(RefreshBody, rawBody);
  if (!body.refresh_token) throw errors.validation('Refresh token is not valid');
  return refreshSession(ctx, body.refresh_token);
}
