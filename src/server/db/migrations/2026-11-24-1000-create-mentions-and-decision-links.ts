import type { Kysely } from 'kysely';

/**
 * Notes across meetings. `action_item_mentions`: a later meeting's moment that talked about an open
 * action item again, with the person's answer to "done or slipped?" (at most one per item and
 * meeting). `decision_links`: a later decision on the same subject as an earlier one, suggested and
 * then confirmed or rejected. Every reference cascades: a deleted meeting, a replaced transcript
 * (its segments) or replaced notes (their items) take their mentions and links with them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('action_item_mentions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('item_id', 'text', (c) => c.notNull().references('meeting_insights.id').onDelete('cascade'))
    .addColumn('meeting_id', 'text', (c) => c.notNull().references('meetings.id').onDelete('cascade'))
    .addColumn('segment_id', 'text', (c) => c.notNull().references('transcript_segments.id').onDelete('cascade'))
    .addColumn('start_ms', 'integer', (c) => c.notNull())
    .addColumn('resolution', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('action_item_mentions_item_meeting_key', ['item_id', 'meeting_id'])
    .execute();
  // Behind the cascades from meetings and segments (the unique key covers item_id).
  await db.schema.createIndex('action_item_mentions_meeting_idx').on('action_item_mentions').column('meeting_id').execute();
  await db.schema.createIndex('action_item_mentions_segment_idx').on('action_item_mentions').column('segment_id').execute();

  await db.schema
    .createTable('decision_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('earlier_id', 'text', (c) => c.notNull().references('meeting_insights.id').onDelete('cascade'))
    .addColumn('later_id', 'text', (c) => c.notNull().references('meeting_insights.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('decision_links_pair_key', ['earlier_id', 'later_id'])
    .execute();
  await db.schema.createIndex('decision_links_later_idx').on('decision_links').column('later_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('decision_links').execute();
  await db.schema.dropTable('action_item_mentions').execute();
}
