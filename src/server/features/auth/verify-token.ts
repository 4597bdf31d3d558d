import type { AuthContext } from './auth-context.ts';
import { GoTrueError, errors } from './gotrue-error.ts';
import { consumeOneTimeToken, tokenHash, type TokenType } from './one-time-tokens.ts';
import { createSession } from './sessions.ts';
import { tokenResponse, type TokenResponse } from './token-response.ts';
import { nowIso } from './clock.ts';
import { findUserByEmail, findUserById, markEmailChangeHalfConfirmed, touchLastSignIn } from './users.repository.ts';
import { completeEmailChange, confirmEmail, isBanned } from './users.ts';

export const VERIFY_TYPES = ['signup', 'invite', 'magiclink', 'recovery', 'email_change', 'email'] as const;
export type VerifyType = (typeof VERIFY_TYPES)[number];

/** Which stored tokens a verification type may use (`email` accepts a confirmation or a magic-link code). */
const ACCEPTS: Record<VerifyType, TokenType[]> = {
  signup: ['confirmation_token'],
  invite: ['confirmation_token'],
  email: ['confirmation_token', 'recovery_token'],
  magiclink: ['recovery_token'],
  recovery: ['recovery_token'],
  email_change: ['email_change_token', 'email_change_token_current'],
};

type VerifyInput = { type: VerifyType } & ({ tokenHash: string } | { email: string; token: string });

/** GoTrue's answer to the first of the two confirmations of a secure email change (no session). */
export const FIRST_EMAIL_CHANGE_CONFIRMATION = 'Confirmation link accepted. Please proceed to confirm link sent to the other email';
export type HalfConfirmed = { msg: typeof FIRST_EMAIL_CHANGE_CONFIRMATION; code: '200' };
export const isHalfConfirmed = (answer: TokenResponse | HalfConfirmed): answer is HalfConfirmed => !('access_token' in answer);

/**
 * Uses up an email token and opens a session (amr `otp`): confirms the address for sign-up, magic
 * link and recovery. An email change needs a token from each address (the current one and the new
 * one, in either order): the first answers HalfConfirmed, the second swaps in the new address.
 */
export async function verifyEmailToken(
  ctx: AuthContext,
  input: VerifyInput,
  client: { ip: string; userAgent: string | null },
): Promise<TokenResponse | HalfConfirmed> {
  const viaLink = 'tokenHash' in input;
  const hash = viaLink ? input.tokenHash : tokenHash(input.email, input.token);
  const used = await consumeOneTimeToken(ctx.db, { hash, types: ACCEPTS[input.type], maxAgeSeconds: ctx.config.auth.otpExpSeconds });
  if (!used) throw errors.otpExpired(viaLink);
  const user = await findUserById(ctx.db, used.userId);
  if (!user) throw errors.otpExpired(viaLink);
  if (isBanned(user)) throw errors.userBanned(403);

  // Set when this token confirms the address for the first time (a new account's first session).
  let confirmedAt: string | null = null;
  if (used.type === 'email_change_token' || used.type === 'email_change_token_current') {
    // Each token is for the pair it was sent with: the new address still pending, the current address still the account's.
    const newEmail = user.email_change;
    const stale = newEmail === null || (used.type === 'email_change_token' ? newEmail !== used.relatesTo : user.email !== used.relatesTo);
    if (stale) throw errors.otpExpired(viaLink);
    if (await markEmailChangeHalfConfirmed(ctx.db, user.id, newEmail, nowIso())) return { msg: FIRST_EMAIL_CHANGE_CONFIRMATION, code: '200' };
    const taken = await findUserByEmail(ctx.db, newEmail);
    if (taken && taken.id !== user.id) throw new GoTrueError(422, 'email_exists', 'A user with this email address has already been registered');
    if (!(await completeEmailChange(ctx.db, user, newEmail))) throw errors.otpExpired(viaLink);
  } else {
    confirmedAt = await confirmEmail(ctx.db, user);
  }

  const { session, refreshToken } = await createSession(ctx.db, {
    userId: user.id,
    method: 'otp',
    // A recovery link or code lets this session set a new password without the forgotten one.
    recovery: input.type === 'recovery',
    ip: client.ip,
    userAgent: client.userAgent,
  });
  // The link that confirms a new account opens its first session (touchLastSignIn says why it is dated so).
  await touchLastSignIn(ctx.db, user.id, confirmedAt ?? undefined);
  return tokenResponse(ctx, session, refreshToken);
}
