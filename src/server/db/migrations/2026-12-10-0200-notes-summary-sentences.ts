import type { Kysely } from 'kysely';

/**
 * The summary's sentences with the segments each was written from (features/notes), kept beside the
 * notes' state so the meeting page can jump from a sentence to where it was said, as from an item.
 * Notes written before have none: their summary reads as plain text until written again.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('meeting_notes').addColumn('summary_sentences', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('meeting_notes').dropColumn('summary_sentences').execute();
}
