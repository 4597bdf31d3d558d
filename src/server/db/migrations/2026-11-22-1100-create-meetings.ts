import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.ts';

/**
 * Meetings with their participants, speakers, transcript segments and insights. Full-text search:
 * an FTS5 table on SQLite, a tsvector column with a GIN index on PostgreSQL; both are refreshed by
 * the meetings repository whenever a meeting's text changes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('meetings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('auth_users.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('duration_seconds', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('failure_reason', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('options', 'text', (c) => c.notNull())
    .addColumn('summary', 'text')
    .addColumn('is_sample', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('audio_key', 'text')
    .addColumn('audio_mime', 'text')
    .addColumn('audio_bytes', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('meetings_owner_started_idx').on('meetings').columns(['owner_id', 'started_at']).execute();

  await db.schema
    .createTable('meeting_participants')
    .addColumn('meeting_id', 'text', (c) => c.notNull().references('meetings.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_lower', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('meeting_participants_pk', ['meeting_id', 'position'])
    .execute();
  await db.schema.createIndex('meeting_participants_name_idx').on('meeting_participants').column('name_lower').execute();

  await db.schema
    .createTable('meeting_speakers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('meeting_id', 'text', (c) => c.notNull().references('meetings.id').onDelete('cascade'))
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('meeting_speakers_meeting_idx').on('meeting_speakers').column('meeting_id').execute();

  await db.schema
    .createTable('transcript_segments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('meeting_id', 'text', (c) => c.notNull().references('meetings.id').onDelete('cascade'))
    .addColumn('speaker_id', 'text', (c) => c.references('meeting_speakers.id').onDelete('set null'))
    .addColumn('start_ms', 'integer', (c) => c.notNull())
    .addColumn('end_ms', 'integer', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('confidence', 'real')
    .execute();
  await db.schema.createIndex('transcript_segments_meeting_idx').on('transcript_segments').columns(['meeting_id', 'start_ms']).execute();

  await db.schema
    .createTable('meeting_insights')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('meeting_id', 'text', (c) => c.notNull().references('meetings.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('assignee', 'text')
    .addColumn('due', 'text')
    .addColumn('segment_id', 'text', (c) => c.references('transcript_segments.id').onDelete('set null'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('meeting_insights_meeting_idx').on('meeting_insights').column('meeting_id').execute();

  if (isPostgres(db)) {
    await sql`alter table meetings add column search_vector tsvector not null default ''::tsvector`.execute(db);
    await sql`create index meetings_search_idx on meetings using gin (search_vector)`.execute(db);
  } else {
    await sql`create virtual table meeting_search using fts5(meeting_id unindexed, title, summary, transcript, tokenize = 'porter unicode61')`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) await sql`drop table meeting_search`.execute(db);
  for (const table of ['meeting_insights', 'transcript_segments', 'meeting_speakers', 'meeting_participants', 'meetings']) {
    await db.schema.dropTable(table).execute();
  }
}
