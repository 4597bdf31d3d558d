import type { Db } from '#server/db/create-db.ts';
import type { CalendarAttendee } from '#shared/contracts/calendar.ts';
import type { StoredEvent } from './calendar.repository.ts';

/** Meeting reminders: the events due one, and the record of those raised (calendar_reminders). */

/**
 * Events of every connected calendar starting in (after, until], not all-day, with no reminder raised
 * for that occurrence at that start yet; earliest first. ISO timestamps in UTC compare as text.
 */
export async function dueForReminder(db: Db, input: { after: string; until: string; limit: number }): Promise<(StoredEvent & { userId: string })[]> {
  const rows = await db
    .selectFrom('calendar_events as e')
    .selectAll('e')
    .where('e.all_day', '=', 0)
    .where('e.starts_at', '>', input.after)
    .where('e.starts_at', '<=', input.until)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('calendar_reminders as r')
            .select('r.user_id')
            .whereRef('r.user_id', '=', 'e.user_id')
            .whereRef('r.event_id', '=', 'e.id')
            .whereRef('r.event_start', '=', 'e.starts_at'),
        ),
      ),
    )
    .orderBy('e.starts_at')
    .orderBy('e.user_id')
    .orderBy('e.id')
    .limit(input.limit)
    .execute();
  return rows.map((row) => ({
    userId: row.user_id,
    id: row.id,
    seriesId: row.series_id,
    title: row.title,
    start: row.starts_at,
    end: row.ends_at,
    allDay: false,
    url: row.url,
    attendees: JSON.parse(row.attendees) as CalendarAttendee[],
  }));
}

/**
 * Claims the reminder of an occurrence at its start; false when it was claimed already (another
 * sweep or worker). Run in the transaction that records its event: a second claim waits for the
 * first to commit, then finds the row.
 */
export async function claimReminder(db: Db, input: { userId: string; eventId: string; eventStart: string; now: string }): Promise<boolean> {
  const result = await db
    .insertInto('calendar_reminders')
    .values({ user_id: input.userId, event_id: input.eventId, event_start: input.eventStart, raised_at: input.now })
    .onConflict((oc) => oc.columns(['user_id', 'event_id', 'event_start']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Reminders of events that started before `before`: no sweep looks at those again. */
export async function pruneReminders(db: Db, before: string): Promise<void> {
  await db.deleteFrom('calendar_reminders').where('event_start', '<', before).execute();
}

export async function removeRemindersOf(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('calendar_reminders').where('user_id', '=', userId).execute();
}
