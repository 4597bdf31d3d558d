import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AuthContext } from '../auth-context.ts';
import { authenticate } from '../authenticate.ts';
import { GoTrueError, errors } from '../gotrue-error.ts';
import { challengeFactor, enrolTotpFactor, findOwnFactor, unenrolFactor, verifyFactor } from '../mfa.service.ts';
import { optionalString, parseBody } from '../request-input.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const EnrollBody = z.looseObject({ factor_type: optionalString, friendly_name: optionalString, issuer: optionalString });
const VerifyBody = z.looseObject({ challenge_id: optionalString, code: optionalString });

function factorIdParam(request: FastifyRequest): string {
  const { id } = request.params as { id: string };
  if (!UUID.test(id)) throw new GoTrueError(404, 'validation_failed', 'factor_id must be an UUID');
  return id;
}

/** POST /factors, /factors/{id}/challenge, /factors/{id}/verify and DELETE /factors/{id} (auth-contract §4.11). */
export function registerFactors(app: FastifyInstance, ctx: AuthContext): void {
  app.post('/factors', async (request) => {
    const auth = await authenticate(ctx, request);
    const body = parseBody(EnrollBody, request.body);
    const type = body.factor_type;
    if (type !== 'totp') {
      if (type === 'phone') throw new GoTrueError(422, 'mfa_phone_enroll_not_enabled', 'MFA enroll is disabled for Phone');
      if (type === 'webauthn') throw new GoTrueError(422, 'mfa_webauthn_enroll_not_enabled', 'MFA enroll is disabled for WebAuthn');
      throw errors.validation('factor_type needs to be totp, phone, or webauthn');
    }
    const factor = await enrolTotpFactor(ctx, auth, { friendlyName: body.friendly_name ?? '', issuer: body.issuer });
    return { id: factor.id, type: 'totp', friendly_name: factor.friendlyName, totp: { qr_code: factor.qrCode, secret: factor.secret, uri: factor.uri } };
  });

  app.post('/factors/:id/challenge', async (request) => {
    const auth = await authenticate(ctx, request);
    await ctx.limits.consume('mfa', request.ip);
    const factor = await findOwnFactor(ctx, auth.user.id, factorIdParam(request));
    const challenge = await challengeFactor(ctx, factor, request.ip);
    return { id: challenge.id, type: 'totp', expires_at: challenge.expiresAt };
  });

  app.post('/factors/:id/verify', async (request) => {
    const auth = await authenticate(ctx, request);
    await ctx.limits.consume('mfa', request.ip);
    // The factor is looked up before the body is read, so the first failure reported stays the same.
    const factor = await findOwnFactor(ctx, auth.user.id, factorIdParam(request));
    const body = parseBody(VerifyBody, request.body);
    if (!body.code) throw errors.validation('Code needs to be non-empty');
    return verifyFactor(ctx, auth, factor, { challengeId: body.challenge_id, code: body.code, ip: request.ip });
  });

  app.delete('/factors/:id', async (request) => {
    const auth = await authenticate(ctx, request);
    const factor = await findOwnFactor(ctx, auth.user.id, factorIdParam(request));
    await unenrolFactor(ctx, auth, factor);
    return { id: factor.id };
  });
}
