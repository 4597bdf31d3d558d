import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AuthContext } from '../auth-context.ts';
import { GoTrueError, errors } from '../gotrue-error.ts';
import { assertPasswordLength, assertStrongPassword } from '../passwords.ts';
import { optionalObject, optionalString, parseBody, queryParam, userAgent, validateEmail } from '../request-input.ts';
import { signUpWithEmail } from '../signup.service.ts';
import { assertMetadataWithinLimits } from '../users.ts';

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
    if (body.data) assertMetadataWithinLimits(body.data);
    await ctx.limits.consume('emailRequestsPerEmail', email);
    return signUpWithEmail(ctx, {
      email,
      password: body.password,
      data: body.data ?? {},
      redirectTo: queryParam(request, 'redirect_to'),
      ip: request.ip,
      userAgent: userAgent(request),
    });
  });
}
