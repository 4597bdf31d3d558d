import type { Db } from '#server/db/create-db.ts';
import type { OneTimeTokenRow } from './auth.table.ts';

/** Stores a token in place of the user's live token of the same kind (one live token per user and kind). */
export async function replaceOneTimeToken(db: Db, token: OneTimeTokenRow): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('auth_one_time_tokens').where('user_id', '=', token.user_id).where('token_type', '=', token.token_type).execute();
    await trx.insertInto('auth_one_time_tokens').values(token).execute();
  });
}

/** Finds a token by hash among the given kinds and deletes it in the same transaction, so it is used once. */
export async function takeOneTimeToken(db: Db, input: { hash: string; types: OneTimeTokenRow['token_type'][] }): Promise<OneTimeTokenRow | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('auth_one_time_tokens')
      .selectAll()
      .where('token_hash', '=', input.hash)
      .where('token_type', 'in', input.types)
      .executeTakeFirst();
    if (!row) return undefined;
    await trx.deleteFrom('auth_one_time_tokens').where('id', '=', row.id).execute();
    return row;
  });
}

export async function deleteUserOneTimeTokens(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('auth_one_time_tokens').where('user_id', '=', userId).execute();
}
