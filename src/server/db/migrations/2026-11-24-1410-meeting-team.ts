import type { Kysely } from 'kysely';

/**
 * A meeting may be shared with one team of its owner (meetings.team_id, owned by the meetings
 * feature). Deleting the team makes its meetings private again.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('meetings')
    .addColumn('team_id', 'text', (c) => c.references('teams.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('meetings_team_idx').on('meetings').columns(['team_id', 'started_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('meetings_team_idx').execute();
  await db.schema.alterTable('meetings').dropColumn('team_id').execute();
}
