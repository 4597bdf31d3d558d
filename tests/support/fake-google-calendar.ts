import type http from 'node:http';
import { startFakeOAuthServer, type FakeOAuthServer } from './fake-oauth-server.ts';

/**
 * A local Google for Connect with Google: its OAuth 2.0 endpoints (fake-oauth-server.ts: the sign-in
 * approves at once, PKCE checked, revocation) and the Calendar API v3 calls Parley makes, with Google's
 * documented JSON: calendars.get of `primary` and events.list (singleEvents instances within
 * timeMin/timeMax). `env` is what the server under test is given.
 */
export type FakeGoogleEvent = {
  id: string;
  summary: string;
  start: string;
  end: string;
  /** An instance of a recurring event names its series. */
  recurringEventId?: string;
  htmlLink?: string;
  organizer?: { email: string; displayName?: string };
  attendees?: { email: string; displayName?: string }[];
};

export type FakeGoogleCalendar = {
  oauth: FakeOAuthServer;
  /** The primary calendar's owner (calendars.get answers their address as its id and their name as its summary). */
  owner: { email: string; name: string };
  /** The primary calendar's events (tests add and change them). */
  events: FakeGoogleEvent[];
  env: Record<string, string>;
  close: () => Promise<void>;
};

export async function startFakeGoogleCalendar(options: { clientId: string; clientSecret: string }): Promise<FakeGoogleCalendar> {
  const owner = { email: 'ada@example.com', name: 'Ada Lovelace' };
  const events: FakeGoogleEvent[] = [];
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
      if (url.pathname === '/calendar/v3/calendars/primary' && request.method === 'GET') {
        json(response, 200, { kind: 'calendar#calendar', id: owner.email, summary: owner.name, timeZone: 'UTC' });
        return true;
      }
      if (url.pathname === '/calendar/v3/calendars/primary/events' && request.method === 'GET') {
        const min = url.searchParams.get('timeMin') ?? '';
        const max = url.searchParams.get('timeMax') ?? '\uffff';
        const items = events
          .filter((e) => e.end > min && e.start < max)
          .sort((a, b) => a.start.localeCompare(b.start))
          .map(({ start, end, ...event }) => ({ kind: 'calendar#event', status: 'confirmed', ...event, start: { dateTime: start }, end: { dateTime: end } }));
        json(response, 200, { kind: 'calendar#events', summary: owner.email, items });
        return true;
      }
      return false;
    },
  });
  return {
    oauth,
    owner,
    events,
    env: {
      GOOGLE_CLIENT_ID: options.clientId,
      GOOGLE_CLIENT_SECRET: options.clientSecret,
      GOOGLE_AUTH_URL: oauth.authorizationEndpoint,
      GOOGLE_TOKEN_URL: oauth.tokenEndpoint,
      GOOGLE_REVOKE_URL: oauth.revocationEndpoint,
      GOOGLE_CALENDAR_API_URL: `${oauth.url}/calendar/v3`,
    },
    close: () => oauth.close(),
  };
}
