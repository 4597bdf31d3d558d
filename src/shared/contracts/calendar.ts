import { z } from 'zod/mini';
import { defineEndpoint } from './endpoint.ts';

/**
 * Google Calendar, or any calendar by its secret iCal (ICS) address (Settings › Connected Accounts):
 * the person's upcoming events on the dashboard with Record on each, a recording linked back to its
 * event, and "Schedule follow-up" from a meeting.
 */

/** The widest window GET /api/v1/calendar/events answers, and the most events in one answer. */
export const MAX_EVENTS_WINDOW_DAYS = 62;
export const MAX_EVENTS_PER_ANSWER = 500;
export const MAX_ICS_URL_LENGTH = 2_048;
/** Settings › Notifications › Meeting Reminders: how long before an event starts its reminder email goes. */
export const REMINDER_LEAD_MINUTES = 10;

export const CalendarKindSchema = z.enum(['ics', 'google']);
export type CalendarKind = z.infer<typeof CalendarKindSchema>;

export const CalendarConnectionSchema = z.object({
  connected: z.boolean(),
  kind: z.nullable(CalendarKindSchema),
  /** Which calendar: an ICS address as its host and "…" (the rest is secret), or the Google account. */
  label: z.nullable(z.string()),
  lastSyncedAt: z.nullable(z.string()),
  /** Why the last refresh failed, with what to do; null after a good one. */
  lastError: z.nullable(z.string()),
  /** Events kept from the last refresh (the past month and the next three). */
  eventCount: z.number().check(z.int(), z.nonnegative()),
  /** Connect with Google: offered when the server has GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET; the redirect URI to register. */
  google: z.object({ available: z.boolean(), redirectUri: z.string() }),
});
export type CalendarConnection = z.infer<typeof CalendarConnectionSchema>;

export const ConnectIcsBodySchema = z.object({
  icsUrl: z.string().check(z.trim(), z.minLength(1), z.maxLength(MAX_ICS_URL_LENGTH)),
});

export const GoogleStartSchema = z.object({ authorizationUrl: z.string() });
/** What Google sent the browser back with (the redirect URI's query). */
export const GoogleFinishBodySchema = z.object({
  state: z.string().check(z.maxLength(4_096)),
  code: z.optional(z.string().check(z.maxLength(4_096))),
  error: z.optional(z.string().check(z.maxLength(200))),
});

export const AttendeeSchema = z.object({ name: z.string(), email: z.nullable(z.string()) });
export type CalendarAttendee = z.infer<typeof AttendeeSchema>;

/** The meeting recorded at an earlier occurrence of the same series. */
export const EarlierMeetingSchema = z.object({
  id: z.uuid(),
  title: z.string(),
  startedAt: z.string(),
  summary: z.nullable(z.string()),
  openActionItems: z.number().check(z.int(), z.nonnegative()),
});

export const CalendarEventSchema = z.object({
  id: z.string(),
  title: z.string(),
  start: z.string(),
  end: z.string(),
  allDay: z.boolean(),
  attendees: z.array(AttendeeSchema),
  /** The event in its calendar (Google's htmlLink, an ICS event's URL), http(s) only; null where the calendar gives none. */
  url: z.nullable(z.string()),
  /** The meeting recorded from this event; null when none. */
  meetingId: z.nullable(z.uuid()),
  /** Recurring events: the series all occurrences share; null for a one-off. */
  seriesId: z.nullable(z.string()),
  /** "Last time": the latest meeting recorded at an earlier occurrence of the series. */
  lastMeeting: z.nullable(EarlierMeetingSchema),
});
export type CalendarEvent = z.infer<typeof CalendarEventSchema>;

/** The most earlier meetings of a series the meeting page lists. */
export const MAX_EARLIER_MEETINGS = 10;

/** The event a meeting was recorded from. */
export const RecordedFromEventSchema = z.object({
  id: z.string(),
  title: z.string(),
  start: z.string(),
  end: z.string(),
  allDay: z.boolean(),
  /** The event in its calendar (Google's event page, an ICS event's URL); null when the provider gives none. */
  url: z.nullable(z.string()),
});

/** The meeting page's calendar part: its event (null when it was not recorded from one) and the series' earlier meetings. */
export const MeetingCalendarSchema = z.object({
  event: z.nullable(RecordedFromEventSchema),
  /** Meetings recorded at earlier occurrences of the same series that the caller may read, newest first. */
  earlier: z.array(EarlierMeetingSchema).check(z.maxLength(MAX_EARLIER_MEETINGS)),
});
export type MeetingCalendar = z.infer<typeof MeetingCalendarSchema>;

const isoDateTime = z.iso.datetime({ offset: true });
export const EventsQuerySchema = z.object({ from: isoDateTime, to: isoDateTime });
export const EventParamsSchema = z.object({ id: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'is not an event id')) });
export const LinkMeetingBodySchema = z.object({ meetingId: z.uuid() });

export const FollowUpBodySchema = z.object({
  meetingId: z.uuid(),
  start: isoDateTime,
  durationMinutes: z._default(z.number().check(z.int(), z.gte(5), z.lte(480)), 30),
});
/** The follow-up as made: an event in the connected Google Calendar, or an .ics invitation to open in any calendar. */
export const FollowUpSchema = z.union([
  z.object({ kind: z.literal('google'), eventUrl: z.nullable(z.string()) }),
  z.object({ kind: z.literal('ics'), fileName: z.string(), ics: z.string() }),
]);
export type FollowUp = z.infer<typeof FollowUpSchema>;

export const calendarEndpoints = {
  connection: defineEndpoint({ method: 'GET', path: '/api/v1/integrations/calendar', response: CalendarConnectionSchema, tag: 'calendar' }),
  connectIcs: defineEndpoint({
    method: 'PUT',
    path: '/api/v1/integrations/calendar',
    body: ConnectIcsBodySchema,
    response: CalendarConnectionSchema,
    tag: 'calendar',
    summary: 'Connects a calendar by its secret iCal (ICS) address and reads it at once',
  }),
  disconnect: defineEndpoint({ method: 'DELETE', path: '/api/v1/integrations/calendar', response: CalendarConnectionSchema, tag: 'calendar' }),
  sync: defineEndpoint({
    method: 'POST',
    path: '/api/v1/integrations/calendar/sync',
    response: CalendarConnectionSchema,
    tag: 'calendar',
    summary: 'Refreshes the calendar now',
  }),
  googleStart: defineEndpoint({
    method: 'POST',
    path: '/api/v1/integrations/calendar/google/start',
    response: GoogleStartSchema,
    tag: 'calendar',
    summary: 'Connect with Google, step one: the authorization URL to open (OAuth 2.0 with PKCE)',
  }),
  googleFinish: defineEndpoint({
    method: 'POST',
    path: '/api/v1/integrations/calendar/google/finish',
    body: GoogleFinishBodySchema,
    response: CalendarConnectionSchema,
    tag: 'calendar',
    summary: 'Connect with Google, step two: the code and state Google sent back',
  }),
  events: defineEndpoint({
    method: 'GET',
    path: '/api/v1/calendar/events',
    query: EventsQuerySchema,
    response: z.object({ events: z.array(CalendarEventSchema) }),
    tag: 'calendar',
    summary: `Events overlapping [from, to) (at most ${MAX_EVENTS_WINDOW_DAYS} days), recurring events expanded`,
  }),
  event: defineEndpoint({ method: 'GET', path: '/api/v1/calendar/events/:id', params: EventParamsSchema, response: CalendarEventSchema, tag: 'calendar' }),
  meetingCalendar: defineEndpoint({
    method: 'GET',
    path: '/api/v1/meetings/:id/calendar-event',
    params: z.object({ id: z.uuid() }),
    response: MeetingCalendarSchema,
    tag: 'calendar',
    summary: 'The calendar event a meeting was recorded from, and the meetings of earlier occurrences of its series',
  }),
  linkMeeting: defineEndpoint({
    method: 'POST',
    path: '/api/v1/calendar/events/:id/meeting',
    params: EventParamsSchema,
    body: LinkMeetingBodySchema,
    response: CalendarEventSchema,
    tag: 'calendar',
    summary: 'Links a meeting recorded from this event (its attendees become the participants)',
  }),
  followUp: defineEndpoint({
    method: 'POST',
    path: '/api/v1/calendar/follow-ups',
    body: FollowUpBodySchema,
    response: FollowUpSchema,
    tag: 'calendar',
    summary: 'Schedules a follow-up of a meeting with its open action items: an event in the connected Google Calendar, else an .ics invitation',
  }),
};
