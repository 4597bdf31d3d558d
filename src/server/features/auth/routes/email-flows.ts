import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AuthContext } from '../auth-context.ts';
import { requestEmailOtp, requestRecovery, resendEmail } from '../email-flows.service.ts';
import { GoTrueError, errors, sendGoTrueError } from '../gotrue-error.ts';
import { optionalBoolean, optionalObject, optionalString, parseBody, queryParam, userAgent, validateEmail } from '../request-input.ts';
import { resolveRedirect } from '../redirects.ts';
import { assertMetadataWithinLimits } from '../users.ts';
import { isHalfConfirmed, verifyEmailToken, type VerifyType, VERIFY_TYPES } from '../verify-token.ts';

const RecoverBody = z.looseObject({ email: optionalString });
const OtpBody = z.looseObject({ email: optionalString, phone: optionalString, data: optionalObject, create_user: optionalBoolean });
const ResendBody = z.looseObject({ email: optionalString, phone: optionalString, type: optionalString });
const VerifyBody = z.looseObject({
  email: optionalString,
  phone: optionalString,
  token: optionalString,
  token_hash: optionalString,
  type: optionalString,
  redirect_to: optionalString,
});

const clientOf = (request: FastifyRequest) => ({ ip: request.ip, userAgent: userAgent(request) });

/** POST /recover, /otp, /resend (all answer `{}`, also for unknown addresses) and POST/GET /verify. */
export function registerEmailFlows(app: FastifyInstance, ctx: AuthContext): void {
  app.post('/recover', async (request) => {
    await ctx.limits.consume('otp', request.ip);
    const body = parseBody(RecoverBody, request.body);
    if (!body.email) throw errors.validation('Password recovery requires an email');
    const email = validateEmail(body.email);
    await ctx.limits.consume('emailRequestsPerEmail', email);
    await requestRecovery(ctx, { email, redirectTo: queryParam(request, 'redirect_to') });
    return {};
  });

  app.post('/otp', async (request) => {
    await ctx.limits.consume('otp', request.ip);
    const body = parseBody(OtpBody, request.body);
    if (body.phone) throw new GoTrueError(422, 'phone_provider_disabled', 'Unsupported phone provider');
    const email = validateEmail(body.email);
    if (body.data) assertMetadataWithinLimits(body.data);
    await ctx.limits.consume('emailRequestsPerEmail', email);
    await requestEmailOtp(ctx, { email, data: body.data, createUser: body.create_user, redirectTo: queryParam(request, 'redirect_to') });
    return {};
  });

  app.post('/resend', async (request) => {
    await ctx.limits.consume('otp', request.ip);
    const body = parseBody(ResendBody, request.body);
    const type = body.type;
    if (type !== 'signup' && type !== 'email_change' && type !== 'sms' && type !== 'phone_change') {
      throw errors.validation('Missing one of these types: signup, email_change, sms, phone_change');
    }
    if (!body.email && !body.phone) throw errors.validation('Missing email address or phone number');
    if (type === 'sms' || type === 'phone_change') throw new GoTrueError(422, 'phone_provider_disabled', 'Unsupported phone provider');
    if (!body.email) throw errors.validation('Type provided requires an email address');
    const email = validateEmail(body.email);
    await ctx.limits.consume('emailRequestsPerEmail', email);
    await resendEmail(ctx, { type, email, redirectTo: queryParam(request, 'redirect_to') });
    return {};
  });

  app.post('/verify', async (request) => {
    await ctx.limits.consume('verify', request.ip);
    const body = parseBody(VerifyBody, request.body);
    if (!body.type) throw errors.validation('Verify requires a verification type');
    if (!VERIFY_TYPES.includes(body.type as VerifyType)) throw errors.validation('Unsupported verification type');
    if (body.token && body.token_hash) throw errors.validation('Verify requires either a token or a token hash');
    if (body.token_hash) {
      if (body.email || body.phone || body.redirect_to) throw errors.validation('Only the token_hash and type should be provided');
      return verifyEmailToken(ctx, { type: body.type as VerifyType, tokenHash: body.token_hash }, clientOf(request));
    }
    if (!body.token) throw errors.validation('Verify requires either a token or a token hash');
    if (body.phone) throw new GoTrueError(422, 'phone_provider_disabled', 'Unsupported phone provider');
    const email = validateEmail(body.email);
    await ctx.limits.consume('verifyPerEmail', email);
    return verifyEmailToken(ctx, { type: body.type as VerifyType, email, token: body.token.trim() }, clientOf(request));
  });

  // The email link: a browser navigation, so no apikey is required and every outcome is a redirect.
  app.get('/verify', async (request, reply) => {
    const token = queryParam(request, 'token');
    const type = queryParam(request, 'type');
    if (!token || !type) return sendGoTrueError(request, reply, errors.validation('Verify requires a token and a type'));
    const redirect = resolveRedirect(queryParam(request, 'redirect_to'), ctx.config.auth.siteUrl, ctx.config.auth.uriAllowList);
    const target = new URL(redirect);
    let fragment: URLSearchParams;
    try {
      await ctx.limits.consume('verify', request.ip);
      if (!VERIFY_TYPES.includes(type as VerifyType)) throw errors.validation('Unsupported verification type');
      const session = await verifyEmailToken(ctx, { type: type as VerifyType, tokenHash: token }, clientOf(request));
      // The first of an email change's two confirmations: GoTrue's message, no session.
      if (isHalfConfirmed(session)) {
        target.hash = new URLSearchParams({ message: session.msg }).toString();
        return reply.redirect(target.toString(), 303);
      }
      fragment = new URLSearchParams({
        access_token: session.access_token,
        expires_at: String(session.expires_at),
        expires_in: String(session.expires_in),
        refresh_token: session.refresh_token,
        sb: '',
        token_type: 'bearer',
        type,
      });
    } catch (error) {
      if (!(error instanceof GoTrueError)) throw error;
      fragment = new URLSearchParams({
        error: OAUTH_ERROR_BY_STATUS[error.status] ?? 'invalid_request',
        error_code: error.code,
        error_description: error.message,
        sb: '',
      });
    }
    fragment.sort();
    target.hash = fragment.toString();
    return reply.redirect(target.toString(), 303);
  });
}

const OAUTH_ERROR_BY_STATUS: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized_client',
  403: 'access_denied',
  429: 'access_denied',
  500: 'server_error',
  503: 'temporarily_unavailable',
};
