import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CalendarConnectionSchema, CalendarEventSchema } from '#shared/contracts/calendar.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { startFakeGoogleCalendar, type FakeGoogleCalendar } from '#tests/support/fake-google-calendar.ts';

/**
 * Connect with Google against a local server speaking Google's OAuth 2.0 endpoints and the Calendar
 * API v3 (calendars.get, events.list with singleEvents and paging, events.insert): real HTTP, real
 * oauth4webapi. The same local Google as the browser test's (tests/support/fake-google-calendar.ts).
 */
const DAY = 86_400_000;

let google: FakeGoogleCalendar;
let t: TestApp;
beforeAll(async () => {
  // Two events a page, so a refresh reads past the first.
  google = await startFakeGoogleCalendar({ clientId: 'parley.apps.googleusercontent.com', clientSecret: 'google-secret', pageSize: 2 });
  const start = new Date(Date.now() + DAY);
  start.setUTCMinutes(0, 0, 0);
  const at = (days: number, minutes = 0) => new Date(start.getTime() + days * DAY + minutes * 60_000).toISOString();
  google.events.push(
    {
      id: 'standup_20261208',
      recurringEventId: 'standup',
      summary: 'Standup',
      start: at(1),
      end: at(1, 15),
      htmlLink: 'https://www.google.com/calendar/event?eid=c3RhbmR1cF8yMDI2MTIwOA',
      organizer: { email: 'ada@example.com', displayName: 'Ada Lovelace' },
      attendees: [
        { email: 'grace@example.com', displayName: 'Grace Hopper' },
        { email: 'room-4@resource.calendar.google.com', displayName: 'Room 4', resource: true },
      ],
    },
    // Cancelled, between the two instances: on the first page, and left out.
    { id: 'gone', status: 'cancelled', summary: 'Cancelled', start: at(1, 60), end: at(1, 90) },
    // An address that is no web page is never passed on as the event's link.
    { id: 'standup_20261209', recurringEventId: 'standup', summary: 'Standup', start: at(2), end: at(2, 15), htmlLink: 'javascript:alert(1)' },
  );
  t = await buildTestApp({
    env: {
      AUTH_AUTOCONFIRM: 'true',
      AUTH_RATE_LIMITS: 'false',
      OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
      // Every request of this app has it: long enough on a machine busy with the whole suite; the timeout case waits it out.
      CALENDAR_TIMEOUT_SECONDS: '5',
      ...google.env,
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
    google.behave('ok');
    google.oauth.behave('ok');
    google.oauth.setExpiresIn(60); // inside the refresh margin: every use refreshes first
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
    const first = google.listed.at(-2)!;
    expect(first.get('singleEvents')).toBe('true');
    expect(first.get('timeMin')).toMatch(/Z$/);
    expect(first.get('timeMax')).toMatch(/Z$/);
    expect(google.listed.at(-1)?.get('pageToken')).toBe('page-2');

    const from = new Date().toISOString();
    const to = new Date(Date.now() + 7 * DAY).toISOString();
    const events = ((await call(token, 'GET', `/api/v1/calendar/events?from=${from}&to=${to}`)).body.events as unknown[]).map((e) =>
      CalendarEventSchema.parse(e),
    );
    expect(events.map((e) => [e.title, e.seriesId, e.url])).toEqual([
      ['Standup', 'standup', 'https://www.google.com/calendar/event?eid=c3RhbmR1cF8yMDI2MTIwOA'],
      ['Standup', 'standup', null],
    ]);
    expect(events[0]?.attendees).toEqual([
      { name: 'Ada Lovelace', email: 'ada@example.com' },
      { name: 'Grace Hopper', email: 'grace@example.com' },
    ]);

    const refreshesBefore = google.oauth.tokenRequests.filter((r) => r.form.grant_type === 'refresh_token').length;
    expect((await call(token, 'POST', '/api/v1/integrations/calendar/sync')).body).toMatchObject({ lastError: null });
    expect(google.oauth.tokenRequests.filter((r) => r.form.grant_type === 'refresh_token').length).toBe(refreshesBefore + 1);

    // Schedule follow-up goes to Google while connected (events.insert), with the open action items.
    const meetings = (await call(token, 'GET', '/api/v1/meetings')).body.items as { id: string; title: string }[];
    const start = new Date(Date.now() + 3 * DAY);
    const followUp = await call(token, 'POST', '/api/v1/calendar/follow-ups', { meetingId: meetings[0]!.id, start: start.toISOString() });
    expect(followUp.body).toEqual({ kind: 'google', eventUrl: 'https://www.google.com/calendar/event?eid=inserted1' });
    expect(google.inserted.at(-1)).toMatchObject({ summary: `Follow-up: ${meetings[0]!.title}`, start: { dateTime: start.toISOString() } });
    expect(google.inserted.at(-1)?.description).toMatch(/action items/);

    const refreshToken = google.oauth.tokenRequests.at(-1)?.form.refresh_token;
    expect(refreshToken).toMatch(/^rt-/);
    expect((await call(token, 'DELETE', '/api/v1/integrations/calendar')).body).toMatchObject({ connected: false });
    expect(google.oauth.revoked).toContain(refreshToken);
    google.oauth.setExpiresIn(3600);
  });

  it('shows a failed refresh in words a person can act on: an error, a malformed answer, a timeout, a revoked grant', async () => {
    google.behave('ok');
    google.oauth.behave('ok');
    const { token } = await signUpUser(t.app, 'google-errors');
    expect((await call(token, 'POST', '/api/v1/integrations/calendar/google/finish', await approve(token))).status).toBe(200);
    const syncError = async () => (await call(token, 'POST', '/api/v1/integrations/calendar/sync')).body.lastError;
    try {
      google.behave('error');
      expect(await syncError()).toBe('Google Calendar answered 500. Try again later.');
      google.behave('malformed');
      expect(await syncError()).toBe('Google Calendar answered with something Parley cannot read. Try again later.');
      google.behave('stall');
      expect(await syncError()).toBe('Google Calendar did not answer in time. Try again later.');
      google.behave('ok');
      expect(await syncError()).toBeNull();
      // The grant revoked at Google: the next refresh of the token is refused.
      google.oauth.setExpiresIn(60);
      expect((await call(token, 'POST', '/api/v1/integrations/calendar/google/finish', await approve(token))).status).toBe(200);
      google.oauth.behave('invalid_grant');
      expect(await syncError()).toMatch(/no longer lets Parley read this calendar .*connect with Google again/);
      // The events of the last good refresh stay.
      expect((await call(token, 'GET', '/api/v1/integrations/calendar')).body.eventCount).toBe(2);
    } finally {
      google.behave('ok');
      google.oauth.behave('ok');
      google.oauth.setExpiresIn(3600);
    }
  });
});
