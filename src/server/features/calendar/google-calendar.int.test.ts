import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CalendarConnectionSchema, CalendarEventSchema } from '#shared/contracts/calendar.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { startFakeOAuthServer, type FakeOAuthServer } from '#tests/support/fake-oauth-server.ts';

/**
 * Connect with Google against a local server speaking Google's OAuth 2.0 endpoints and the Calendar
 * API v3 (calendars.get, events.list with singleEvents and paging): real HTTP, real oauth4webapi.
 */
type ApiBehaviour = 'ok' | 'error' | 'malformed' | 'stall';
let api: ApiBehaviour = 'ok';
const listed: URLSearchParams[] = [];
const inserted: { summary: string; description: string; start: { dateTime: string }; end: { dateTime: string } }[] = [];
const DAY = 86_400_000;

let google: FakeOAuthServer;
let t: TestApp;
beforeAll(async () => {
  google = await startFakeOAuthServer({
    clientId: 'parley.apps.googleusercontent.com',
    clientSecret: 'google-secret',
    extra: async (request, response, url) => {
      if (!url.pathname.startsWith('/calendar/v3/')) return false;
      const token = request.headers.authorization?.replace(/^Bearer /, '') ?? '';
      if (!google.isValidAccessToken(token)) {
        response.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 401, message: 'Invalid Credentials' } }));
        return true;
      }
      if (api === 'stall') return true; // never answers
      if (api === 'error') return Boolean(response.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"code":500}}'));
      if (api === 'malformed') return Boolean(response.writeHead(200, { 'content-type': 'application/json' }).end('{"kind":"calendar#events","items":'));
      if (url.pathname === '/calendar/v3/calendars/primary') {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'ada@example.com', summary: 'Ada Lovelace' }));
        return true;
      }
      if (url.pathname === '/calendar/v3/calendars/primary/events' && request.method === 'POST') {
        const chunks: Buffer[] = [];
        for await (const chunk of request) chunks.push(chunk as Buffer);
        inserted.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as (typeof inserted)[number]);
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ id: 'followup1', status: 'confirmed', htmlLink: 'https://www.google.com/calendar/event?eid=followup1' }));
        return true;
      }
      if (url.pathname === '/calendar/v3/calendars/primary/events' && request.method === 'GET') {
        listed.push(url.searchParams);
        const start = new Date(Date.now() + DAY);
        start.setUTCMinutes(0, 0, 0);
        const at = (days: number, minutes = 0) => new Date(start.getTime() + days * DAY + minutes * 60_000).toISOString();
        const page2 = url.searchParams.get('pageToken') === 'page-2';
        const items = page2
          ? [
              {
                id: 'standup_20261209',
                status: 'confirmed',
                recurringEventId: 'standup',
                summary: 'Standup',
                start: { dateTime: at(2) },
                end: { dateTime: at(2, 15) },
              },
              { id: 'gone', status: 'cancelled' },
            ]
          : [
              {
                id: 'standup_20261208',
                status: 'confirmed',
                recurringEventId: 'standup',
                summary: 'Standup',
                start: { dateTime: at(1) },
                end: { dateTime: at(1, 15) },
                organizer: { email: 'ada@example.com', displayName: 'Ada Lovelace' },
                attendees: [
                  { email: 'grace@example.com', displayName: 'Grace Hopper' },
                  { email: 'room-4@resource.calendar.google.com', displayName: 'Room 4', resource: true },
                ],
              },
            ];
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ kind: 'calendar#events', items, ...(page2 ? {} : { nextPageToken: 'page-2' }) }));
        return true;
      }
      return false;
    },
  });
  t = await buildTestApp({
    env: {
      AUTH_AUTOCONFIRM: 'true',
      AUTH_RATE_LIMITS: 'false',
      OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
      // Every request of this app has it: long enough on a machine busy with the whole suite; the timeout case waits it out.
      CALENDAR_TIMEOUT_SECONDS: '5',
      GOOGLE_CLIENT_ID: 'parley.apps.googleusercontent.com',
      GOOGLE_CLIENT_SECRET: 'google-secret',
      GOOGLE_AUTH_URL: google.authorizationEndpoint,
      GOOGLE_TOKEN_URL: google.tokenEndpoint,
      GOOGLE_REVOKE_URL: google.revocationEndpoint,
      GOOGLE_CALENDAR_API_URL: `${google.url}/calendar/v3`,
    },
  });
});
afterAll(async () => {
  await t.close();
  await google.close();
});

const call = async (token: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) => {
  const response = await t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> };
};

/** The person approves at Google: the browser comes back with the code and state. */
async function approve(token: string): Promise<{ code: string; state: string }> {
  const started = await call(token, 'POST', '/api/v1/integrations/calendar/google/start');
  expect(started.status).toBe(200);
  const authorizationUrl = new URL(started.body.authorizationUrl as string);
  expect(authorizationUrl.searchParams.get('scope')).toBe('https://www.googleapis.com/auth/calendar.events');
  expect(authorizationUrl.searchParams.get('access_type')).toBe('offline');
  expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorizationUrl.searchParams.get('redirect_uri')).toBe(`${t.baseUrl}/settings/connections/google`);
  const back = new URL((await fetch(authorizationUrl, { redirect: 'manual' })).headers.get('location') ?? '');
  return { code: back.searchParams.get('code') ?? '', state: back.searchParams.get('state') ?? '' };
}

describe('Connect with Google', () => {
  it('connects with the code flow, lists the expanded events page by page, refreshes the token, and revokes on disconnect', async () => {
    api = 'ok';
    google.behave('ok');
    google.setExpiresIn(60); // inside the refresh margin: every use refreshes first
    const { token } = await signUpUser(t.app, 'google');
    expect((await call(token, 'GET', '/api/v1/integrations/calendar')).body).toMatchObject({
      connected: false,
      google: { available: true, redirectUri: `${t.baseUrl}/settings/connections/google` },
    });
    const callback = await approve(token);
    const finished = await call(token, 'POST', '/api/v1/integrations/calendar/google/finish', callback);
    expect(finished.status).toBe(200);
    expect(CalendarConnectionSchema.parse(finished.body)).toMatchObject({
      connected: true,
      kind: 'google',
      label: 'Ada Lovelace (ada@example.com)',
      lastError: null,
      eventCount: 2,
    });
    // A state opens once.
    expect((await call(token, 'POST', '/api/v1/integrations/calendar/google/finish', callback)).status).toBe(400);
    // events.list as documented: instances, a bounded window, every page.
    const first = listed.at(-2)!;
    expect(first.get('singleEvents')).toBe('true');
    expect(first.get('timeMin')).toMatch(/Z$/);
    expect(first.get('timeMax')).toMatch(/Z$/);
    expect(listed.at(-1)?.get('pageToken')).toBe('page-2');

    const from = new Date().toISOString();
    const to = new Date(Date.now() + 7 * DAY).toISOString();
    const events = ((await call(token, 'GET', `/api/v1/calendar/events?from=${from}&to=${to}`)).body.events as unknown[]).map((e) =>
      CalendarEventSchema.parse(e),
    );
    expect(events.map((e) => [e.title, e.seriesId])).toEqual([
      ['Standup', 'standup'],
      ['Standup', 'standup'],
    ]);
    expect(events[0]?.attendees).toEqual([
      { name: 'Ada Lovelace', email: 'ada@example.com' },
      { name: 'Grace Hopper', email: 'grace@example.com' },
    ]);

    const refreshesBefore = google.tokenRequests.filter((r) => r.form.grant_type === 'refresh_token').length;
    expect((await call(token, 'POST', '/api/v1/integrations/calendar/sync')).body).toMatchObject({ lastError: null });
    expect(google.tokenRequests.filter((r) => r.form.grant_type === 'refresh_token').length).toBe(refreshesBefore + 1);

    // Schedule follow-up goes to Google while connected (events.insert), with the open action items.
    const meetings = (await call(token, 'GET', '/api/v1/meetings')).body.items as { id: string; title: string }[];
    const start = new Date(Date.now() + 3 * DAY);
    const followUp = await call(token, 'POST', '/api/v1/calendar/follow-ups', { meetingId: meetings[0]!.id, start: start.toISOString() });
    expect(followUp.body).toEqual({ kind: 'google', eventUrl: 'https://www.google.com/calendar/event?eid=followup1' });
    expect(inserted.at(-1)).toMatchObject({ summary: `Follow-up: ${meetings[0]!.title}`, start: { dateTime: start.toISOString() } });
    expect(inserted.at(-1)?.description).toMatch(/action items/);

    const refreshToken = google.tokenRequests.at(-1)?.form.refresh_token;
    expect(refreshToken).toMatch(/^rt-/);
    expect((await call(token, 'DELETE', '/api/v1/integrations/calendar')).body).toMatchObject({ connected: false });
    expect(google.revoked).toContain(refreshToken);
    google.setExpiresIn(3600);
  });

  it('shows a failed refresh in words a person can act on: an error, a malformed answer, a timeout, a revoked grant', async () => {
    api = 'ok';
    google.behave('ok');
    const { token } = await signUpUser(t.app, 'google-errors');
    expect((await call(token, 'POST', '/api/v1/integrations/calendar/google/finish', await approve(token))).status).toBe(200);
    const syncError = async () => (await call(token, 'POST', '/api/v1/integrations/calendar/sync')).body.lastError;
    try {
      api = 'error';
      expect(await syncError()).toBe('Google Calendar answered 500. Try again later.');
      api = 'malformed';
      expect(await syncError()).toBe('Google Calendar answered with something Parley cannot read. Try again later.');
      api = 'stall';
      expect(await syncError()).toBe('Google Calendar did not answer in time. Try again later.');
      api = 'ok';
      expect(await syncError()).toBeNull();
      // The grant revoked at Google: the next refresh of the token is refused.
      google.setExpiresIn(60);
      expect((await call(token, 'POST', '/api/v1/integrations/calendar/google/finish', await approve(token))).status).toBe(200);
      google.behave('invalid_grant');
      expect(await syncError()).toMatch(/no longer lets Parley read this calendar .*connect with Google again/);
      // The events of the last good refresh stay.
      expect((await call(token, 'GET', '/api/v1/integrations/calendar')).body.eventCount).toBe(2);
    } finally {
      api = 'ok';
      google.behave('ok');
      google.setExpiresIn(3600);
    }
  });
});
