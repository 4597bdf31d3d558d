import type { Kysely } from 'kysely';

/**
 * Revocable share links to a read-only meeting view (see features/sharing/sharing.table.ts). Only
 * a SHA-256 of each token is kept, so a leaked database does not leak working links. Deleting the
 * meeting or its owner deletes the links.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('share_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('meeting_id', 'text', (c) => c.notNull().references('meetings.id').onDelete('cascade'))
    .addColumn('owner_id', 'text', (c) => c.notNull().references('auth_users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('share_links_token_hash_key').on('share_links').column('token_hash').unique().execute();
  await db.schema.createIndex('share_links_meeting_idx').on('share_links').columns(['meeting_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('share_links').execute();
}
