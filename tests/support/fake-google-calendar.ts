import type http from 'node:http';
import { startFakeOAuthServer, type FakeOAuthServer } from './fake-oauth-server.ts';

/**
 * A local Google for Connect with Google: its OAuth 2.0 endpoints (fake-oauth-server.ts: the sign-in
 * approves at once, PKCE checked, revocation) and the Calendar API v3 calls Parley makes, with Google's
 * documented JSON: calendars.get of `primary`, events.list (singleEvents instances within
 * timeMin/timeMax, `pageSize` to a page with nextPageToken/pageToken, cancelled instances as Google
 * sends them: id and status only) and events.insert. `env` is what the server under test is given.
 */
export type FakeGoogleEvent = {
  id: string;
  /** A cancelled instance is sent as its id and status only, as Google does in a list. */
  status?: 'confirmed' | 'cancelled';
  summary: string;
  start: string;
  end: string;
  /** An instance of a recurring event names its series. */
  recurringEventId?: string;
  htmlLink?: string;
  organizer?: { email: string; displayName?: string };
  attendees?: { email: string; displayName?: string; resource?: boolean }[];
};

/** The body events.insert was sent (what Parley's follow-up asks Google to create). */
export type InsertedGoogleEvent = { summary: string; description: string; start: { dateTime: string }; end: { dateTime: string } };

/**
 * How the Calendar API answers a token it accepts: as documented (`ok`), a server error (`error`:
 * 500 in Google's error shape), JSON cut short (`malformed`), or never (`stall`, for timeouts).
 */
export type GoogleApiBehaviour = 'ok' | 'error' | 'malformed' | 'stall';

export type FakeGoogleCalendar = {
  oauth: FakeOAuthServer;
  /** The primary calendar's owner (calendars.get answers their address as its id and their name as its summary). */
  owner: { email: string; name: string };
  /** The primary calendar's events (tests add and change them). */
  events: FakeGoogleEvent[];
  /** The query of each events.list request, in order. */
  listed: URLSearchParams[];
  /** The events.insert requests' bodies, in order. */
  inserted: InsertedGoogleEvent[];
  behave: (behaviour: GoogleApiBehaviour) => void;
  env: Record<string, string>;
  close: () => Promise<void>;
};

export async function startFakeGoogleCalendar(options: {
  clientId: string;
  clientSecret: string;
  /** The most events one events.list page holds (Google's maxResults default is 250). */
  pageSize?: number;
}): Promise<FakeGoogleCalendar> {
  const owner = { email: 'ada@example.com', name: 'Ada Lovelace' };
  const events: FakeGoogleEvent[] = [];
  const listed: URLSearchParams[] = [];
  const inserted: InsertedGoogleEvent[] = [];
  const pageSize = options.pageSize ?? 250;
  let behaviour: GoogleApiBehaviour = 'ok';
  const stalled = new Set<http.ServerResponse>();
  const json = (response: http.ServerResponse, status: number, body: unknown) =>
    response.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify(body));
  const oauth: FakeOAuthServer = await startFakeOAuthServer({
    ...options,
    extra: async (request, response, url) => {
      if (!url.pathname.startsWith('/calendar/v3/')) return false;
      const token = request.headers.authorization?.replace(/^Bearer /, '') ?? '';
      if (!oauth.isValidAccessToken(token)) {
        json(response, 401, { error: { code: 401, message: 'Invalid Credentials', status: 'UNAUTHENTICATED' } });
        return true;
      }
      if (behaviour === 'stall') {
        stalled.add(response);
        return true;
      }
      if (behaviour === 'error') {
        json(response, 500, {
          error: { code: 500, message: 'Backend Error', errors: [{ domain: 'global', reason: 'backendError', message: 'Backend Error' }] },
        });
        return true;
      }
      if (behaviour === 'malformed') {
        response.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' }).end('{"kind":"calendar#events","items":');
        return true;
      }
      if (url.pathname === '/calendar/v3/calendars/primary' && request.method === 'GET') {
        json(response, 200, { kind: 'calendar#calendar', id: owner.email, summary: owner.name, timeZone: 'UTC' });
        return true;
      }
      if (url.pathname === '/calendar/v3/calendars/primary/events' && request.method === 'POST') {
        const chunks: Buffer[] = [];
        for await (const chunk of request) chunks.push(chunk as Buffer);
        inserted.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as InsertedGoogleEvent);
        const id = `inserted${inserted.length}`;
        json(response, 200, { kind: 'calendar#event', id, status: 'confirmed', htmlLink: `https://www.google.com/calendar/event?eid=${id}` });
        return true;
      }
      if (url.pathname === '/calendar/v3/calendars/primary/events' && request.method === 'GET') {
        listed.push(url.searchParams);
        const min = url.searchParams.get('timeMin') ?? '';
        const max = url.searchParams.get('timeMax') ?? '\uffff';
        const all = events
          .filter((e) => e.end > min && e.start < max)
          .sort((a, b) => a.start.localeCompare(b.start))
          .map(({ start, end, status = 'confirmed', ...event }) =>
            status === 'cancelled'
              ? { kind: 'calendar#event', id: event.id, status }
              : { kind: 'calendar#event', status, ...event, start: { dateTime: start }, end: { dateTime: end } },
          );
        const page = Number(/^page-(\d+)$/.exec(url.searchParams.get('pageToken') ?? '')?.[1] ?? 1);
        const items = all.slice((page - 1) * pageSize, page * pageSize);
        const more = all.length > page * pageSize;
        json(response, 200, { kind: 'calendar#events', summary: owner.email, items, ...(more ? { nextPageToken: `page-${page + 1}` } : {}) });
        return true;
      }
      return false;
    },
  });
  return {
    oauth,
    owner,
    events,
    listed,
    inserted,
    behave: (next) => {
      behaviour = next;
    },
    env: {
      GOOGLE_CLIENT_ID: options.clientId,
      GOOGLE_CLIENT_SECRET: options.clientSecret,
      GOOGLE_AUTH_URL: oauth.authorizationEndpoint,
      GOOGLE_TOKEN_URL: oauth.tokenEndpoint,
      GOOGLE_REVOKE_URL: oauth.revocationEndpoint,
      GOOGLE_CALENDAR_API_URL: `${oauth.url}/calendar/v3`,
    },
    close: async () => {
      for (const response of stalled) response.destroy();
      await oauth.close();
    },
  };
}
