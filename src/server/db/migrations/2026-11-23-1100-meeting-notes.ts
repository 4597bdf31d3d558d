import { sql, type Kysely } from 'kysely';

/**
 * Meeting notes: their state per meeting (`meeting_notes`), every item citing its segments, and a
 * transcript revision on each meeting so notes made from an older transcript show as out of date.
 * Existing items (the sample meetings') keep their one segment as their citation (a topic without
 * one cites its meeting's first segment), and their due labels ("Wednesday") move to `due_text`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('meetings')
    .addColumn('transcript_revision', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('meeting_insights').addColumn('segment_ids', 'text').execute();
  await db.schema.alterTable('meeting_insights').addColumn('start_ms', 'integer').execute();
  await db.schema.alterTable('meeting_insights').addColumn('end_ms', 'integer').execute();
  await db.schema.alterTable('meeting_insights').addColumn('due_text', 'text').execute();
  await db.schema
    .alterTable('meeting_insights')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
    .execute();
  await db.schema
    .alterTable('meeting_insights')
    .addColumn('suggested', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // A person accepted, edited, ticked or dismissed it: notes written again keep it.
  await db.schema
    .alterTable('meeting_insights')
    .addColumn('reviewed', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update meeting_insights set segment_id = (select s.id from transcript_segments s where s.meeting_id = meeting_insights.meeting_id order by s.start_ms, s.id limit 1) where segment_id is null`.execute(
    db,
  );
  await sql`delete from meeting_insights where segment_id is null`.execute(db);
  await sql`update meeting_insights set segment_ids = '["' || segment_id || '"]', due_text = due, due = null, start_ms = coalesce((select s.start_ms from transcript_segments s where s.id = meeting_insights.segment_id), 0)`.execute(
    db,
  );
  await db.schema
    .createTable('meeting_notes')
    .addColumn('meeting_id', 'text', (c) => c.primaryKey().references('meetings.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('engine', 'text')
    .addColumn('failure_reason', 'text')
    .addColumn('dropped_uncited', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('local_fallback_parts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('part', 'integer')
    .addColumn('parts', 'integer')
    .addColumn('source_revision', 'integer')
    .addColumn('generated_at', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // The sample meetings' notes are ready as they were written.
  await sql`insert into meeting_notes (meeting_id, status, engine, dropped_uncited, local_fallback_parts, source_revision, generated_at, updated_at)
    select id, 'ready', null, 0, 0, 0, created_at, created_at from meetings where is_sample = 1`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('meeting_notes').execute();
  for (const column of ['segment_ids', 'start_ms', 'end_ms', 'due_text', 'status', 'suggested', 'reviewed']) {
    await db.schema.alterTable('meeting_insights').dropColumn(column).execute();
  }
  await db.schema.alterTable('meetings').dropColumn('transcript_revision').execute();
}
