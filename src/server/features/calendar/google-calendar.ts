import { AppError } from '#server/lib/app-error.ts';
import { OutboundError } from '#server/lib/outbound/outbound-fetch.ts';
import type { CalendarAttendee } from '#shared/contracts/calendar.ts';
import { eventLink, occurrenceId, wallClockToUtc } from './ics.ts';
import type { StoredEvent } from './calendar.repository.ts';

/**
 * Google Calendar API v3 for the connected person's primary calendar: events.list with
 * singleEvents=true (Google expands recurring events; each instance carries recurringEventId) over
 * a window, page by page, and events.insert for a follow-up.
 */

const MAX_PAGES = 8;
const PAGE_SIZE = 250;

type GoogleTime = { dateTime?: string; date?: string; timeZone?: string };
type GoogleEvent = {
  id?: string;
  status?: string;
  summary?: string;
  recurringEventId?: string;
  htmlLink?: string;
  start?: GoogleTime;
  end?: GoogleTime;
  organizer?: { email?: string; displayName?: string };
  attendees?: { email?: string; displayName?: string; resource?: boolean }[];
};

export type GoogleApi = {
  /** The primary calendar's id (the account's address) and name. */
  primary: (accessToken: string) => Promise<{ id: string; summary: string }>;
  events: (accessToken: string, window: { from: Date; to: Date; max: number }, floatingZone: string) => Promise<StoredEvent[]>;
  insert: (
    accessToken: string,
    event: { summary: string; description: string; start: Date; end: Date; attendees: string[] },
  ) => Promise<{ htmlLink: string | null }>;
};

const malformed = () => new AppError('ENGINE_UNAVAILABLE', 'Google Calendar answered with something Parley cannot read. Try again later.');

export function createGoogleApi(options: { baseUrl: string; fetch: (url: string, init: RequestInit) => Promise<Response> }): GoogleApi {
  const call = async (accessToken: string, path: string, init: RequestInit = {}): Promise<unknown> => {
    let response: Response;
    try {
      response = await options.fetch(`${options.baseUrl}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json', ...(init.body ? { 'content-type': 'application/json' } : {}) },
      });
    } catch (error) {
      if (error instanceof OutboundError) {
        if (error.reason === 'timeout') throw new AppError('ENGINE_UNAVAILABLE', 'Google Calendar did not answer in time. Try again later.', { cause: error });
        if (error.reason !== 'refused') throw new AppError('ENGINE_UNAVAILABLE', 'Google Calendar could not be reached. Try again later.', { cause: error });
      }
      throw error;
    }
    if (response.status === 401 || response.status === 403) {
      throw new AppError('FORBIDDEN', 'Google refused access to the calendar: disconnect and connect with Google again.');
    }
    if (!response.ok) throw new AppError('ENGINE_UNAVAILABLE', `Google Calendar answered ${response.status}. Try again later.`);
    try {
      return await response.json();
    } catch {
      throw malformed();
    }
  };

  const toDate = (time: GoogleTime | undefined, floatingZone: string): { at: Date; allDay: boolean } | undefined => {
    if (time?.dateTime) {
      const at = new Date(time.dateTime);
      return Number.isNaN(at.getTime()) ? undefined : { at, allDay: false };
    }
    const match = time?.date?.match(/^(\d{4})-(\d{2})-(\d{2})$/);
    if (!match) return undefined;
    const fields = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]), hour: 0, minute: 0, second: 0 };
    return { at: wallClockToUtc(fields, time?.timeZone ?? floatingZone), allDay: true };
  };

  const attendeesOf = (event: GoogleEvent): CalendarAttendee[] => {
    const out: CalendarAttendee[] = [];
    const seen = new Set<string>();
    const add = (person: { email?: string; displayName?: string; resource?: boolean } | undefined) => {
      if (!person || person.resource) return;
      const email = person.email?.trim().toLowerCase() || null;
      const name = (person.displayName?.trim() || email || '').slice(0, 100);
      if (!name || seen.has(email ?? name) || out.length >= 50) return;
      seen.add(email ?? name);
      out.push({ name, email: email && email.length <= 254 ? email : null });
    };
    add(event.organizer);
    for (const attendee of event.attendees ?? []) add(attendee);
    return out;
  };

  return {
    primary: async (accessToken) => {
      const body = (await call(accessToken, '/calendars/primary')) as { id?: unknown; summary?: unknown };
      if (typeof body.id !== 'string') throw malformed();
      return { id: body.id, summary: typeof body.summary === 'string' ? body.summary : body.id };
    },

    events: async (accessToken, window, floatingZone) => {
      const out: StoredEvent[] = [];
      let pageToken: string | undefined;
      for (let page = 0; page < MAX_PAGES && out.length < window.max; page++) {
        const query = new URLSearchParams({
          singleEvents: 'true',
          orderBy: 'startTime',
          timeMin: window.from.toISOString(),
          timeMax: window.to.toISOString(),
          maxResults: String(PAGE_SIZE),
          ...(pageToken ? { pageToken } : {}),
        });
        const body = (await call(accessToken, `/calendars/primary/events?${query}`)) as { items?: unknown; nextPageToken?: unknown };
        if (!Array.isArray(body.items)) throw malformed();
        for (const item of body.items as GoogleEvent[]) {
          if (typeof item !== 'object' || item === null || typeof item.id !== 'string' || item.status === 'cancelled') continue;
          const start = toDate(item.start, floatingZone);
          const end = toDate(item.end, floatingZone) ?? start;
          if (!start || !end) continue;
          out.push({
            id: occurrenceId(`google:${item.id}`, null),
            seriesId: item.recurringEventId ?? null,
            title: (item.summary ?? '').trim().slice(0, 200) || 'Untitled event',
            start: start.at.toISOString(),
            end: (end.at < start.at ? start.at : end.at).toISOString(),
            allDay: start.allDay,
            attendees: attendeesOf(item),
            url: eventLink(item.htmlLink),
          });
        }
        pageToken = typeof body.nextPageToken === 'string' ? body.nextPageToken : undefined;
        if (!pageToken) break;
      }
      return out.slice(0, window.max);
    },

    insert: async (accessToken, event) => {
      const body = (await call(accessToken, '/calendars/primary/events?sendUpdates=none', {
        method: 'POST',
        body: JSON.stringify({
          summary: event.summary,
          description: event.description,
          start: { dateTime: event.start.toISOString() },
          end: { dateTime: event.end.toISOString() },
          attendees: event.attendees.map((email) => ({ email })),
        }),
      })) as { htmlLink?: unknown };
      return { htmlLink: typeof body.htmlLink === 'string' ? body.htmlLink : null };
    },
  };
}
