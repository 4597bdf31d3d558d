import type { Db } from '#server/db/create-db.ts';
import type { TeamsSyncAccountsTable } from './teams-sync.table.ts';

/** The teams-sync feature's rows: a person's Microsoft account and what was imported from it. */

export type AccountRow = TeamsSyncAccountsTable;

export async function accountOf(db: Db, userId: string): Promise<AccountRow | undefined> {
  return await db.selectFrom('teams_sync_accounts').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** Connects (or connects again): new tokens, the sync state kept unless it is a first connection. */
export async function saveAccount(db: Db, row: Pick<AccountRow, 'user_id' | 'tokens' | 'account' | 'next_sync_at' | 'created_at'>): Promise<void> {
  await db
    .insertInto('teams_sync_accounts')
    .values({ ...row, needs_reconnect: 0, last_imported: 0 })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({ tokens: row.tokens, account: row.account, needs_reconnect: 0, last_error: null, next_sync_at: row.next_sync_at }),
    )
    .execute();
}

export async function updateTokens(db: Db, userId: string, tokens: string): Promise<void> {
  await db.updateTable('teams_sync_accounts').set({ tokens }).where('user_id', '=', userId).execute();
}

export async function updateAccount(
  db: Db,
  userId: string,
  patch: Partial<Pick<AccountRow, 'needs_reconnect' | 'last_synced_at' | 'last_error' | 'last_imported' | 'next_sync_at'>>,
): Promise<void> {
  await db.updateTable('teams_sync_accounts').set(patch).where('user_id', '=', userId).execute();
}

export async function removeAccount(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('teams_sync_accounts').where('user_id', '=', userId).execute();
}

/** People whose next sync is due, oldest first (never one whose tokens Microsoft refused). */
export async function dueAccounts(db: Db, now: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('teams_sync_accounts')
    .select('user_id')
    .where('next_sync_at', '<=', now)
    .where('needs_reconnect', '=', 0)
    .orderBy('next_sync_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.user_id);
}

/** Which of these Graph ids were imported for the person already. */
export async function importedAmong(db: Db, userId: string, graphIds: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  // Bounded batches: SQLite takes at most a few thousand bound values in one statement.
  for (let at = 0; at < graphIds.length; at += 200) {
    const batch = graphIds.slice(at, at + 200);
    const rows = await db.selectFrom('teams_sync_imports').select('graph_id').where('user_id', '=', userId).where('graph_id', 'in', batch).execute();
    for (const row of rows) found.add(row.graph_id);
  }
  return found;
}

/**
 * Records an import; false when it was recorded already (another run took it first). Called inside
 * the transaction that writes the meeting, so both are kept or neither.
 */
export async function recordImport(
  db: Db,
  row: { userId: string; graphId: string; onlineMeetingId: string; correlationId: string | null; meetingId: string; title: string; at: string },
): Promise<boolean> {
  const result = await db
    .insertInto('teams_sync_imports')
    .values({
      user_id: row.userId,
      graph_id: row.graphId,
      online_meeting_id: row.onlineMeetingId,
      correlation_id: row.correlationId,
      meeting_id: row.meetingId,
      title: row.title,
      imported_at: row.at,
    })
    .onConflict((oc) => oc.columns(['user_id', 'graph_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Recordings imported since `since` whose meeting may still wait for them (a download a run did not finish). */
export async function unfinishedRecordings(db: Db, userId: string, since: string): Promise<{ graphId: string; onlineMeetingId: string; meetingId: string }[]> {
  const rows = await db
    .selectFrom('teams_sync_imports')
    .select(['graph_id', 'online_meeting_id', 'meeting_id'])
    .where('user_id', '=', userId)
    .where('graph_id', 'like', 'recording:%')
    .where('meeting_id', 'is not', null)
    .where('imported_at', '>', since)
    .orderBy('imported_at', 'desc')
    .limit(200)
    .execute();
  return rows.map((r) => ({ graphId: r.graph_id, onlineMeetingId: r.online_meeting_id, meetingId: r.meeting_id! }));
}

export async function importedCount(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('teams_sync_imports')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('user_id', '=', userId)
    .where('meeting_id', 'is not', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Delete All Data and Delete Account: the account, its tokens and the import records. */
export async function removeAllOf(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('teams_sync_imports').where('user_id', '=', userId).execute();
  await db.deleteFrom('teams_sync_accounts').where('user_id', '=', userId).execute();
}
