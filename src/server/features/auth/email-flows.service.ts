import crypto from 'node:crypto';
import { createAccount, type AuthContext } from './auth-context.ts';
import { sendAuthEmail, sendEmailChange } from './auth-emails.ts';
import { GoTrueError } from './gotrue-error.ts';
import { hashPassword } from './passwords.ts';
import { findUserByEmail, findUserByPendingEmail } from './users.repository.ts';
import type { Metadata } from './users.ts';

/** POST /recover: a recovery email, to known addresses only. */
export async function requestRecovery(ctx: AuthContext, input: { email: string; redirectTo: string | undefined }): Promise<void> {
  const user = await findUserByEmail(ctx.db, input.email);
  if (user) await sendAuthEmail(ctx, { user, kind: 'recovery', redirectTo: input.redirectTo });
}

/** POST /otp: a magic link and code, or a confirmation for an unconfirmed account, which is created if allowed. */
export async function requestEmailOtp(
  ctx: AuthContext,
  input: { email: string; data: Metadata | undefined; createUser: boolean | undefined; redirectTo: string | undefined },
): Promise<void> {
  let user = await findUserByEmail(ctx.db, input.email);
  if (!user) {
    if (input.createUser === false) throw new GoTrueError(422, 'otp_disabled', 'Signups not allowed for otp');
    if (ctx.config.auth.disableSignup) throw new GoTrueError(422, 'signup_disabled', 'Signups not allowed for this instance');
    // A passwordless account: the random password is never shown; the person signs in by link or code.
    const passwordHash = await hashPassword(crypto.randomBytes(32).toString('base64url'), ctx.config.auth.passwordHash);
    user = await createAccount(ctx, { email: input.email, passwordHash, data: input.data ?? {}, confirmed: false });
  }
  await sendAuthEmail(ctx, { user, kind: user.email_confirmed_at ? 'magiclink' : 'signup', redirectTo: input.redirectTo });
}

/**
 * POST /resend: the sign-up confirmation of an unconfirmed account, or the two confirmations of a
 * pending email change (asked for by the new address or the current one; a new pair replaces the old).
 */
export async function resendEmail(ctx: AuthContext, input: { type: 'signup' | 'email_change'; email: string; redirectTo: string | undefined }): Promise<void> {
  const { email, redirectTo } = input;
  if (input.type === 'signup') {
    const user = await findUserByEmail(ctx.db, email);
    if (user && !user.email_confirmed_at) await sendAuthEmail(ctx, { user, kind: 'signup', redirectTo });
    return;
  }
  const user = (await findUserByPendingEmail(ctx.db, email)) ?? (await findUserByEmail(ctx.db, email));
  if (user?.email_change) await sendEmailChange(ctx, { user, newEmail: user.email_change, redirectTo });
}
