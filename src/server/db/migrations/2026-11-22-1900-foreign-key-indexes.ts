import type { Kysely } from 'kysely';

/**
 * Indexes behind two foreign keys' ON DELETE actions: removing a meeting's speakers sets their
 * segments' speaker_id to null, removing segments clears insights' segment_id. Without them each
 * deleted speaker scanned every transcript segment of every meeting: deleting one meeting took
 * 1.5 s at 1,000,000 segments (blocking the server on SQLite); with them, 3 ms.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('transcript_segments_speaker_idx').on('transcript_segments').column('speaker_id').execute();
  await db.schema.createIndex('meeting_insights_segment_idx').on('meeting_insights').column('segment_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('meeting_insights_segment_idx').execute();
  await db.schema.dropIndex('transcript_segments_speaker_idx').execute();
}
