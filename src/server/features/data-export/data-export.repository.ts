import type { Db } from '#server/db/create-db.ts';
import type { DataExportsTable } from './data-export.table.ts';

export type DataExportRow = DataExportsTable;

export async function insertExport(db: Db, row: DataExportRow): Promise<void> {
  await db.insertInto('data_exports').values(row).execute();
}

export async function findExport(db: Db, id: string): Promise<DataExportRow | undefined> {
  return db.selectFrom('data_exports').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The person's newest export. */
export async function latestExport(db: Db, userId: string): Promise<DataExportRow | undefined> {
  return db.selectFrom('data_exports').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id', 'desc').executeTakeFirst();
}

export async function updateExport(db: Db, id: string, change: Partial<Omit<DataExportRow, 'id' | 'user_id' | 'created_at'>>): Promise<void> {
  await db.updateTable('data_exports').set(change).where('id', '=', id).execute();
}

export async function exportIdsOf(db: Db, userId: string): Promise<string[]> {
  return (await db.selectFrom('data_exports').select('id').where('user_id', '=', userId).execute()).map((r) => r.id);
}

export async function expiredExportIds(db: Db, now: string): Promise<string[]> {
  return (await db.selectFrom('data_exports').select('id').where('expires_at', '<', now).execute()).map((r) => r.id);
}

export async function deleteExports(db: Db, ids: readonly string[]): Promise<void> {
  if (ids.length > 0)
    await db
      .deleteFrom('data_exports')
      .where('id', 'in', [...ids])
      .execute();
}
