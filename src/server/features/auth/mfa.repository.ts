import type { Db } from '#server/db/create-db.ts';
import type { ChallengeRow, FactorRow } from './auth.table.ts';

/** A user's factors, oldest first. */
export async function listFactors(db: Db, userId: string): Promise<FactorRow[]> {
  return db.selectFrom('auth_mfa_factors').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
}

export async function findUserFactor(db: Db, userId: string, factorId: string): Promise<FactorRow | undefined> {
  return db.selectFrom('auth_mfa_factors').selectAll().where('id', '=', factorId).where('user_id', '=', userId).executeTakeFirst();
}

export async function hasVerifiedFactor(db: Db, userId: string): Promise<boolean> {
  const verified = await db.selectFrom('auth_mfa_factors').select('id').where('user_id', '=', userId).where('status', '=', 'verified').executeTakeFirst();
  return verified !== undefined;
}

export async function insertFactor(db: Db, factor: FactorRow): Promise<void> {
  await db.insertInto('auth_mfa_factors').values(factor).execute();
}

/** Deletes the user's unverified factors that were never challenged and were created before `createdBefore`. */
export async function deleteAbandonedFactors(db: Db, userId: string, createdBefore: string): Promise<void> {
  await db
    .deleteFrom('auth_mfa_factors')
    .where('user_id', '=', userId)
    .where('status', '=', 'unverified')
    .where('last_challenged_at', 'is', null)
    .where('created_at', '<', createdBefore)
    .execute();
}

export async function markFactorChallenged(db: Db, factorId: string, now: string): Promise<void> {
  await db.updateTable('auth_mfa_factors').set({ last_challenged_at: now }).where('id', '=', factorId).execute();
}

export async function markFactorVerified(db: Db, factorId: string, now: string): Promise<void> {
  await db.updateTable('auth_mfa_factors').set({ status: 'verified', updated_at: now }).where('id', '=', factorId).execute();
}

export async function deleteOtherUnverifiedFactors(db: Db, userId: string, keepFactorId: string): Promise<void> {
  await db.deleteFrom('auth_mfa_factors').where('user_id', '=', userId).where('status', '=', 'unverified').where('id', '!=', keepFactorId).execute();
}

export async function deleteFactor(db: Db, factorId: string): Promise<void> {
  await db.deleteFrom('auth_mfa_factors').where('id', '=', factorId).execute();
}

export async function insertChallenge(db: Db, challenge: ChallengeRow): Promise<void> {
  await db.insertInto('auth_mfa_challenges').values(challenge).execute();
}

export async function findFactorChallenge(db: Db, factorId: string, challengeId: string): Promise<ChallengeRow | undefined> {
  return db.selectFrom('auth_mfa_challenges').selectAll().where('id', '=', challengeId).where('factor_id', '=', factorId).executeTakeFirst();
}

export async function markChallengeVerified(db: Db, challengeId: string, now: string): Promise<void> {
  await db.updateTable('auth_mfa_challenges').set({ verified_at: now }).where('id', '=', challengeId).execute();
}

export async function setFactorSecret(db: Db, factorId: string, secret: string): Promise<void> {
  await db.updateTable('auth_mfa_factors').set({ secret }).where('id', '=', factorId).execute();
}
