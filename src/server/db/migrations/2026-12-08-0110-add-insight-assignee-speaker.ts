import type { Kysely } from 'kysely';

/**
 * An action item's owner as a speaker of its meeting, so the owner follows the person's corrections
 * of who spoke (a rename, a merge, lines moved to another speaker) instead of keeping the name the
 * notes were written with. `assignee_said` is 1 when the owner is whoever said the item's first
 * cited line ("I'll send it"): moving that line moves the item too. Items from before stay as written.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('meeting_insights').addColumn('assignee_speaker_id', 'text').execute();
  await db.schema
    .alterTable('meeting_insights')
    .addColumn('assignee_said', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('meeting_insights').dropColumn('assignee_said').execute();
  await db.schema.alterTable('meeting_insights').dropColumn('assignee_speaker_id').execute();
}
