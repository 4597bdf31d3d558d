import type { Db } from '#server/db/create-db.ts';
import type { ApiTokensTable } from './api-tokens.table.ts';

export type ApiTokenRow = ApiTokensTable;

export async function insertApiToken(db: Db, row: ApiTokenRow): Promise<void> {
  await db.insertInto('api_tokens').values(row).execute();
}

export async function countApiTokens(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('api_tokens')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function listApiTokens(db: Db, userId: string): Promise<ApiTokenRow[]> {
  return db.selectFrom('api_tokens').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id').execute();
}

export async function findApiTokenByHash(db: Db, tokenHash: string): Promise<ApiTokenRow | undefined> {
  return db.selectFrom('api_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

export async function deleteApiToken(db: Db, userId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('api_tokens').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function deleteApiTokensOf(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('api_tokens').where('user_id', '=', userId).execute();
}

/** Records a use; at most once a minute per token, so a busy script does not write on every request. */
export async function touchApiToken(db: Db, id: string, now: string, notSince: string): Promise<void> {
  await db
    .updateTable('api_tokens')
    .set({ last_used_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', notSince)]))
    .execute();
}
