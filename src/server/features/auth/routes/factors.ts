import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as OTPAuth from 'otpauth';
import QRCode from 'qrcode';
import { z } from 'zod';
import type { AmrEntry } from '../access-token.ts';
import type { AuthContext } from '../auth-context.ts';
import { authenticate, type Authenticated } from '../authenticate.ts';
import { nowIso, secondsSince, unixSeconds } from '../clock.ts';
import { GoTrueError, errors } from '../gotrue-error.ts';
import { optionalString, parseBody } from '../request-input.ts';
import { resetRefreshTokens, sessionAmr } from '../sessions.ts';
import { tokenResponse } from '../token-response.ts';

/** TOTP MFA (auth-contract §4.11): SHA1, 6 digits, 30 s, ±1 step; challenges live 300 s. */
const CHALLENGE_SECONDS = 300;
const MAX_FACTORS = 10;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const EnrollBody = z.looseObject({ factor_type: optionalString, friendly_name: optionalString, issuer: optionalString });
const VerifyBody = z.looseObject({ challenge_id: optionalString, code: optionalString });

function totpFor(secret: string, issuer: string, label: string): OTPAuth.TOTP {
  return new OTPAuth.TOTP({ issuer, label, algorithm: 'SHA1', digits: 6, period: 30, secret: OTPAuth.Secret.fromBase32(secret) });
}

export function registerFactors(app: FastifyInstance, ctx: AuthContext): void {
  const ownFactor = async (auth: Authenticated, request: FastifyRequest) => {
    const { id } = request.params as { id: string };
    if (!UUID.test(id)) throw new GoTrueError(404, 'validation_failed', 'factor_id must be an UUID');
    const factor = await ctx.db.selectFrom('auth_mfa_factors').selectAll().where('id', '=', id).where('user_id', '=', auth.user.id).executeTakeFirst();
    if (!factor) throw new GoTrueError(404, 'mfa_factor_not_found', 'Factor not found');
    return factor;
  };

  app.post('/factors', async (request) => {
    const auth = await authenticate(ctx, request);
    const body = parseBody(EnrollBody, request.body);
    const type = body.factor_type;
    if (type !== 'totp') {
      if (type === 'phone') throw new GoTrueError(422, 'mfa_phone_enroll_not_enabled', 'MFA enroll is disabled for Phone');
      if (type === 'webauthn') throw new GoTrueError(422, 'mfa_webauthn_enroll_not_enabled', 'MFA enroll is disabled for WebAuthn');
      throw errors.validation('factor_type needs to be totp, phone, or webauthn');
    }
    const userId = auth.user.id;
    // Enrolments abandoned before their first challenge are purged after the challenge lifetime.
    const staleBefore = new Date(Date.now() - CHALLENGE_SECONDS * 1000).toISOString();
    await ctx.db
      .deleteFrom('auth_mfa_factors')
      .where('user_id', '=', userId)
      .where('status', '=', 'unverified')
      .where('last_challenged_at', 'is', null)
      .where('created_at', '<', staleBefore)
      .execute();
    const factors = await ctx.db.selectFrom('auth_mfa_factors').selectAll().where('user_id', '=', userId).execute();
    if (factors.some((f) => f.status === 'verified') && auth.session.aal !== 'aal2') {
      throw new GoTrueError(403, 'insufficient_aal', 'AAL2 required to enroll a new factor');
    }
    if (factors.length >= MAX_FACTORS) {
      throw new GoTrueError(422, 'too_many_enrolled_mfa_factors', 'Maximum number of verified factors reached, unenroll to continue');
    }
    const friendlyName = body.friendly_name ?? '';
    if (friendlyName && factors.some((f) => f.friendly_name === friendlyName)) {
      throw new GoTrueError(422, 'mfa_factor_name_conflict', `A factor with the friendly name "${friendlyName}" for this user already exists`);
    }
    const issuer = body.issuer || new URL(ctx.config.auth.siteUrl).host;
    const secret = new OTPAuth.Secret({ size: 20 }).base32;
    const label = auth.user.email;
    const uri =
      `otpauth://totp/${encodeURIComponent(issuer)}:${encodeURIComponent(label)}` +
      `?algorithm=SHA1&digits=6&issuer=${encodeURIComponent(issuer)}&period=30&secret=${secret}`;
    // Raw SVG: the client adds the data: prefix itself.
    const qrCode = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 });
    const now = nowIso();
    const id = crypto.randomUUID();
    await ctx.db
      .insertInto('auth_mfa_factors')
      .values({ id, user_id: userId, friendly_name: friendlyName, factor_type: 'totp', status: 'unverified', secret, last_challenged_at: null, created_at: now, updated_at: now })
      .execute();
    return { id, type: 'totp', friendly_name: friendlyName, totp: { qr_code: qrCode, secret, uri } };
  });

  app.post('/factors/:id/challenge', async (request) => {
    const auth = await authenticate(ctx, request);
    await ctx.limits.consume('mfa', request.ip);
    const factor = await ownFactor(auth, request);
    const id = crypto.randomUUID();
    const now = nowIso();
    await ctx.db.insertInto('auth_mfa_challenges').values({ id, factor_id: factor.id, ip_address: request.ip, verified_at: null, created_at: now }).execute();
    await ctx.db.updateTable('auth_mfa_factors').set({ last_challenged_at: now }).where('id', '=', factor.id).execute();
    return { id, type: 'totp', expires_at: unixSeconds() + CHALLENGE_SECONDS };
  });

  app.post('/factors/:id/verify', async (request) => {
    const auth = await authenticate(ctx, request);
    await ctx.limits.consume('mfa', request.ip);
    const factor = await ownFactor(auth, request);
    const body = parseBody(VerifyBody, request.body);
    if (!body.code) throw errors.validation('Code needs to be non-empty');
    const challenge = body.challenge_id
      ? await ctx.db.selectFrom('auth_mfa_challenges').selectAll().where('id', '=', body.challenge_id).where('factor_id', '=', factor.id).executeTakeFirst()
      : undefined;
    if (!challenge) throw new GoTrueError(422, 'mfa_factor_not_found', 'MFA factor with the provided challenge ID not found');
    // A used challenge answers like a foreign one, so a replay learns nothing.
    if (challenge.verified_at !== null || challenge.ip_address !== request.ip) {
      throw new GoTrueError(422, 'mfa_ip_address_mismatch', 'Challenge and verify IP addresses mismatch.');
    }
    if (secondsSince(challenge.created_at) > CHALLENGE_SECONDS) {
      throw new GoTrueError(422, 'mfa_challenge_expired', `MFA challenge ${challenge.id} has expired, verify against another challenge or create a new challenge.`);
    }
    const delta = totpFor(factor.secret, 'Parley', auth.user.email).validate({ token: body.code.trim(), window: 1 });
    if (delta === null) throw new GoTrueError(422, 'mfa_verification_failed', 'Invalid TOTP code entered');

    const now = nowIso();
    const amr: AmrEntry[] = [{ method: 'totp', timestamp: unixSeconds() }, ...sessionAmr(auth.session).filter((e) => e.method !== 'totp')];
    await ctx.db.transaction().execute(async (trx) => {
      await trx.updateTable('auth_mfa_challenges').set({ verified_at: now }).where('id', '=', challenge.id).execute();
      if (factor.status !== 'verified') {
        await trx.updateTable('auth_mfa_factors').set({ status: 'verified', updated_at: now }).where('id', '=', factor.id).execute();
        await trx.deleteFrom('auth_mfa_factors').where('user_id', '=', auth.user.id).where('status', '=', 'unverified').where('id', '!=', factor.id).execute();
      }
      await trx
        .updateTable('auth_sessions')
        .set({ aal: 'aal2', amr: JSON.stringify(amr), factor_id: factor.id, updated_at: now })
        .where('id', '=', auth.session.id)
        .execute();
      // Sessions of this user that never passed MFA are ended once a factor protects the account.
      await trx.deleteFrom('auth_sessions').where('user_id', '=', auth.user.id).where('aal', '=', 'aal1').where('id', '!=', auth.session.id).execute();
    });
    const refreshToken = await resetRefreshTokens(ctx.db, auth.session.id);
    const session = { ...auth.session, aal: 'aal2' as const, amr: JSON.stringify(amr), factor_id: factor.id };
    return tokenResponse(ctx, session, refreshToken);
  });

  app.delete('/factors/:id', async (request) => {
    const auth = await authenticate(ctx, request);
    const factor = await ownFactor(auth, request);
    if (factor.status === 'verified' && auth.session.aal !== 'aal2') {
      throw new GoTrueError(422, 'insufficient_aal', 'AAL2 required to unenroll verified factor');
    }
    await ctx.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('auth_mfa_factors').where('id', '=', factor.id).execute();
      await trx
        .updateTable('auth_sessions')
        .set({ aal: 'aal1', factor_id: null, updated_at: nowIso() })
        .where('factor_id', '=', factor.id)
        .execute();
    });
    return { id: factor.id };
  });
}
