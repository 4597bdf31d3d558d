import type { Kysely } from 'kysely';

/**
 * `team_presence` (features/teams/teams.table.ts): when a person's open Parley tab last said it was
 * in use (the web app's heartbeat every two minutes while a tab is visible), so /team reads
 * "Available" for a teammate online now rather than for one whose token was refreshed within the hour.
 * Deleting the person takes the row with them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('team_presence')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('auth_users.id').onDelete('cascade'))
    .addColumn('seen_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('team_presence').execute();
}
