import { createAccount, type AuthContext } from './auth-context.ts';
import { sendAuthEmail } from './auth-emails.ts';
import { GoTrueError } from './gotrue-error.ts';
import { hashPassword } from './passwords.ts';
import { createSession } from './sessions.ts';
import { tokenResponse, type TokenResponse } from './token-response.ts';
import { fakeUser, loadUserJson, type UserJson } from './user-response.ts';
import { findUserByEmail, touchLastSignIn } from './users.repository.ts';
import type { Metadata } from './users.ts';

type SignUpInput = { email: string; password: string; data: Metadata; redirectTo: string | undefined; ip: string; userAgent: string | null };

/**
 * Email sign-up once the request has passed its checks (auth-contract §4.1): a new address gets an
 * account and, with autoconfirm, a session, otherwise a confirmation email; an unconfirmed one gets
 * its confirmation again; a confirmed one is refused (autoconfirm) or answered with an obfuscated user.
 */
export async function signUpWithEmail(ctx: AuthContext, input: SignUpInput): Promise<UserJson | TokenResponse | undefined> {
  const { email, data, redirectTo } = input;
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

  const user = await createAccount(ctx, {
    email,
    passwordHash: await hashPassword(input.password, ctx.config.auth.passwordHash),
    data,
    confirmed: autoconfirm,
  });
  if (!autoconfirm) {
    await sendAuthEmail(ctx, { user, kind: 'signup', redirectTo });
    return loadUserJson(ctx.db, user.id);
  }
  const { session, refreshToken } = await createSession(ctx.db, { userId: user.id, method: 'password', ip: input.ip, userAgent: input.userAgent });
  // The account's first session, dated at its confirmation (see touchLastSignIn).
  await touchLastSignIn(ctx.db, user.id, user.email_confirmed_at ?? undefined);
  return tokenResponse(ctx, session, refreshToken);
}
