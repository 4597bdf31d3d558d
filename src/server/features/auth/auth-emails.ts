import type { AuthContext } from './auth-context.ts';
import type { UserRow } from './auth.table.ts';
import { nowIso, secondsSince } from './clock.ts';
import { composeEmail } from './emails.ts';
import { errors } from './gotrue-error.ts';
import type { EmailKind } from './mailer.ts';
import { issueOneTimeToken, type TokenType } from './one-time-tokens.ts';
import { resolveRedirect } from './redirects.ts';
import { setEmailSentAt, setPendingEmail } from './users.repository.ts';

const TOKEN_TYPE: Record<Exclude<EmailKind, 'email_change'>, TokenType> = {
  signup: 'confirmation_token',
  recovery: 'recovery_token',
  magiclink: 'recovery_token',
};

/** Which user column records the last email of a kind (magic links share recovery's, as in GoTrue). */
const SENT_AT = {
  signup: 'confirmation_sent_at',
  recovery: 'recovery_sent_at',
  magiclink: 'recovery_sent_at',
  email_change: 'email_change_sent_at',
} as const;

/**
 * Sends one auth email: per-address frequency (60 s by default), the installation's hourly budget,
 * a fresh single-use code + link, and the timestamp GoTrue reports on the user.
 */
export async function sendAuthEmail(
  ctx: AuthContext,
  input: { user: UserRow; kind: Exclude<EmailKind, 'email_change'>; redirectTo: string | undefined },
): Promise<void> {
  const { user, kind } = input;
  assertFrequency(ctx, user, kind);
  await ctx.limits.consumeEmailBudget();
  await mailToken(ctx, { user, kind, tokenType: TOKEN_TYPE[kind], to: user.email, redirectTo: input.redirectTo });
  await markSent(ctx, user, kind);
}

/**
 * GoTrue's secure email change: a code and link to the new address, and another to the current
 * one, which says what is asked; the change is made once both are confirmed (verify-token.ts).
 * Each request replaces the previous pair.
 */
export async function sendEmailChange(ctx: AuthContext, input: { user: UserRow; newEmail: string; redirectTo: string | undefined }): Promise<void> {
  const { user, newEmail, redirectTo } = input;
  assertFrequency(ctx, user, 'email_change');
  await ctx.limits.consumeEmailBudget();
  await ctx.limits.consumeEmailBudget();
  // A new pair starts over: neither address has confirmed it (a confirmation of an earlier pair does not count).
  await setPendingEmail(ctx.db, user.id, newEmail, nowIso());
  user.email_change = newEmail;
  user.email_change_confirm_status = 0;
  await mailToken(ctx, { user, kind: 'email_change', tokenType: 'email_change_token', to: newEmail, redirectTo });
  await mailToken(ctx, {
    user,
    kind: 'email_change',
    tokenType: 'email_change_token_current',
    to: user.email,
    redirectTo,
    addressChange: { from: user.email, to: newEmail },
  });
  await markSent(ctx, user, 'email_change');
}

function assertFrequency(ctx: AuthContext, user: UserRow, kind: EmailKind): void {
  const since = secondsSince(user[SENT_AT[kind]]);
  const frequency = ctx.config.auth.emailFrequencySeconds;
  if (since < frequency) throw errors.emailFrequency(Math.max(1, Math.ceil(frequency - since)));
}

async function mailToken(
  ctx: AuthContext,
  input: { user: UserRow; kind: EmailKind; tokenType: TokenType; to: string; redirectTo: string | undefined; addressChange?: { from: string; to: string } },
): Promise<void> {
  const { kind, to } = input;
  const { otp, hash } = await issueOneTimeToken(ctx.db, { userId: input.user.id, email: to, type: input.tokenType });
  const redirect = resolveRedirect(input.redirectTo, ctx.config.auth.siteUrl, ctx.config.auth.uriAllowList);
  const link = `${ctx.issuer}/verify?${new URLSearchParams({ token: hash, type: kind, redirect_to: redirect }).toString()}`;
  const validHours = ctx.config.auth.otpExpSeconds / 3600;
  await ctx.mailer.send(composeEmail({ kind, to, otp, link, validHours, ...(input.addressChange ? { addressChange: input.addressChange } : {}) }));
}

async function markSent(ctx: AuthContext, user: UserRow, kind: EmailKind): Promise<void> {
  const column = SENT_AT[kind];
  const now = nowIso();
  await setEmailSentAt(ctx.db, user.id, column, now);
  user[column] = now;
}
