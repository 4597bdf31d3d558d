import type { Kysely } from 'kysely';

/**
 * Words of a transcript that transcription corrected to a term of the custom vocabulary
 * (features/meetings): where in the line, what was heard and what it became, so a person can see
 * the original and undo the correction. Rows go with their line and their meeting.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('transcript_corrections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('meeting_id', 'text', (c) => c.notNull().references('meetings.id').onDelete('cascade'))
    .addColumn('segment_id', 'text', (c) => c.notNull().references('transcript_segments.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('original', 'text', (c) => c.notNull())
    .addColumn('corrected', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('transcript_corrections_segment_id').on('transcript_corrections').column('segment_id').execute();
  await db.schema.createIndex('transcript_corrections_meeting_id').on('transcript_corrections').column('meeting_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('transcript_corrections').execute();
}
