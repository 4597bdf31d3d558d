import type { AuthContext } from './auth-context.ts';
import { GoTrueError, errors } from './gotrue-error.ts';
import { consumeOneTimeToken, tokenHash, type TokenType } from './one-time-tokens.ts';
import { createSession } from './sessions.ts';
import { tokenResponse, type TokenResponse } from './token-response.ts';
import { findUserByEmail, findUserById, touchLastSignIn } from './users.repository.ts';
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
  email_change: ['email_change_token'],
};

type VerifyInput = { type: VerifyType } & ({ tokenHash: string } | { email: string; token: string });

/**
 * Uses up an email token and opens a session (amr `otp`): confirms the address for sign-up, magic
 * link and recovery; swaps in the new address for an email change.
 */
export async function verifyEmailToken(ctx: AuthContext, input: VerifyInput, client: { ip: string; userAgent: string | null }): Promise<TokenResponse> {
  const viaLink = 'tokenHash' in input;
  const hash = viaLink ? input.tokenHash : tokenHash(input.email, input.token);
  const used = await consumeOneTimeToken(ctx.db, { hash, types: ACCEPTS[input.type], maxAgeSeconds: ctx.config.auth.otpExpSeconds });
  if (!used) throw errors.otpExpired(viaLink);
  const user = await findUserById(ctx.db, used.userId);
  if (!user) throw errors.otpExpired(viaLink);
  if (isBanned(user)) throw errors.userBanned(403);

  // Set when this token confirms the address for the first time (a new account's first session).
  let confirmedAt: string | null = null;
  if (used.type === 'email_change_token') {
    if (user.email_change !== used.relatesTo) throw errors.otpExpired(viaLink);
    const taken = await findUserByEmail(ctx.db, used.relatesTo);
    if (taken && taken.id !== user.id) throw new GoTrueError(422, 'email_exists', 'A user with this email address has already been registered');
    await completeEmailChange(ctx.db, user, used.relatesTo);
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
