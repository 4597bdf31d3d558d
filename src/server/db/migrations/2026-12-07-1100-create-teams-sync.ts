import type { Kysely } from 'kysely';

/**
 * The teams-sync feature's tables (features/teams-sync/teams-sync.table.ts): one connected
 * Microsoft account per person (sealed tokens, the sync's state) and every Teams transcript or
 * recording imported, by its Graph id, so each is imported once. A person's rows go with their
 * account; a deleted meeting leaves its import row (the transcript is not imported again).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('teams_sync_accounts')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('auth_users.id').onDelete('cascade'))
    .addColumn('tokens', 'text', (c) => c.notNull())
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('needs_reconnect', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_synced_at', 'text')
    .addColumn('last_error', 'text')
    .addColumn('last_imported', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_sync_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('teams_sync_accounts_next_idx').on('teams_sync_accounts').column('next_sync_at').execute();

  await db.schema
    .createTable('teams_sync_imports')
    .addColumn('user_id', 'text', (c) => c.notNull().references('auth_users.id').onDelete('cascade'))
    .addColumn('graph_id', 'text', (c) => c.notNull())
    .addColumn('online_meeting_id', 'text', (c) => c.notNull())
    .addColumn('correlation_id', 'text')
    .addColumn('meeting_id', 'text', (c) => c.references('meetings.id').onDelete('set null'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('imported_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('teams_sync_imports_pk', ['user_id', 'graph_id'])
    .execute();
  await db.schema.createIndex('teams_sync_imports_meeting_idx').on('teams_sync_imports').column('meeting_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('teams_sync_imports').execute();
  await db.schema.dropTable('teams_sync_accounts').execute();
}
