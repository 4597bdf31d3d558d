import type { Kysely } from 'kysely';

/**
 * "Anonymous Emotional Analysis" by the operator's emotion provider (features/emotion): which lines
 * of a meeting it scored, with which provider, and a hash of the text it scored, so an edit is scored
 * again and nothing else is sent twice. The score itself is the segment's sentiment. Rows go with
 * their segment and their meeting.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('emotion_scored_segments')
    .addColumn('segment_id', 'text', (c) => c.primaryKey().references('transcript_segments.id').onDelete('cascade'))
    .addColumn('meeting_id', 'text', (c) => c.notNull().references('meetings.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('text_hash', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('emotion_scored_segments_meeting_id').on('emotion_scored_segments').column('meeting_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('emotion_scored_segments').execute();
}
