import type { Kysely } from 'kysely';

/**
 * Meeting reminders raised (features/calendar/calendar.table.ts): one row per person, occurrence and
 * start time, inserted in the transaction that records its `calendar.event_starting` event, so the
 * primary key is what makes a reminder go once across sweeps, restarts and workers. The rows go with
 * the account. The sweep reads every person's events by start, hence an index on it alone.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('calendar_reminders')
    .addColumn('user_id', 'text', (c) => c.notNull().references('auth_users.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_start', 'text', (c) => c.notNull())
    .addColumn('raised_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('calendar_reminders_pk', ['user_id', 'event_id', 'event_start'])
    .execute();
  await db.schema.createIndex('calendar_events_starts_at_idx').on('calendar_events').column('starts_at').execute();
  // The prune of reminders whose events have started.
  await db.schema.createIndex('calendar_reminders_start_idx').on('calendar_reminders').column('event_start').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('calendar_reminders').execute();
  await db.schema.dropIndex('calendar_events_starts_at_idx').execute();
}
