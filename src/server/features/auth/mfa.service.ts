import crypto from 'node:crypto';
import type { AmrEntry } from './access-token.ts';
import type { AuthContext } from './auth-context.ts';
import type { FactorRow } from './auth.table.ts';
import type { Authenticated } from './authenticate.ts';
import { nowIso, secondsSince, unixSeconds } from './clock.ts';
import { GoTrueError } from './gotrue-error.ts';
import {
  deleteAbandonedFactors,
  deleteFactor,
  deleteOtherUnverifiedFactors,
  findFactorChallenge,
  findUserFactor,
  insertChallenge,
  insertFactor,
  listFactors,
  markChallengeVerified,
  markFactorChallenged,
  markFactorVerified,
  setFactorSecret,
} from './mfa.repository.ts';
import { resetRefreshTokens, sessionAmr } from './sessions.ts';
import { deleteOtherAal1Sessions, downgradeSessionsOfFactor, upgradeSessionToAal2 } from './sessions.repository.ts';
import { tokenResponse, type TokenResponse } from './token-response.ts';
import { newTotpSecret, totpFor, totpQrCode, totpUri } from './totp.ts';

/** TOTP MFA (auth-contract §4.11): SHA1, 6 digits, 30 s, ±1 step; challenges live 300 s. */
const CHALLENGE_SECONDS = 300;
const MAX_FACTORS = 10;

type Caller = Pick<Authenticated, 'user' | 'session'>;

/** Where a TOTP secret is stored, bound into its ciphertext (the migration that sealed older rows uses the same). */
const secretContext = (factorId: string) => `auth_mfa_factors.secret:${factorId}`;

/** The factor's TOTP secret in clear; one stored before encryption at rest is sealed on this first read. */
async function totpSecretOf(ctx: AuthContext, factor: FactorRow): Promise<string> {
  const { plaintext, sealed } = ctx.secrets.open(factor.secret, secretContext(factor.id));
  if (!sealed) await setFactorSecret(ctx.db, factor.id, ctx.secrets.seal(plaintext, secretContext(factor.id)));
  return plaintext;
}

export type EnrolledFactor = { id: string; friendlyName: string; secret: string; uri: string; qrCode: string };

/** Adds an unverified TOTP factor; it protects the account once a challenge of it is verified. */
export async function enrolTotpFactor(ctx: AuthContext, auth: Caller, input: { friendlyName: string; issuer: string | undefined }): Promise<EnrolledFactor> {
  const userId = auth.user.id;
  // Enrolments abandoned before their first challenge are purged after the challenge lifetime.
  const staleBefore = new Date(Date.now() - CHALLENGE_SECONDS * 1000).toISOString();
  await deleteAbandonedFactors(ctx.db, userId, staleBefore);
  const factors = await listFactors(ctx.db, userId);
  if (factors.some((f) => f.status === 'verified') && auth.session.aal !== 'aal2') {
    throw new GoTrueError(403, 'insufficient_aal', 'AAL2 required to enroll a new factor');
  }
  if (factors.length >= MAX_FACTORS) {
    throw new GoTrueError(422, 'too_many_enrolled_mfa_factors', 'Maximum number of verified factors reached, unenroll to continue');
  }
  const friendlyName = input.friendlyName;
  if (friendlyName && factors.some((f) => f.friendly_name === friendlyName)) {
    throw new GoTrueError(422, 'mfa_factor_name_conflict', `A factor with the friendly name "${friendlyName}" for this user already exists`);
  }
  const issuer = input.issuer || new URL(ctx.config.auth.siteUrl).host;
  const secret = newTotpSecret();
  const uri = totpUri(issuer, auth.user.email, secret);
  const qrCode = await totpQrCode(uri);
  const now = nowIso();
  const id = crypto.randomUUID();
  await insertFactor(ctx.db, {
    id,
    user_id: userId,
    friendly_name: friendlyName,
    factor_type: 'totp',
    status: 'unverified',
    secret: ctx.secrets.seal(secret, secretContext(id)),
    last_challenged_at: null,
    created_at: now,
    updated_at: now,
  });
  return { id, friendlyName, secret, uri, qrCode };
}

/** The caller's factor with this id; another user's factor is as unknown as a missing one. */
export async function findOwnFactor(ctx: AuthContext, userId: string, factorId: string): Promise<FactorRow> {
  const factor = await findUserFactor(ctx.db, userId, factorId);
  if (!factor) throw new GoTrueError(404, 'mfa_factor_not_found', 'Factor not found');
  return factor;
}

/** Opens a challenge that only a verify from the same IP address can answer. */
export async function challengeFactor(ctx: AuthContext, factor: FactorRow, ip: string): Promise<{ id: string; expiresAt: number }> {
  const id = crypto.randomUUID();
  const now = nowIso();
  await insertChallenge(ctx.db, { id, factor_id: factor.id, ip_address: ip, verified_at: null, created_at: now });
  await markFactorChallenged(ctx.db, factor.id, now);
  return { id, expiresAt: unixSeconds() + CHALLENGE_SECONDS };
}

/**
 * Checks a TOTP code against an open challenge and raises the caller's session to aal2: the factor
 * becomes verified, other aal1 sessions end, and the session gets a fresh refresh token.
 */
export async function verifyFactor(
  ctx: AuthContext,
  auth: Caller,
  factor: FactorRow,
  input: { challengeId: string | undefined; code: string; ip: string },
): Promise<TokenResponse> {
  const challenge = input.challengeId ? await findFactorChallenge(ctx.db, factor.id, input.challengeId) : undefined;
  if (!challenge) throw new GoTrueError(422, 'mfa_factor_not_found', 'MFA factor with the provided challenge ID not found');
  // A used challenge answers like a foreign one, so a replay learns nothing.
  if (challenge.verified_at !== null || challenge.ip_address !== input.ip) {
    throw new GoTrueError(422, 'mfa_ip_address_mismatch', 'Challenge and verify IP addresses mismatch.');
  }
  if (secondsSince(challenge.created_at) > CHALLENGE_SECONDS) {
    throw new GoTrueError(
      422,
      'mfa_challenge_expired',
      `MFA challenge ${challenge.id} has expired, verify against another challenge or create a new challenge.`,
    );
  }
  const delta = totpFor(await totpSecretOf(ctx, factor), 'Parley', auth.user.email).validate({ token: input.code.trim(), window: 1 });
  if (delta === null) throw new GoTrueError(422, 'mfa_verification_failed', 'Invalid TOTP code entered');

  const now = nowIso();
  const amr: AmrEntry[] = [{ method: 'totp', timestamp: unixSeconds() }, ...sessionAmr(auth.session).filter((e) => e.method !== 'totp')];
  const ended = await ctx.db.transaction().execute(async (trx) => {
    await markChallengeVerified(trx, challenge.id, now);
    if (factor.status !== 'verified') {
      await markFactorVerified(trx, factor.id, now);
      await deleteOtherUnverifiedFactors(trx, auth.user.id, factor.id);
    }
    await upgradeSessionToAal2(trx, auth.session.id, { amr: JSON.stringify(amr), factorId: factor.id, now });
    // Sessions of this user that never passed MFA are ended once a factor protects the account.
    return deleteOtherAal1Sessions(trx, auth.user.id, auth.session.id);
  });
  if (ended.length > 0) ctx.onSessionsEnded({ userId: auth.user.id, sessionIds: ended });
  const refreshToken = await resetRefreshTokens(ctx.db, auth.session.id);
  const session = { ...auth.session, aal: 'aal2' as const, amr: JSON.stringify(amr), factor_id: factor.id };
  return tokenResponse(ctx, session, refreshToken);
}

/** Removes a factor; sessions that passed MFA with it fall back to aal1. A verified factor needs an aal2 caller. */
export async function unenrolFactor(ctx: AuthContext, auth: Caller, factor: FactorRow): Promise<void> {
  if (factor.status === 'verified' && auth.session.aal !== 'aal2') {
    throw new GoTrueError(422, 'insufficient_aal', 'AAL2 required to unenroll verified factor');
  }
  await ctx.db.transaction().execute(async (trx) => {
    await deleteFactor(trx, factor.id);
    await downgradeSessionsOfFactor(trx, factor.id, nowIso());
  });
}
