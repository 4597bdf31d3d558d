import type { Db } from '#server/db/create-db.ts';
import { inTransaction } from '#server/db/transaction.ts';
import type { IdentityRow, UserRow } from './auth.table.ts';
import { nowIso } from './clock.ts';

/** The form the email column holds; every lookup by address goes through it too. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('auth_users').selectAll().where('email', '=', normalizeEmail(email)).executeTakeFirst();
}

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('auth_users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The user with a pending change to this address. */
export async function findUserByPendingEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('auth_users').selectAll().where('email_change', '=', email).executeTakeFirst();
}

export async function insertUserWithIdentity(db: Db, user: UserRow, identity: IdentityRow): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx.insertInto('auth_users').values(user).execute();
    await trx.insertInto('auth_identities').values(identity).execute();
  });
}

export async function setEmailConfirmed(db: Db, userId: string, input: { userMetadata: string; now: string }): Promise<void> {
  await db
    .updateTable('auth_users')
    .set({ email_confirmed_at: input.now, raw_user_meta_data: input.userMetadata, updated_at: input.now })
    .where('id', '=', userId)
    .execute();
}

/** Makes the pending address the user's email and clears the pending change; false when that change is no longer the one pending. */
export async function replaceUserEmail(db: Db, userId: string, input: { email: string; emailConfirmedAt: string; now: string }): Promise<boolean> {
  const result = await db
    .updateTable('auth_users')
    .set({
      email: input.email,
      email_change: null,
      email_change_sent_at: null,
      email_change_confirm_status: 0,
      email_confirmed_at: input.emailConfirmedAt,
      updated_at: input.now,
    })
    .where('id', '=', userId)
    .where('email_change', '=', input.email)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Records a requested change of address; neither address has confirmed it yet. */
export async function setPendingEmail(db: Db, userId: string, email: string, now: string): Promise<void> {
  await db.updateTable('auth_users').set({ email_change: email, email_change_confirm_status: 0, updated_at: now }).where('id', '=', userId).execute();
}

/**
 * Records the first of the two confirmations of the pending change to `email`. One conditional
 * UPDATE, so of two confirmations arriving together exactly one is the first: false means one
 * address had already confirmed (this one completes the change) or the change is no longer pending.
 */
export async function markEmailChangeHalfConfirmed(db: Db, userId: string, email: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('auth_users')
    .set({ email_change_confirm_status: 1, updated_at: now })
    .where('id', '=', userId)
    .where('email_change', '=', email)
    .where('email_change_confirm_status', '=', 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function setPasswordHash(db: Db, userId: string, passwordHash: string, now: string): Promise<void> {
  await db.updateTable('auth_users').set({ encrypted_password: passwordHash, updated_at: now }).where('id', '=', userId).execute();
}

export async function setUserMetadata(db: Db, userId: string, userMetadata: string, now: string): Promise<void> {
  await db.updateTable('auth_users').set({ raw_user_meta_data: userMetadata, updated_at: now }).where('id', '=', userId).execute();
}

/** The user columns that record when the last email of a kind went out. */
export type EmailSentAtColumn = 'confirmation_sent_at' | 'recovery_sent_at' | 'email_change_sent_at';

export async function setEmailSentAt(db: Db, userId: string, column: EmailSentAtColumn, now: string): Promise<void> {
  await db
    .updateTable('auth_users')
    .set({ [column]: now, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

/**
 * Dates the user's latest sign-in: now, or `at` for the sign-in that comes with a new account, which
 * is dated at its confirmation, so a client can tell that first session from any later sign-in
 * (last_sign_in_at equals email_confirmed_at only then).
 */
export async function touchLastSignIn(db: Db, userId: string, at?: string): Promise<void> {
  const now = at ?? nowIso();
  await db.updateTable('auth_users').set({ last_sign_in_at: now, updated_at: now }).where('id', '=', userId).execute();
  await db.updateTable('auth_identities').set({ last_sign_in_at: now }).where('user_id', '=', userId).execute();
}

/**
 * How long the person may be away before coming back is a return, though in the session of their
 * first visit: sessions never expire, so without it a browser kept signed in would be welcomed as
 * new for months. Half an hour without a request is the usual end of a web visit.
 */
const FIRST_VISIT_BREAK_MS = 30 * 60 * 1000;

/**
 * How stale the first visit's last sighting may be before it is written again: a reload writes
 * nothing, and the break above is measured to within this.
 */
const FIRST_VISIT_SEEN_EVERY_MS = 60 * 1000;

/**
 * Whether `sessionId` at `now` is the user's first visit. The first session to ask is recorded as it
 * (one conditional update, so two tabs opening at once agree on which was first), and it stays the
 * first visit through reloads until the person comes back after FIRST_VISIT_BREAK_MS: from then on,
 * and in every other session, the person has been here before ('' marks the first visit as over).
 * `user` is the row the request's sign-in check has just read: it answers every later session and
 * every visit after the first without another statement.
 */
export async function claimFirstVisit(
  db: Db,
  user: Pick<UserRow, 'id' | 'first_session_id' | 'first_visit_seen_at'>,
  sessionId: string,
  now: Date,
): Promise<boolean> {
  const at = now.toISOString();
  let { first_session_id: firstSession, first_visit_seen_at: seenAt } = user;
  if (firstSession === null) {
    await db
      .updateTable('auth_users')
      .set({ first_session_id: sessionId, first_visit_seen_at: at })
      .where('id', '=', user.id)
      .where('first_session_id', 'is', null)
      .execute();
    const row = await db.selectFrom('auth_users').select(['first_session_id', 'first_visit_seen_at']).where('id', '=', user.id).executeTakeFirst();
    [firstSession, seenAt] = [row?.first_session_id ?? null, row?.first_visit_seen_at ?? null];
  }
  if (firstSession !== sessionId) return false;
  const seen = seenAt === null ? Number.NEGATIVE_INFINITY : Date.parse(seenAt);
  if (now.getTime() - seen > FIRST_VISIT_BREAK_MS) {
    await db.updateTable('auth_users').set({ first_session_id: '' }).where('id', '=', user.id).where('first_session_id', '=', sessionId).execute();
    return false;
  }
  if (now.getTime() - seen >= FIRST_VISIT_SEEN_EVERY_MS) {
    await db.updateTable('auth_users').set({ first_visit_seen_at: at }).where('id', '=', user.id).where('first_session_id', '=', sessionId).execute();
  }
  return true;
}

/** A user's identities, oldest first. */
export async function listIdentities(db: Db, userId: string): Promise<IdentityRow[]> {
  return db.selectFrom('auth_identities').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
}

export async function listEmailIdentities(db: Db, userId: string): Promise<IdentityRow[]> {
  return db.selectFrom('auth_identities').selectAll().where('user_id', '=', userId).where('provider', '=', 'email').execute();
}

/** Rewrites an identity's data, and its email when given. */
export async function updateIdentity(db: Db, id: string, input: { identityData: string; email?: string; now: string }): Promise<void> {
  await db
    .updateTable('auth_identities')
    .set({ ...(input.email !== undefined ? { email: input.email } : {}), identity_data: input.identityData, updated_at: input.now })
    .where('id', '=', id)
    .execute();
}

/** Removes the user; sessions, refresh tokens, identities, factors and one-time tokens go with it (on delete cascade). */
export async function deleteUserRow(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('auth_users').where('id', '=', userId).execute();
}
