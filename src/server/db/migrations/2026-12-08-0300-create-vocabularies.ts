import type { Kysely } from 'kysely';

/**
 * Custom vocabulary (features/vocabulary): a person's terms (Settings › Recording) and a team's
 * (edited by its owner and admins), each a JSON array of strings. Rows go with their account or team.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('user_vocabularies')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('auth_users.id').onDelete('cascade'))
    .addColumn('terms', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('team_vocabularies')
    .addColumn('team_id', 'text', (c) => c.primaryKey().references('teams.id').onDelete('cascade'))
    .addColumn('terms', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.references('auth_users.id').onDelete('set null'))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('team_vocabularies').execute();
  await db.schema.dropTable('user_vocabularies').execute();
}
