import type { Kysely } from 'kysely';

/**
 * Ask (features/ask): each transcript segment's embedding from the configured /v1/embeddings model,
 * as little-endian float32 in base64 text (portable: one column type on both databases), with a hash
 * of the text it was computed from, so an edited segment is computed again and the others are not.
 * `ask_embedded_meetings` records which transcript revision of a meeting is embedded with which model,
 * so a question can tell at once which meetings need the background job. Both go with their meeting
 * and their segment.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ask_segment_embeddings')
    .addColumn('segment_id', 'text', (c) => c.primaryKey().references('transcript_segments.id').onDelete('cascade'))
    .addColumn('meeting_id', 'text', (c) => c.notNull().references('meetings.id').onDelete('cascade'))
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('text_hash', 'text', (c) => c.notNull())
    .addColumn('vector', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ask_segment_embeddings_meeting_id').on('ask_segment_embeddings').columns(['meeting_id', 'model']).execute();
  await db.schema
    .createTable('ask_embedded_meetings')
    .addColumn('meeting_id', 'text', (c) => c.primaryKey().references('meetings.id').onDelete('cascade'))
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('transcript_revision', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ask_embedded_meetings').execute();
  await db.schema.dropTable('ask_segment_embeddings').execute();
}
