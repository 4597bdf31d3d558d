import type { Db } from '#server/db/create-db.ts';
import { inTransaction } from '#server/db/transaction.ts';
import type { CalendarAttendee } from '#shared/contracts/calendar.ts';
import type { CalendarConnectionsTable } from './calendar.table.ts';

/** The calendar feature's tables: a person's connection, their events' occurrences, and meetings recorded from events. */

export type ConnectionRow = CalendarConnectionsTable;

export type StoredEvent = {
  id: string;
  seriesId: string | null;
  title: string;
  start: string;
  end: string;
  allDay: boolean;
  attendees: CalendarAttendee[];
  /** The event in its calendar, where the provider gives an address (http(s) only). */
  url: string | null;
};

export const connectionOf = (db: Db, userId: string): Promise<ConnectionRow | undefined> =>
  db.selectFrom('calendar_connections').selectAll().where('user_id', '=', userId).executeTakeFirst();

/** Connects (or replaces) the person's calendar; the old one's events go with it. */
export async function saveConnection(db: Db, row: Pick<ConnectionRow, 'user_id' | 'kind' | 'secret' | 'label' | 'created_at'>): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx.deleteFrom('calendar_events').where('user_id', '=', row.user_id).execute();
    await trx
      .insertInto('calendar_connections')
      .values({ ...row, last_synced_at: null, last_error: null, last_attempt_at: null })
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet({
          kind: row.kind,
          secret: row.secret,
          label: row.label,
          created_at: row.created_at,
          last_synced_at: null,
          last_error: null,
          last_attempt_at: null,
        }),
      )
      .execute();
  });
}

/**
 * A good refresh: the events of [windowStart, windowEnd) replaced by these, in one transaction, and
 * only while the same connection (its created_at) is still there, so a refresh that finishes after a
 * disconnect or a new connection writes nothing.
 */
export async function storeSync(db: Db, input: { userId: string; createdAt: string; events: StoredEvent[]; now: string }): Promise<boolean> {
  return await inTransaction(db, async (trx) => {
    const updated = await trx
      .updateTable('calendar_connections')
      .set({ last_synced_at: input.now, last_error: null, last_attempt_at: input.now })
      .where('user_id', '=', input.userId)
      .where('created_at', '=', input.createdAt)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return false;
    await trx.deleteFrom('calendar_events').where('user_id', '=', input.userId).execute();
    // In slices: PostgreSQL and SQLite both cap the parameters of one statement.
    for (let i = 0; i < input.events.length; i += 100) {
      await trx
        .insertInto('calendar_events')
        .values(
          input.events.slice(i, i + 100).map((e) => ({
            user_id: input.userId,
            id: e.id,
            series_id: e.seriesId,
            title: e.title,
            starts_at: e.start,
            ends_at: e.end,
            all_day: e.allDay ? 1 : 0,
            attendees: JSON.stringify(e.attendees),
            url: e.url,
          })),
        )
        .onConflict((oc) => oc.columns(['user_id', 'id']).doNothing())
        .execute();
    }
    // The links to events still in the calendar keep their copy as the calendar now says (who is
    // invited above all), so the copy a meeting keeps once its event leaves the window is the latest.
    const current = new Map(input.events.map((e) => [e.id, e]));
    const earliest = input.events.reduce((min, e) => (e.start < min ? e.start : min), '\uffff');
    const linked = await trx
      .selectFrom('calendar_meeting_links')
      .select('event_id')
      .distinct()
      .where('user_id', '=', input.userId)
      .where('event_start', '>=', earliest)
      .execute();
    for (const { event_id } of linked) {
      const event = current.get(event_id);
      if (event)
        await trx.updateTable('calendar_meeting_links').set(savedCopy(event)).where('user_id', '=', input.userId).where('event_id', '=', event_id).execute();
    }
    return true;
  });
}

/** What a link keeps of its event, for when the event has left the refreshed window. */
const savedCopy = (event: StoredEvent) => ({
  event_title: event.title,
  event_end: event.end,
  event_all_day: event.allDay ? 1 : 0,
  event_url: event.url,
  attendee_emails: JSON.stringify(attendeeEmails(event.attendees)),
});

export async function updateSecret(db: Db, userId: string, secret: string): Promise<void> {
  await db.updateTable('calendar_connections').set({ secret }).where('user_id', '=', userId).execute();
}

export async function storeSyncError(db: Db, input: { userId: string; createdAt: string; error: string; now: string }): Promise<void> {
  await db
    .updateTable('calendar_connections')
    .set({ last_error: input.error, last_attempt_at: input.now })
    .where('user_id', '=', input.userId)
    .where('created_at', '=', input.createdAt)
    .execute();
}

export async function removeConnection(db: Db, userId: string): Promise<ConnectionRow | undefined> {
  return await inTransaction(db, async (trx) => {
    const row = await trx.selectFrom('calendar_connections').selectAll().where('user_id', '=', userId).executeTakeFirst();
    await trx.deleteFrom('calendar_events').where('user_id', '=', userId).execute();
    await trx.deleteFrom('calendar_connections').where('user_id', '=', userId).execute();
    return row;
  });
}

/** Everything of the person's: connection, events and links (Delete All Data). */
export async function removeAllOf(db: Db, userId: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx.deleteFrom('calendar_meeting_links').where('user_id', '=', userId).execute();
    await trx.deleteFrom('calendar_events').where('user_id', '=', userId).execute();
    await trx.deleteFrom('calendar_connections').where('user_id', '=', userId).execute();
  });
}

/** Connections whose last refresh was tried before `before` (never tried first), oldest first. */
export async function dueConnections(db: Db, before: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('calendar_connections')
    .select('user_id')
    .where((eb) => eb.or([eb('last_attempt_at', 'is', null), eb('last_attempt_at', '<', before)]))
    .orderBy('last_attempt_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.user_id);
}

export async function countEvents(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('calendar_events')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

const presentEvent = (row: {
  id: string;
  series_id: string | null;
  title: string;
  starts_at: string;
  ends_at: string;
  all_day: number;
  attendees: string;
  url: string | null;
}): StoredEvent => ({
  id: row.id,
  seriesId: row.series_id,
  title: row.title,
  start: row.starts_at,
  end: row.ends_at,
  allDay: row.all_day === 1,
  attendees: JSON.parse(row.attendees) as CalendarAttendee[],
  url: row.url,
});

/** Events overlapping [from, to), earliest first. ISO timestamps in UTC compare as text. */
export async function eventsBetween(db: Db, userId: string, from: string, to: string, limit: number): Promise<StoredEvent[]> {
  const rows = await db
    .selectFrom('calendar_events')
    .selectAll()
    .where('user_id', '=', userId)
    .where('starts_at', '<', to)
    .where('ends_at', '>', from)
    .orderBy('starts_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(presentEvent);
}

export async function eventOf(db: Db, userId: string, id: string): Promise<StoredEvent | undefined> {
  const row = await db.selectFrom('calendar_events').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  return row && presentEvent(row);
}

/** Remembers the event a meeting was recorded from, with a copy of what the meeting page shows of it. */
export async function saveLink(db: Db, input: { userId: string; meetingId: string; event: StoredEvent; now: string }): Promise<void> {
  const { event } = input;
  const fields = { event_id: event.id, series_id: event.seriesId, event_start: event.start, ...savedCopy(event) };
  await db
    .insertInto('calendar_meeting_links')
    .values({ meeting_id: input.meetingId, user_id: input.userId, created_at: input.now, ...fields })
    .onConflict((oc) => oc.column('meeting_id').doUpdateSet(fields))
    .execute();
}

export type MeetingLink = {
  /** Whose calendar the event is in: who recorded the meeting from it. */
  userId: string;
  eventId: string;
  seriesId: string | null;
  eventStart: string;
  /** The event as it was when linked (null on links made before these were kept). */
  saved: { title: string | null; end: string | null; allDay: boolean | null; url: string | null };
  /** The attendees' addresses (lowercased) when linked; null on links made before these were kept. */
  attendeeEmails: string[] | null;
};

/** The addresses of an event's attendees, lowercased, to compare with an account's. */
export const attendeeEmails = (attendees: CalendarAttendee[]): string[] => [
  ...new Set(attendees.flatMap((a) => (a.email ? [a.email.trim().toLowerCase()] : []))),
];

/** The event a meeting was recorded from, whoever recorded it (the caller was allowed to read the meeting). */
export async function linkOf(db: Db, meetingId: string): Promise<MeetingLink | undefined> {
  const row = await db.selectFrom('calendar_meeting_links').selectAll().where('meeting_id', '=', meetingId).executeTakeFirst();
  return (
    row && {
      userId: row.user_id,
      eventId: row.event_id,
      seriesId: row.series_id,
      eventStart: row.event_start,
      saved: {
        title: row.event_title,
        end: row.event_end,
        allDay: row.event_all_day === null ? null : row.event_all_day === 1,
        url: row.event_url,
      },
      attendeeEmails: row.attendee_emails === null ? null : (JSON.parse(row.attendee_emails) as string[]),
    }
  );
}

/** The newest meeting recorded from each of these events. */
export async function meetingsOfEvents(db: Db, userId: string, eventIds: string[]): Promise<Map<string, string>> {
  if (eventIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('calendar_meeting_links')
    .select(['event_id', 'meeting_id'])
    .where('user_id', '=', userId)
    .where('event_id', 'in', eventIds)
    .orderBy('created_at')
    .execute();
  return new Map(rows.map((r) => [r.event_id, r.meeting_id]));
}

/** The meetings recorded at occurrences of a series before `before`, newest first. */
export async function earlierInSeries(
  db: Db,
  userId: string,
  seriesId: string,
  before: string,
  limit: number,
): Promise<{ meetingId: string; eventStart: string }[]> {
  const rows = await db
    .selectFrom('calendar_meeting_links')
    .select(['meeting_id', 'event_start'])
    .where('user_id', '=', userId)
    .where('series_id', '=', seriesId)
    .where('event_start', '<', before)
    .orderBy('event_start', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ meetingId: r.meeting_id, eventStart: r.event_start }));
}

/** The event a meeting of the person's was recorded from. */
export async function linkOfMeeting(db: Db, userId: string, meetingId: string): Promise<{ eventId: string } | undefined> {
  const row = await db
    .selectFrom('calendar_meeting_links')
    .select('event_id')
    .where('user_id', '=', userId)
    .where('meeting_id', '=', meetingId)
    .executeTakeFirst();
  return row && { eventId: row.event_id };
}
