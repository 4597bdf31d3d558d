import type { Kysely } from 'kysely';

/**
 * The calendar feature's tables (features/calendar/calendar.table.ts): one connected calendar per
 * person (an ICS address or Google tokens, sealed), the occurrences of its events from the last
 * refresh, and which meeting was recorded from which event. A person's rows go with their account;
 * a link goes with its meeting.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('calendar_connections')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('auth_users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('last_synced_at', 'text')
    .addColumn('last_error', 'text')
    .addColumn('last_attempt_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('calendar_connections_attempt_idx').on('calendar_connections').column('last_attempt_at').execute();

  await db.schema
    .createTable('calendar_events')
    .addColumn('user_id', 'text', (c) => c.notNull().references('auth_users.id').onDelete('cascade'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('series_id', 'text')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('starts_at', 'text', (c) => c.notNull())
    .addColumn('ends_at', 'text', (c) => c.notNull())
    .addColumn('all_day', 'integer', (c) => c.notNull())
    .addColumn('attendees', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('calendar_events_pk', ['user_id', 'id'])
    .execute();
  await db.schema.createIndex('calendar_events_start_idx').on('calendar_events').columns(['user_id', 'starts_at']).execute();

  await db.schema
    .createTable('calendar_meeting_links')
    .addColumn('meeting_id', 'text', (c) => c.primaryKey().references('meetings.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('auth_users.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('series_id', 'text')
    .addColumn('event_start', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('calendar_meeting_links_event_idx').on('calendar_meeting_links').columns(['user_id', 'event_id']).execute();
  await db.schema.createIndex('calendar_meeting_links_series_idx').on('calendar_meeting_links').columns(['user_id', 'series_id', 'event_start']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('calendar_meeting_links').execute();
  await db.schema.dropTable('calendar_events').execute();
  await db.schema.dropTable('calendar_connections').execute();
}
