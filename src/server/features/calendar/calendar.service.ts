import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Db } from '#server/db/create-db.ts';
import { AppError, notFound } from '#server/lib/app-error.ts';
import { bestEffort } from '#server/lib/best-effort.ts';
import type { SecretBox } from '#server/lib/secret-box.ts';
import { MAX_EVENTS_PER_ANSWER, MAX_EVENTS_WINDOW_DAYS, type CalendarConnection, type CalendarEvent } from '#shared/contracts/calendar.ts';
import type { MeetingsService } from '../meetings/meetings.service.ts';
import {
  connectionOf,
  countEvents,
  dueConnections,
  earlierInSeries,
  eventOf,
  eventsBetween,
  meetingsOfEvents,
  removeAllOf,
  removeConnection,
  saveConnection,
  saveLink,
  storeSync,
  storeSyncError,
  type ConnectionRow,
  type StoredEvent,
} from './calendar.repository.ts';
import { expandIcs, IcsError } from './ics.ts';
import { fetchIcs, icsLabel, normaliseIcsUrl } from './ics-source.ts';

const DAY_MS = 86_400_000;
/** The events kept from each refresh: the past month (for "last time") and the next three. */
const KEEP_BEFORE_MS = 31 * DAY_MS;
const KEEP_AFTER_MS = 93 * DAY_MS;
const MAX_STORED_EVENTS = 2_000;
/** How often a calendar is read again, and how often the worker looks for those due. */
export const CALENDAR_REFRESH_MS = 15 * 60_000;
const SWEEP_INTERVAL_MS = 60_000;
const SWEEP_BATCH = 20;

export type CalendarService = ReturnType<typeof createCalendarService>;

type CalendarDeps = {
  db: Db;
  secrets: SecretBox;
  meetings: Pick<MeetingsService, 'get' | 'update'>;
  /** Open action items of a meeting the person owns (the notes feature's). */
  openActionItemsOf: (meeting: { id: string; transcriptRevision: number }) => Promise<string[]>;
  timeZoneOf: (userId: string) => Promise<string>;
  outbound: { allowPrivateNetworks: boolean };
  /** The redirect URI Google sends people back to (shown in Settings to register). */
  googleRedirectUri: string;
  now: () => Date;
  log: Logger;
};

const secretContext = (userId: string) => `calendar_connections.secret:${userId}`;

export function createCalendarService(deps: CalendarDeps) {
  const { db, secrets, now, log } = deps;
  let timer: NodeJS.Timeout | undefined;
  let sweeping: Promise<unknown> | undefined;

  const present = async (userId: string, row: ConnectionRow | undefined): Promise<CalendarConnection> => ({
    connected: row !== undefined,
    kind: row?.kind ?? null,
    label: row?.label ?? null,
    lastSyncedAt: row?.last_synced_at ?? null,
    lastError: row?.last_error ?? null,
    eventCount: row ? await countEvents(db, userId) : 0,
    google: { available: false, redirectUri: deps.googleRedirectUri },
  });

  /** Reads the calendar behind a connection into occurrences; throws an AppError a person can act on. */
  const readOccurrences = async (userId: string, row: Pick<ConnectionRow, 'kind' | 'secret'>): Promise<StoredEvent[]> => {
    const at = now().getTime();
    const window = { from: new Date(at - KEEP_BEFORE_MS), to: new Date(at + KEEP_AFTER_MS), max: MAX_STORED_EVENTS };
    const url = normaliseIcsUrl(secrets.open(row.secret, secretContext(userId)).plaintext, deps.outbound);
    const text = await fetchIcs(url, deps.outbound);
    let expanded;
    try {
      expanded = expandIcs(text, { ...window, floatingZone: await deps.timeZoneOf(userId) });
    } catch (error) {
      if (error instanceof IcsError) {
        throw new AppError('VALIDATION_FAILED', `${error.message} Copy the secret address in iCal format from your calendar's settings.`);
      }
      throw error;
    }
    return expanded.occurrences.map((o) => ({
      id: o.id,
      seriesId: o.seriesId,
      title: o.title,
      start: o.start.toISOString(),
      end: o.end.toISOString(),
      allDay: o.allDay,
      attendees: o.attendees,
    }));
  };

  /** One refresh; a failure is recorded on the connection for the person to see, never thrown. */
  const syncNow = async (userId: string): Promise<void> => {
    const row = await connectionOf(db, userId);
    if (!row) return;
    try {
      const events = await readOccurrences(userId, row);
      await storeSync(db, { userId, createdAt: row.created_at, events, now: now().toISOString() });
    } catch (error) {
      const message = error instanceof AppError ? error.message : 'The calendar could not be read. Try again later.';
      if (!(error instanceof AppError)) log.warn({ err: error, userId }, 'a calendar refresh failed');
      await storeSyncError(db, { userId, createdAt: row.created_at, error: message, now: now().toISOString() });
    }
  };

  const sweepDue = async (): Promise<void> => {
    const due = await dueConnections(db, new Date(now().getTime() - CALENDAR_REFRESH_MS).toISOString(), SWEEP_BATCH);
    for (const userId of due) await syncNow(userId);
  };

  const earlierMeeting = async (userId: string, meetingId: string): Promise<CalendarEvent['lastMeeting']> => {
    const meeting = await deps.meetings.get(userId, meetingId);
    if (!meeting) return null;
    return {
      id: meeting.id,
      title: meeting.title,
      startedAt: meeting.startedAt,
      summary: meeting.summary,
      openActionItems: (await deps.openActionItemsOf(meeting)).length,
    };
  };

  const presentEvents = async (userId: string, events: StoredEvent[]): Promise<CalendarEvent[]> => {
    const meetings = await meetingsOfEvents(
      db,
      userId,
      events.map((e) => e.id),
    );
    // "Last time": per series, the meetings recorded at its occurrences before the last one asked
    // about (newest first); each occurrence takes the newest that came before it.
    const latestStart = new Map<string, string>();
    for (const e of events) if (e.seriesId && (latestStart.get(e.seriesId) ?? '') < e.start) latestStart.set(e.seriesId, e.start);
    const seriesLinks = new Map<string, { meetingId: string; eventStart: string }[]>();
    for (const [seriesId, before] of latestStart) seriesLinks.set(seriesId, await earlierInSeries(db, userId, seriesId, before, 20));
    const presented = new Map<string, CalendarEvent['lastMeeting']>();
    const out: CalendarEvent[] = [];
    for (const event of events) {
      const earlier = event.seriesId ? seriesLinks.get(event.seriesId)?.find((l) => l.eventStart < event.start) : undefined;
      let lastMeeting: CalendarEvent['lastMeeting'] = null;
      if (earlier) {
        if (!presented.has(earlier.meetingId)) presented.set(earlier.meetingId, await earlierMeeting(userId, earlier.meetingId));
        lastMeeting = presented.get(earlier.meetingId) ?? null;
      }
      out.push({ ...event, meetingId: meetings.get(event.id) ?? null, lastMeeting });
    }
    return out;
  };

  return {
    connection: async (userId: string): Promise<CalendarConnection> => present(userId, await connectionOf(db, userId)),

    /** Connects a calendar by its ICS address: read at once, so a wrong address is refused before it is kept. */
    connectIcs: async (userId: string, icsUrl: string): Promise<CalendarConnection> => {
      const url = normaliseIcsUrl(icsUrl, deps.outbound);
      const secret = secrets.seal(url.toString(), secretContext(userId));
      const events = await readOccurrences(userId, { kind: 'ics', secret });
      const createdAt = now().toISOString();
      await saveConnection(db, { user_id: userId, kind: 'ics', secret, label: icsLabel(url), created_at: createdAt });
      await storeSync(db, { userId, createdAt, events, now: createdAt });
      return present(userId, await connectionOf(db, userId));
    },

    disconnect: async (userId: string): Promise<CalendarConnection> => {
      await removeConnection(db, userId);
      return present(userId, undefined);
    },

    /** Refreshes now ("Sync now"); the answer carries the outcome (lastError). */
    sync: async (userId: string): Promise<CalendarConnection> => {
      if (!(await connectionOf(db, userId))) throw new AppError('CONFLICT', 'No calendar is connected.');
      await syncNow(userId);
      return present(userId, await connectionOf(db, userId));
    },

    events: async (userId: string, from: Date, to: Date): Promise<CalendarEvent[]> => {
      if (!(to.getTime() > from.getTime())) throw new AppError('VALIDATION_FAILED', '`to` must be after `from`.');
      if (to.getTime() - from.getTime() > MAX_EVENTS_WINDOW_DAYS * DAY_MS) {
        throw new AppError('VALIDATION_FAILED', `Ask for at most ${MAX_EVENTS_WINDOW_DAYS} days of events at a time.`);
      }
      return presentEvents(userId, await eventsBetween(db, userId, from.toISOString(), to.toISOString(), MAX_EVENTS_PER_ANSWER));
    },

    event: async (userId: string, id: string): Promise<CalendarEvent> => {
      const event = await eventOf(db, userId, id);
      if (!event) throw notFound('Calendar event');
      const [presented] = await presentEvents(userId, [event]);
      return presented!;
    },

    /**
     * A meeting recorded from an event: remembered with the event and its series, and the event's
     * attendees become the meeting's participants when it has none yet.
     */
    linkMeeting: async (userId: string, eventId: string, meetingId: string): Promise<CalendarEvent> => {
      const event = await eventOf(db, userId, eventId);
      if (!event) throw notFound('Calendar event');
      const meeting = await deps.meetings.get(userId, meetingId);
      if (!meeting) throw notFound('Meeting');
      await saveLink(db, { userId, meetingId, eventId, seriesId: event.seriesId, eventStart: event.start, now: now().toISOString() });
      const names = [...new Set(event.attendees.map((a) => a.name))].slice(0, 50);
      if (meeting.participants.length === 0 && names.length > 0) await deps.meetings.update(userId, meetingId, { participants: names });
      const [presented] = await presentEvents(userId, [event]);
      return presented!;
    },

    /** Delete All Data and Delete Account: the connection, its sealed address or tokens, the events and the links. */
    removeFor: async (userId: string): Promise<void> => {
      await removeAllOf(db, userId);
    },

    /** The worker's refresh: every 15 minutes per calendar, a few at a time. */
    start: () => {
      const tick = () => {
        sweeping ??= bestEffort('calendar-sweep', sweepDue, log).finally(() => {
          sweeping = undefined;
        });
      };
      tick();
      timer = setInterval(tick, SWEEP_INTERVAL_MS);
      timer.unref();
    },
    stop: async () => {
      clearInterval(timer);
      await sweeping;
    },
    /** Refreshes the calendars due now (the worker's tick; tests call it with a moved clock). */
    sweepDue,
  };
}
