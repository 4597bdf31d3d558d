import type { Db } from '#server/db/create-db.ts';
import type { SigningKeyRow } from './auth.table.ts';

export async function insertSigningKey(db: Db, key: SigningKeyRow): Promise<void> {
  await db.insertInto('auth_signing_keys').values(key).execute();
}

/** Every stored key, newest first. */
export async function listSigningKeys(db: Db): Promise<SigningKeyRow[]> {
  return db.selectFrom('auth_signing_keys').selectAll().orderBy('created_at', 'desc').execute();
}

/** The current key becomes previous: no longer signing, still published. */
export async function retireCurrentSigningKey(db: Db, retiredAt: string): Promise<void> {
  await db.updateTable('auth_signing_keys').set({ status: 'previous', retired_at: retiredAt }).where('status', '=', 'current').execute();
}

export async function deleteSigningKeysRetiredBefore(db: Db, cutoff: string): Promise<void> {
  await db.deleteFrom('auth_signing_keys').where('status', '=', 'previous').where('retired_at', '<', cutoff).execute();
}

export async function setSigningKeyPrivateJwk(db: Db, id: string, privateJwk: string): Promise<void> {
  await db.updateTable('auth_signing_keys').set({ private_jwk: privateJwk }).where('id', '=', id).execute();
}
