import type { Db } from '#server/db/create-db.ts';
import type { RefreshTokenRow, SessionRow } from './auth.table.ts';

export async function insertSession(db: Db, session: SessionRow): Promise<void> {
  await db.insertInto('auth_sessions').values(session).execute();
}

export async function findSession(db: Db, id: string): Promise<SessionRow | undefined> {
  return db.selectFrom('auth_sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Reads a session inside a transaction so that concurrent refreshes of it run one after the other. */
export async function lockSession(db: Db, id: string): Promise<SessionRow | undefined> {
  const query = db.selectFrom('auth_sessions').selectAll().where('id', '=', id);
  try {
    return await query.forUpdate().executeTakeFirst();
  } catch {
    // SQLite has no FOR UPDATE (and a failed statement leaves its transaction intact); its
    // transactions run one at a time on the single connection anyway.
    return query.executeTakeFirst();
  }
}

export async function markSessionRefreshed(db: Db, id: string, now: string): Promise<void> {
  await db.updateTable('auth_sessions').set({ refreshed_at: now, updated_at: now }).where('id', '=', id).execute();
}

/** The session set its new password: it is no longer a recovery session. */
export async function endSessionRecovery(db: Db, id: string, now: string): Promise<void> {
  await db.updateTable('auth_sessions').set({ recovery: 0, updated_at: now }).where('id', '=', id).execute();
}

/** Records a passed MFA check on the session. */
export async function upgradeSessionToAal2(db: Db, id: string, input: { amr: string; factorId: string; now: string }): Promise<void> {
  await db.updateTable('auth_sessions').set({ aal: 'aal2', amr: input.amr, factor_id: input.factorId, updated_at: input.now }).where('id', '=', id).execute();
}

/** Sessions that passed MFA with a factor that is gone fall back to aal1. */
export async function downgradeSessionsOfFactor(db: Db, factorId: string, now: string): Promise<void> {
  await db.updateTable('auth_sessions').set({ aal: 'aal1', factor_id: null, updated_at: now }).where('factor_id', '=', factorId).execute();
}

export async function deleteSession(db: Db, id: string): Promise<void> {
  await db.deleteFrom('auth_sessions').where('id', '=', id).execute();
}

/** Deletes a user's sessions: all of them, only one, or all but one. */
export async function deleteUserSessions(db: Db, userId: string, filter: { only?: string; except?: string } = {}): Promise<void> {
  let query = db.deleteFrom('auth_sessions').where('user_id', '=', userId);
  if (filter.only !== undefined) query = query.where('id', '=', filter.only);
  if (filter.except !== undefined) query = query.where('id', '!=', filter.except);
  await query.execute();
}

/** Returns the ids of the sessions it ended. */
export async function deleteOtherAal1Sessions(db: Db, userId: string, keepSessionId: string): Promise<string[]> {
  const rows = await db
    .deleteFrom('auth_sessions')
    .where('user_id', '=', userId)
    .where('aal', '=', 'aal1')
    .where('id', '!=', keepSessionId)
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

export async function insertRefreshToken(db: Db, token: RefreshTokenRow): Promise<void> {
  await db.insertInto('auth_refresh_tokens').values(token).execute();
}

export async function findRefreshTokenByHash(db: Db, tokenHash: string): Promise<RefreshTokenRow | undefined> {
  return db.selectFrom('auth_refresh_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** The link of a successor chain: a token's id and its sealed successor. */
export async function findRefreshTokenLinkByHash(db: Db, tokenHash: string): Promise<Pick<RefreshTokenRow, 'id' | 'child_ciphertext'> | undefined> {
  return db.selectFrom('auth_refresh_tokens').select(['id', 'child_ciphertext']).where('token_hash', '=', tokenHash).executeTakeFirst();
}

export async function findActiveRefreshToken(db: Db, sessionId: string): Promise<RefreshTokenRow | undefined> {
  return db.selectFrom('auth_refresh_tokens').selectAll().where('session_id', '=', sessionId).where('revoked', '=', 0).executeTakeFirst();
}

/** Retires a token and stores its successor, sealed under a key only the retired token yields. */
export async function markRefreshTokenRotated(db: Db, id: string, input: { childCiphertext: string; now: string }): Promise<void> {
  await db
    .updateTable('auth_refresh_tokens')
    .set({ revoked: 1, child_ciphertext: input.childCiphertext, updated_at: input.now })
    .where('id', '=', id)
    .execute();
}

export async function deleteSessionRefreshTokens(db: Db, sessionId: string): Promise<void> {
  await db.deleteFrom('auth_refresh_tokens').where('session_id', '=', sessionId).execute();
}
