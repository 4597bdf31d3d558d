import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Db } from '#server/db/create-db.ts';
import type { EventRecorder } from '#server/events/domain-events.ts';
import { AppError, notFound } from '#server/lib/app-error.ts';
import { bestEffort } from '#server/lib/best-effort.ts';
import type { Clock } from '#server/lib/clock.ts';
import {
  createOAuthClient,
  createReplayGuard,
  openOAuthTokens,
  sealOAuthTokens,
  OAuthError,
  type OAuthClient,
  type OAuthTokens,
} from '#server/lib/oauth/oauth-client.ts';
import { outboundFetch } from '#server/lib/outbound/outbound-fetch.ts';
import type { RateLimiters } from '#server/lib/rate-limit.ts';
import type { SecretBox } from '#server/lib/secret-box.ts';
import {
  MAX_EVENTS_PER_ANSWER,
  MAX_EVENTS_WINDOW_DAYS,
  MAX_EARLIER_MEETINGS,
  type CalendarConnection,
  type CalendarEvent,
  type FollowUp,
  type MeetingCalendar,
} from '#shared/contracts/calendar.ts';
import type { NotesService } from '../notes/notes.service.ts';
import type { MeetingsService } from '../meetings/meetings.service.ts';
import {
  attendeeEmails,
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
  linkOf,
  linkOfMeeting,
  storeSync,
  updateSecret,
  storeSyncError,
  type ConnectionRow,
  type StoredEvent,
} from './calendar.repository.ts';
import { expandIcs, IcsError } from './ics.ts';
import { fetchIcs, icsLabel, normaliseIcsUrl } from './ics-source.ts';
import { createGoogleApi, type GoogleApi } from './google-calendar.ts';
import { followUpIcs } from './follow-up-ics.ts';
import { createCalendarReminders } from './calendar-reminders.ts';

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
  meetings: Pick<MeetingsService, 'get' | 'read' | 'update'>;
  /** The address of a meeting's page (in a follow-up's description). */
  meetingUrl: (meetingId: string) => string;
  /** Open action items of a meeting the person may read (the notes feature's). */
  notes: Pick<NotesService, 'openActionItems'>;
  timeZoneOf: (userId: string) => Promise<string>;
  /** A person's account address: a teammate sees a shared meeting's event only if it invited them. */
  emailOf: (userId: string) => Promise<string | undefined>;
  outbound: { allowPrivateNetworks: boolean };
  /** How long a calendar server (an ICS address, Google) may take. */
  timeoutMs: number;
  /** Connect with Google: the installation's OAuth client and Google's endpoints; undefined when not configured. */
  google: { clientId: string; clientSecret: string; authUrl: string; tokenUrl: string; revokeUrl: string; calendarApiUrl: string } | undefined;
  /** The redirect URI Google sends people back to (shown in Settings to register). */
  googleRedirectUri: string;
  /** Where finished sign-ins are remembered, so a replayed one is refused by every web process. */
  rateLimiters: RateLimiters;
  /** Meeting reminders are raised as `calendar.event_starting` (calendar-reminders.ts). */
  events: EventRecorder;
  clock: Clock;
  log: Logger;
};

const GOOGLE_SCOPE = 'https://www.googleapis.com/auth/calendar.events';

const secretContext = (userId: string) => `calendar_connections.secret:${userId}`;

export function createCalendarService(deps: CalendarDeps) {
  const { db, secrets, log } = deps;
  const now = () => deps.clock.now();
  const guardedFetch = (url: string | URL | Request, init?: RequestInit) =>
    outboundFetch(
      url instanceof Request ? url.url : url,
      { ...(init as object), body: (init?.body ?? null) as string | null },
      {
        allowPrivateNetworks: deps.outbound.allowPrivateNetworks,
        timeoutMs: deps.timeoutMs,
      },
    );
  const google: { oauth: OAuthClient; api: GoogleApi } | undefined = deps.google && {
    oauth: createOAuthClient({
      provider: {
        id: 'google',
        issuer: 'https://accounts.google.com',
        authorizationEndpoint: deps.google.authUrl,
        tokenEndpoint: deps.google.tokenUrl,
        revocationEndpoint: deps.google.revokeUrl,
        clientId: deps.google.clientId,
        clientSecret: deps.google.clientSecret,
        scopes: [GOOGLE_SCOPE],
        redirectUri: deps.googleRedirectUri,
        // A refresh token (offline), asked for again at each connection so a reconnection gets one too.
        authorizationParameters: { access_type: 'offline', prompt: 'consent', include_granted_scopes: 'true' },
      },
      box: secrets,
      replayGuard: createReplayGuard(deps.rateLimiters, 'google'),
      clock: deps.clock,
      fetch: guardedFetch as typeof fetch,
      // Google's endpoints are https; a test's local server is http.
      allowInsecureRequests: deps.google.tokenUrl.startsWith('http:'),
      timeoutMs: deps.timeoutMs,
    }),
    api: createGoogleApi({ baseUrl: deps.google.calendarApiUrl, fetch: guardedFetch }),
  };

  const sealTokens = (userId: string, tokens: OAuthTokens) => sealOAuthTokens(secrets, tokens, secretContext(userId));
  const openTokens = (userId: string, sealed: string): OAuthTokens => openOAuthTokens(secrets, sealed, secretContext(userId));
  const googleUnavailable = () =>
    new AppError('CONFLICT', 'Connect with Google is not set up on this server: connect your calendar by its secret iCal address instead.');
  const oauthProblem = (error: unknown): unknown => {
    if (!(error instanceof OAuthError)) return error;
    if (error.kind === 'refused' && error.providerError === 'invalid_grant') {
      return new AppError('FORBIDDEN', 'Google no longer lets Parley read this calendar (access was removed or expired): connect with Google again.', {
        cause: error,
      });
    }
    if (error.kind === 'invalid_state' || error.kind === 'denied') return new AppError('VALIDATION_FAILED', error.message, { cause: error });
    return new AppError('ENGINE_UNAVAILABLE', `Google could not be reached to sign in: ${error.message}`, { cause: error });
  };
  /** A valid access token for the person's Google connection, refreshed (and stored again) when it is about to expire. */
  const googleAccess = async (userId: string, secret: string): Promise<string> => {
    if (!google) throw googleUnavailable();
    try {
      const { tokens, refreshed } = await google.oauth.fresh(openTokens(userId, secret));
      if (refreshed) await updateSecret(db, userId, sealTokens(userId, tokens));
      return tokens.accessToken;
    } catch (error) {
      throw oauthProblem(error);
    }
  };
  /** Revokes a Google grant at Google (disconnect, account deletion); a failure leaves it to expire and is logged. */
  const revokeGoogle = async (userId: string, row: ConnectionRow | undefined) => {
    if (!google || row?.kind !== 'google') return;
    const tokens = openTokens(userId, row.secret);
    await bestEffort('calendar-revoke', google.oauth.revoke(tokens.refreshToken ?? tokens.accessToken), log, { userId });
  };
  let timer: NodeJS.Timeout | undefined;
  let sweeping: Promise<unknown> | undefined;
  const reminders = createCalendarReminders({ db, events: deps.events, now });

  const present = async (userId: string, row: ConnectionRow | undefined): Promise<CalendarConnection> => ({
    connected: row !== undefined,
    kind: row?.kind ?? null,
    label: row?.label ?? null,
    lastSyncedAt: row?.last_synced_at ?? null,
    lastError: row?.last_error ?? null,
    eventCount: row ? await countEvents(db, userId) : 0,
    google: { available: google !== undefined, redirectUri: deps.googleRedirectUri },
  });

  /** Reads the calendar behind a connection into occurrences; throws an AppError a person can act on. */
  const readOccurrences = async (userId: string, row: Pick<ConnectionRow, 'kind' | 'secret'>): Promise<StoredEvent[]> => {
    const at = now().getTime();
    const window = { from: new Date(at - KEEP_BEFORE_MS), to: new Date(at + KEEP_AFTER_MS), max: MAX_STORED_EVENTS };
    if (row.kind === 'google') {
      if (!google) throw googleUnavailable();
      return await google.api.events(await googleAccess(userId, row.secret), window, await deps.timeZoneOf(userId));
    }
    const url = normaliseIcsUrl(secrets.open(row.secret, secretContext(userId)).plaintext, deps.outbound);
    const text = await fetchIcs(url, { ...deps.outbound, timeoutMs: deps.timeoutMs });
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
      url: o.url,
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
    // First, and whatever the refreshes below take: a reminder is due within minutes.
    await bestEffort('calendar-reminders', reminders.raiseDue, log);
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
      openActionItems: (await deps.notes.openActionItems(meeting)).length,
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
      out.push({
        id: event.id,
        title: event.title,
        start: event.start,
        end: event.end,
        allDay: event.allDay,
        attendees: event.attendees,
        url: event.url,
        meetingId: meetings.get(event.id) ?? null,
        seriesId: event.seriesId,
        lastMeeting,
      });
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
      await revokeGoogle(userId, await removeConnection(db, userId));
      return present(userId, undefined);
    },

    /** Connect with Google, step one: where to send the person's browser. */
    googleStart: (userId: string): { authorizationUrl: string } => {
      if (!google) throw googleUnavailable();
      return { authorizationUrl: google.oauth.start({ userId }).authorizationUrl };
    },

    /** Step two: the browser came back with a code (or an error); the tokens are kept sealed and the calendar read. */
    googleFinish: async (userId: string, callback: { state: string; code?: string | undefined; error?: string | undefined }): Promise<CalendarConnection> => {
      if (!google) throw googleUnavailable();
      const parameters = new URLSearchParams({ state: callback.state });
      if (callback.code) parameters.set('code', callback.code);
      if (callback.error) parameters.set('error', callback.error);
      let tokens: OAuthTokens;
      try {
        tokens = await google.oauth.finish({ userId, callback: parameters });
      } catch (error) {
        throw oauthProblem(error);
      }
      const calendar = await google.api.primary(tokens.accessToken);
      const previous = await connectionOf(db, userId);
      const createdAt = now().toISOString();
      await saveConnection(db, {
        user_id: userId,
        kind: 'google',
        secret: sealTokens(userId, tokens),
        label: calendar.summary === calendar.id ? calendar.id : `${calendar.summary} (${calendar.id})`,
        created_at: createdAt,
      });
      await revokeGoogle(userId, previous);
      await syncNow(userId);
      return present(userId, await connectionOf(db, userId));
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
      await saveLink(db, { userId, meetingId, event, now: now().toISOString() });
      const names = [...new Set(event.attendees.map((a) => a.name))].slice(0, 50);
      if (meeting.participants.length === 0 && names.length > 0) await deps.meetings.update(userId, meetingId, { participants: names });
      const [presented] = await presentEvents(userId, [event]);
      return presented!;
    },

    /**
     * The meeting page's calendar part, for a meeting the caller may read (meetings.read decides; 404
     * otherwise): the event it was recorded from, as the calendar has it now or, once it has left the
     * refreshed window, as it was when linked; and the meetings recorded at earlier occurrences of its
     * series that the caller may read too, newest first, each with its open action items.
     *
     * The event is an entry of its owner's own calendar: a teammate reading the shared meeting sees
     * it (and the series behind it) only if they were invited to it, their account's address among
     * its attendees; otherwise nothing, as for a meeting recorded from no event.
     */
    meetingCalendar: async (callerId: string, meetingId: string): Promise<MeetingCalendar> => {
      const meeting = await deps.meetings.read(callerId, meetingId);
      if (!meeting) throw notFound('Meeting');
      const link = await linkOf(db, meeting.id);
      if (!link) return { event: null, earlier: [] };
      // The event is in the calendar of whoever recorded the meeting from it: the meeting's owner.
      const live = await eventOf(db, link.userId, link.eventId);
      const ownersOwn = meeting.owner?.id === callerId && link.userId === callerId;
      if (!ownersOwn) {
        // Who is invited now while the calendar has the event; once it has left, as the calendar last said.
        const invited = live ? attendeeEmails(live.attendees) : (link.attendeeEmails ?? []);
        const email = (await deps.emailOf(callerId))?.trim().toLowerCase();
        if (!email || !invited.includes(email)) return { event: null, earlier: [] };
      }
      const start = live?.start ?? link.eventStart;
      const event = {
        id: link.eventId,
        title: live?.title ?? link.saved.title ?? meeting.title,
        start,
        end: live?.end ?? link.saved.end ?? start,
        allDay: live?.allDay ?? link.saved.allDay ?? false,
        url: live ? live.url : link.saved.url,
      };
      const earlier: MeetingCalendar['earlier'] = [];
      const links = link.seriesId ? await earlierInSeries(db, link.userId, link.seriesId, link.eventStart, MAX_EARLIER_MEETINGS) : [];
      for (const { meetingId: earlierId } of links) {
        const found = await deps.meetings.read(callerId, earlierId);
        if (!found) continue;
        earlier.push({
          id: found.id,
          title: found.title,
          startedAt: found.startedAt,
          summary: found.summary,
          openActionItems: (await deps.notes.openActionItems(found)).length,
        });
      }
      return { event, earlier };
    },

    /**
     * "Schedule follow-up" on a meeting the caller may read: an event with its open action items in
     * the connected Google Calendar, else an .ics invitation. The attendees of the event it was
     * recorded from are invited.
     */
    followUp: async (userId: string, input: { meetingId: string; start: string; durationMinutes?: number | undefined }): Promise<FollowUp> => {
      const meeting = await deps.meetings.read(userId, input.meetingId);
      if (!meeting) throw notFound('Meeting');
      const start = new Date(input.start);
      const end = new Date(start.getTime() + (input.durationMinutes ?? 30) * 60_000);
      const items = await deps.notes.openActionItems(meeting);
      const url = deps.meetingUrl(meeting.id);
      const description = [
        `Follow-up of “${meeting.title}” (${meeting.startedAt.slice(0, 10)}).`,
        '',
        items.length > 0 ? 'Open action items:' : 'No open action items.',
        ...items.map((item) => `- ${item}`),
        '',
        `Notes and transcript: ${url}`,
      ].join('\n');
      const link = await linkOfMeeting(db, userId, meeting.id);
      const event = link ? await eventOf(db, userId, link.eventId) : undefined;
      const attendees = (event?.attendees ?? []).flatMap((a) => (a.email ? [a.email] : []));
      const summary = `Follow-up: ${meeting.title}`.slice(0, 200);
      const row = await connectionOf(db, userId);
      if (row?.kind === 'google' && google) {
        const inserted = await google.api.insert(await googleAccess(userId, row.secret), { summary, description, start, end, attendees });
        return { kind: 'google', eventUrl: inserted.htmlLink };
      }
      const fileName = `${
        summary
          .replace(/[^\p{L}\p{N} _-]+/gu, '')
          .trim()
          .slice(0, 80) || 'Follow-up'
      }.ics`;
      return { kind: 'ics', fileName, ics: followUpIcs({ summary, description, start, end, url, attendees, now: now() }) };
    },

    /** Delete All Data and Delete Account: the connection, its sealed address or tokens, the events and the links. */
    removeFor: async (userId: string): Promise<void> => {
      const row = await connectionOf(db, userId);
      await removeAllOf(db, userId);
      await reminders.removeFor(userId);
      await revokeGoogle(userId, row);
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
    /** A meeting reminder's event, if still in the calendar and not started (for notifications, before the email goes). */
    upcomingEvent: reminders.upcoming,
  };
}
