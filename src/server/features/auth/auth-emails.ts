import type { AuthContext } from './auth-context.ts';
import type { UserRow } from './auth.table.ts';
import { nowIso, secondsSince } from './clock.ts';
import { composeEmail } from './emails.ts';
import { errors } from './gotrue-error.ts';
import type { EmailKind } from './mailer.ts';
import { issueOneTimeToken, type TokenType } from './one-time-tokens.ts';
import { resolveRedirect } from './redirects.ts';
import { setEmailSentAt } from './users.repository.ts';

const TOKEN_TYPE: Record<EmailKind, TokenType> = {
  signup: 'confirmation_token',
  recovery: 'recovery_token',
  magiclink: 'recovery_token',
  email_change: 'email_change_token',
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
export async function sendAuthEmail(ctx: AuthContext, input: { user: UserRow; kind: EmailKind; redirectTo: string | undefined; to?: string }): Promise<void> {
  const { user, kind } = input;
  const column = SENT_AT[kind];
  const since = secondsSince(user[column]);
  const frequency = ctx.config.auth.emailFrequencySeconds;
  if (since < frequency) throw errors.emailFrequency(Math.max(1, Math.ceil(frequency - since)));
  await ctx.limits.consumeEmailBudget();

  const to = input.to ?? user.email;
  const { otp, hash } = await issueOneTimeToken(ctx.db, { userId: user.id, email: to, type: TOKEN_TYPE[kind] });
  const redirect = resolveRedirect(input.redirectTo, ctx.config.auth.siteUrl, ctx.config.auth.uriAllowList);
  const link = `${ctx.issuer}/verify?${new URLSearchParams({ token: hash, type: kind, redirect_to: redirect }).toString()}`;
  const message = composeEmail({ kind, to, otp, link, validHours: ctx.config.auth.otpExpSeconds / 3600 });
  await ctx.mailer.send(message);
  const now = nowIso();
  await setEmailSentAt(ctx.db, user.id, column, now);
  user[column] = now;
}
