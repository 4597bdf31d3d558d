import type { Kysely } from 'kysely';

/**
 * The meeting page links back to the event it was recorded from (features/calendar): an event's
 * address in its calendar where the provider gives one (Google's htmlLink, an ICS event's URL), and
 * a copy of the event's title, end and address on its link, so a meeting keeps its event after the
 * event has left the refreshed window (the past month). Links made before have none: the event row,
 * while there, says it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // One column a statement: SQLite's ALTER TABLE adds one at a time.
  await db.schema.alterTable('calendar_events').addColumn('url', 'text').execute();
  await db.schema.alterTable('calendar_meeting_links').addColumn('event_title', 'text').execute();
  await db.schema.alterTable('calendar_meeting_links').addColumn('event_end', 'text').execute();
  await db.schema.alterTable('calendar_meeting_links').addColumn('event_all_day', 'integer').execute();
  await db.schema.alterTable('calendar_meeting_links').addColumn('event_url', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['event_url', 'event_all_day', 'event_end', 'event_title']) {
    await db.schema.alterTable('calendar_meeting_links').dropColumn(column).execute();
  }
  await db.schema.alterTable('calendar_events').dropColumn('url').execute();
}
