import type { AuthContext } from './auth-context.ts';
import { sendEmailChange } from './auth-emails.ts';
import type { Authenticated } from './authenticate.ts';
import type { SessionRow } from './auth.table.ts';
import { nowIso, unixSeconds } from './clock.ts';
import { GoTrueError } from './gotrue-error.ts';
import { clearOneTimeTokens } from './one-time-tokens.ts';
import { assertPasswordLength, assertStrongPassword, hashPassword, verifyPassword } from './passwords.ts';
import { validateEmail } from './request-input.ts';
import { endSessions, sessionAmr } from './sessions.ts';
import { endSessionRecovery } from './sessions.repository.ts';
import { hasVerifiedFactor } from './mfa.repository.ts';
import { loadUserJson, type UserJson } from './user-response.ts';
import { findUserByEmail, setPasswordHash, setUserMetadata } from './users.repository.ts';
import { assertMetadataWithinLimits, parseJsonObject, type Metadata } from './users.ts';

export type UserChanges = {
  email: string | undefined;
  password: string | undefined;
  /** The password the new one replaces (auth-contract §4.6 `current_password`). */
  currentPassword?: string | undefined;
  /** The caller's IP: a wrong current password counts as a failed sign-in from it. */
  ip: string;
  data: Metadata | undefined;
};

/** GET /user (auth-contract §4.5): the caller with identities and factors. */
export async function getUser(ctx: AuthContext, userId: string): Promise<UserJson | undefined> {
  return loadUserJson(ctx.db, userId);
}

/**
 * PUT /user once the request is parsed (auth-contract §4.6): a new password, then metadata, then a
 * new email address (which waits for the confirmation of both addresses). Changing credentials of
 * an account that has a verified factor needs an aal2 session; changing them at all needs the
 * current password (assertCurrentPassword says when not). Every check runs before anything is
 * written, so a refused update changes nothing.
 */
export async function updateUser(
  ctx: AuthContext,
  auth: Pick<Authenticated, 'user' | 'session'>,
  changes: UserChanges,
  redirectTo: string | undefined,
): Promise<UserJson | undefined> {
  const { user, session } = auth;
  const newEmail = changes.email === undefined ? undefined : validateEmail(changes.email);
  const changesEmail = newEmail !== undefined && newEmail !== user.email;
  const changesCredentials = changes.password !== undefined || changesEmail;
  if (changesCredentials && session.aal !== 'aal2') {
    if (await hasVerifiedFactor(ctx.db, user.id)) {
      throw new GoTrueError(401, 'insufficient_aal', 'AAL2 session is required to update email or password when MFA is enabled.');
    }
  }

  const metadata = changes.data ? mergedMetadata(user.raw_user_meta_data, changes.data) : undefined;
  if (changes.password !== undefined) {
    await assertCurrentPassword(ctx, auth, changes, 'password');
    assertPasswordLength(changes.password);
    assertStrongPassword(changes.password, ctx.config.auth.passwordMinLength);
    if (user.encrypted_password && (await verifyPassword(changes.password, user.encrypted_password, ctx.config.auth.passwordHash))) {
      throw new GoTrueError(422, 'same_password', 'New password should be different from the old password.');
    }
  }
  if (changesEmail) {
    // The password change above (when asked for in the same request) checked the same current password.
    if (changes.password === undefined) await assertCurrentPassword(ctx, auth, changes, 'email');
    const taken = await findUserByEmail(ctx.db, newEmail);
    if (taken) throw new GoTrueError(422, 'email_exists', 'A user with this email address has already been registered');
  }

  if (changes.password !== undefined) {
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

  if (changesEmail) {
    await sendEmailChange(ctx, { user: { ...user }, newEmail, redirectTo });
  }
  return loadUserJson(ctx.db, user.id);
}

/** A TOTP verified this recently on an aal2 session stands in for the current password for an email change. */
const FRESH_SECOND_FACTOR_SECONDS = 5 * 60;

/**
 * With AUTH_UPDATE_PASSWORD_REQUIRE_CURRENT_PASSWORD (on by default), a new password or email
 * address needs the current password: a session left open on a shared computer, or a stolen access
 * token, cannot lock the owner out (with a new email, the next recovery email would go to the
 * thief). Skipped in a session opened by a recovery link (its owner has forgotten the password) and
 * for an account that has no password. For an email change, a second factor passed on this session
 * in the last five minutes also does. GoTrue's codes and message for passwords (auth-contract §4.6).
 */
async function assertCurrentPassword(
  ctx: AuthContext,
  auth: Pick<Authenticated, 'user' | 'session'>,
  changes: Pick<UserChanges, 'currentPassword' | 'ip'>,
  change: 'password' | 'email',
): Promise<void> {
  const { currentPassword } = changes;
  if (!ctx.config.auth.updatePasswordRequireCurrentPassword) return;
  if (auth.session.recovery === 1 || !auth.user.encrypted_password) return;
  const message = change === 'password' ? 'Current password required when setting new password.' : 'Current password required when changing email address.';
  if (currentPassword === undefined || currentPassword === '') {
    if (change === 'email' && passedSecondFactorLately(auth.session)) return;
    throw new GoTrueError(400, 'current_password_required', message);
  }
  // A guess like a sign-in, under the sign-in guard's limits and slowdown: a stolen token must not let anyone try passwords freely.
  const email = auth.user.email;
  const { ip } = changes;
  await ctx.limits.signIn.before(email, ip);
  if (!(await verifyPassword(currentPassword, auth.user.encrypted_password, ctx.config.auth.passwordHash))) {
    await ctx.limits.signIn.failed(email, ip);
    throw new GoTrueError(400, 'current_password_invalid', message);
  }
  await ctx.limits.signIn.succeeded(email, ip);
}

function passedSecondFactorLately(session: SessionRow): boolean {
  if (session.aal !== 'aal2') return false;
  const totp = sessionAmr(session).find((entry) => entry.method === 'totp');
  return totp !== undefined && unixSeconds() - totp.timestamp <= FRESH_SECOND_FACTOR_SECONDS;
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
