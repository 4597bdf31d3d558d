import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { notifyUserCreated, type AuthContext } from '../auth-context.ts';
import { sendAuthEmail } from '../auth-emails.ts';
import { GoTrueError, errors } from '../gotrue-error.ts';
import { assertPasswordLength, assertStrongPassword, hashPassword } from '../passwords.ts';
import { optionalObject, optionalString, parseBody, queryParam, userAgent, validateEmail } from '../request-input.ts';
import { createSession } from '../sessions.ts';
import { tokenResponse } from '../token-response.ts';
import { createEmailUser, fakeUser, findUserByEmail, loadUserJson, touchLastSignIn } from '../users.ts';

const SignupBody = z.looseObject({
  email: optionalString,
  phone: optionalString,
  password: optionalString,
  data: optionalObject,
});

/** POST /signup (auth-contract §4.1), checks in GoTrue's order so the first failing rule is the one reported. */
export function registerSignup(app: FastifyInstance, ctx: AuthContext): void {
  app.post('/signup', async (request) => {
    const body = parseBody(SignupBody, request.body);
    if (!body.email && !body.phone) throw new GoTrueError(422, 'anonymous_provider_disabled', 'Anonymous sign-ins are disabled');
    await ctx.limits.consume('otp', request.ip);
    if (ctx.config.auth.disableSignup) throw new GoTrueError(422, 'signup_disabled', 'Signups not allowed for this instance');
    if (!body.password) throw errors.validation('Signup requires a valid password');
    assertPasswordLength(body.password);
    assertStrongPassword(body.password, ctx.config.auth.passwordMinLength);
    if (body.email && body.phone) throw errors.validation('Only an email address or phone number should be provided on signup.');
    if (body.phone) throw new GoTrueError(400, 'phone_provider_disabled', 'Phone signups are disabled');
    const email = validateEmail(body.email);
    await ctx.limits.consume('emailRequestsPerEmail', email);
    const data = body.data ?? {};
    const redirectTo = queryParam(request, 'redirect_to');
    const autoconfirm = ctx.config.auth.autoconfirm;

    const existing = await findUserByEmail(ctx.db, email);
    if (existing?.email_confirmed_at) {
      if (autoconfirm) throw new GoTrueError(422, 'user_already_exists', 'User already registered');
      return fakeUser(email, data); // no email, no enumeration
    }
    if (existing) {
      // Unconfirmed: resend the confirmation; the stored password and metadata stay as they were.
      await sendAuthEmail(ctx, { user: existing, kind: 'signup', redirectTo });
      return loadUserJson(ctx.db, existing.id);
    }

    const user = await createEmailUser(ctx.db, { email, passwordHash: await hashPassword(body.password), data, confirmed: autoconfirm });
    await notifyUserCreated(ctx, user.id);
    if (!autoconfirm) {
      await sendAuthEmail(ctx, { user, kind: 'signup', redirectTo });
      return loadUserJson(ctx.db, user.id);
    }
    const { session, refreshToken } = await createSession(ctx.db, { userId: user.id, method: 'password', ip: request.ip, userAgent: userAgent(request) });
    await touchLastSignIn(ctx.db, user.id);
    return tokenResponse(ctx, session, refreshToken);
  });
}
