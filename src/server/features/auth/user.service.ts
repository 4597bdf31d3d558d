import type { AuthContext } from './auth-context.ts';
import { sendAuthEmail } from './auth-emails.ts';
import type { Authenticated } from './authenticate.ts';
import { nowIso } from './clock.ts';
import { GoTrueError } from './gotrue-error.ts';
import { clearOneTimeTokens } from './one-time-tokens.ts';
import { assertPasswordLength, assertStrongPassword, hashPassword, verifyPassword } from './passwords.ts';
import { validateEmail } from './request-input.ts';
import { endSessions } from './sessions.ts';
import { endSessionRecovery } from './sessions.repository.ts';
import { hasVerifiedFactor } from './mfa.repository.ts';
import { loadUserJson, type UserJson } from './user-response.ts';
import { findUserByEmail, normalizeEmail, setPasswordHash, setPendingEmail, setUserMetadata } from './users.repository.ts';
import { assertMetadataWithinLimits, parseJsonObject, type Metadata } from './users.ts';

export type UserChanges = {
  email: string | undefined;
  password: string | undefined;
  /** The password the new one replaces (auth-contract §4.6 `current_password`). */
  currentPassword?: string | undefined;
  data: Metadata | undefined;
};

/** Where the request came from: the client's IP (the current password's check counts against it) and GoTrue's `redirect_to`. */
type UpdateRequest = { ip: string; redirectTo: string | undefined };

/** GET /user (auth-contract §4.5): the caller with identities and factors. */
export async function getUser(ctx: AuthContext, userId: string): Promise<UserJson | undefined> {
  return loadUserJson(ctx.db, userId);
}

/**
 * PUT /user once the request is parsed (auth-contract §4.6): a new password, then metadata, then a
 * new email address (which waits for its confirmation). Changing credentials of an account that has
 * a verified factor needs an aal2 session.
 */
export async function updateUser(
  ctx: AuthContext,
  auth: Pick<Authenticated, 'user' | 'session'>,
  changes: UserChanges,
  { ip, redirectTo }: UpdateRequest,
): Promise<UserJson | undefined> {
  const { user, session } = auth;
  const changesCredentials = changes.password !== undefined || (changes.email !== undefined && changes.email.toLowerCase() !== user.email);
  if (changesCredentials && session.aal !== 'aal2') {
    if (await hasVerifiedFactor(ctx.db, user.id)) {
      throw new GoTrueError(401, 'insufficient_aal', 'AAL2 session is required to update email or password when MFA is enabled.');
    }
  }

  // Checked before anything is written, so a refused update changes nothing.
  const metadata = changes.data ? mergedMetadata(user.raw_user_meta_data, changes.data) : undefined;

  if (changes.password !== undefined) {
    await assertCurrentPassword(ctx, auth, changes.currentPassword, ip);
    assertPasswordLength(changes.password);
    assertStrongPassword(changes.password, ctx.config.auth.passwordMinLength);
    if (user.encrypted_password && (await verifyPassword(changes.password, user.encrypted_password, ctx.config.auth.passwordHash))) {
      throw new GoTrueError(422, 'same_password', 'New password should be different from the old password.');
    }
    const now = nowIso();
    await setPasswordHash(ctx.db, user.id, await hashPassword(changes.password, ctx.config.auth.passwordHash), now);
    await clearOneTimeTokens(ctx.db, user.id);
    if (session.recovery === 1) await endSessionRecovery(ctx.db, session.id, now);
    // A new password signs out every other device, as GoTrue does.
    await endSessions(ctx, { userId: user.id, sessionId: session.id, scope: 'others' });
  }

  if (metadata) {
    await setUserMetadata(ctx.db, user.id, JSON.stringify(metadata), nowIso());
  }

  if (changes.email !== undefined) {
    const email = validateEmail(changes.email);
    if (email !== user.email) {
      const taken = await findUserByEmail(ctx.db, email);
      if (taken) throw new GoTrueError(422, 'email_exists', 'A user with this email address has already been registered');
      await setPendingEmail(ctx.db, user.id, email, nowIso());
      await sendAuthEmail(ctx, { user: { ...user, email_change: email }, kind: 'email_change', redirectTo, to: email });
    }
  }
  return loadUserJson(ctx.db, user.id);
}

/**
 * With AUTH_UPDATE_PASSWORD_REQUIRE_CURRENT_PASSWORD (on by default), a new password needs the
 * current one: a session left open on a shared computer cannot lock its owner out. Skipped in a
 * session opened by a recovery link (its owner has forgotten the password) and for an account that
 * has no password yet. GoTrue's codes and message (auth-contract §4.6).
 *
 * A guess like a sign-in: the sign-in guard's limits and slowdown hold for it (by the account's
 * email and the caller's IP), and a wrong one counts as a failed sign-in, or a stolen access token
 * would let anyone try passwords as fast as the server answers.
 */
async function assertCurrentPassword(
  ctx: AuthContext,
  auth: Pick<Authenticated, 'user' | 'session'>,
  currentPassword: string | undefined,
  ip: string,
): Promise<void> {
  if (!ctx.config.auth.updatePasswordRequireCurrentPassword) return;
  if (auth.session.recovery === 1 || !auth.user.encrypted_password) return;
  const message = 'Current password required when setting new password.';
  if (currentPassword === undefined || currentPassword === '') throw new GoTrueError(400, 'current_password_required', message);
  const email = normalizeEmail(auth.user.email ?? '');
  await ctx.limits.signIn.before(email, ip);
  const matches = await verifyPassword(currentPassword, auth.user.encrypted_password, ctx.config.auth.passwordHash);
  await (matches ? ctx.limits.signIn.succeeded(email, ip) : ctx.limits.signIn.failed(email, ip));
  if (!matches) throw new GoTrueError(400, 'current_password_invalid', message);
}

/** Merged key by key, a null value deleting the key; the limits hold for the result, so many small updates cannot grow it past them. */
function mergedMetadata(stored: string, changes: Metadata): Metadata {
  const metadata = parseJsonObject(stored);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) delete metadata[key];
    else metadata[key] = value;
  }
  assertMetadataWithinLimits(metadata);
  return metadata;
}
