import http from 'node:http';
import type { AddressInfo } from 'node:net';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CalendarConnectionSchema, CalendarEventSchema, FollowUpSchema, MeetingCalendarSchema, type CalendarEvent } from '#shared/contracts/calendar.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';

/** A calendar publisher: serves the secret address's .ics (changed by the test), and the ways it goes wrong. */
let published = '';
let status = 200;
const requests: string[] = [];
const server = http.createServer((request, response) => {
  requests.push(request.url ?? '');
  if (request.url?.startsWith('/html')) return void response.writeHead(200, { 'content-type': 'text/html' }).end('<html>Sign in</html>');
  if (request.url?.startsWith('/huge')) {
    response.writeHead(200, { 'content-type': 'text/calendar' });
    return void response.end(`BEGIN:VCALENDAR\r\n${'X-FILLER:'.padEnd(1000, 'x')}\r\n`.repeat(6_000));
  }
  response.writeHead(status, { 'content-type': 'text/calendar; charset=utf-8' }).end(status === 200 ? published : 'gone');
});

let t: TestApp;
let base = '';
let offsetMs = 0;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await buildTestApp({
    env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false', OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' },
    deps: { clock: { now: () => new Date(Date.now() + offsetMs) } },
  });
});
afterAll(async () => {
  await t.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const ymd = (date: Date) => date.toISOString().slice(0, 10).replace(/-/g, '');
const utc = (date: Date) => `${date.toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;
const DAY = 86_400_000;

/** A weekly 1:1 that began two weeks ago (one week skipped), and a one-off review in three days. */
function calendar(extra: string[] = []): string {
  const today = new Date();
  today.setUTCHours(9, 0, 0, 0);
  const first = new Date(today.getTime() - 14 * DAY);
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Parley tests//EN',
    'BEGIN:VEVENT',
    'UID:one-on-one@example.com',
    `DTSTART:${utc(first)}`,
    `DTEND:${utc(new Date(first.getTime() + 30 * 60_000))}`,
    'RRULE:FREQ=WEEKLY;COUNT=6',
    `EXDATE:${utc(new Date(first.getTime() + 7 * DAY))}`,
    'SUMMARY:Ada / Grace 1:1',
    'ORGANIZER;CN=Ada Lovelace:mailto:ada@example.com',
    'ATTENDEE;CN=Grace Hopper:mailto:grace@example.com',
    'END:VEVENT',
    'BEGIN:VEVENT',
    'UID:review@example.com',
    `DTSTART;VALUE=DATE:${ymd(new Date(today.getTime() + 3 * DAY))}`,
    'SUMMARY:Design review day',
    'END:VEVENT',
    ...extra,
    'END:VCALENDAR',
  ].join('\r\n');
}

const call = async (token: string, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) => {
  const response = await t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> };
};
const eventsOf = async (token: string, from: Date, to: Date): Promise<CalendarEvent[]> => {
  const { status: code, body } = await call(token, 'GET', `/api/v1/calendar/events?from=${from.toISOString()}&to=${to.toISOString()}`);
  expect(code).toBe(200);
  return (body.events as unknown[]).map((e) => CalendarEventSchema.parse(e));
};

describe('a calendar by its secret ICS address', () => {
  it('connects, expands the series, hides the address, links a recording and shows it next time', async () => {
    published = calendar();
    const { token, userId } = await signUpUser(t.app, 'calendar', { fullName: 'Ada Lovelace' });
    const secretUrl = `${base}/private-8f2a61c4d9/basic.ics`;
    const connected = await call(token, 'PUT', '/api/v1/integrations/calendar', { icsUrl: secretUrl });
    expect(connected.status).toBe(200);
    expect(CalendarConnectionSchema.parse(connected.body)).toMatchObject({
      connected: true,
      kind: 'ics',
      label: `127.0.0.1:${new URL(base).port}/…`,
      lastError: null,
    });
    // The address is a secret: not in any answer, sealed in the database.
    expect(JSON.stringify((await call(token, 'GET', '/api/v1/integrations/calendar')).body)).not.toContain('private-8f2a61c4d9');
    const row = await t.deps.database.db.selectFrom('calendar_connections').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow();
    expect(row.secret).toMatch(/^enc:v1:/);

    const now = Date.now();
    const events = await eventsOf(token, new Date(now - 20 * DAY), new Date(now + 30 * DAY));
    const series = events.filter((e) => e.seriesId === 'one-on-one@example.com');
    // Six weeks from two weeks ago, less the skipped second week.
    expect(series).toHaveLength(5);
    expect(new Set(series.map((e) => e.id)).size).toBe(5);
    expect(series[0]).toMatchObject({
      title: 'Ada / Grace 1:1',
      allDay: false,
      meetingId: null,
      attendees: [
        { name: 'Ada Lovelace', email: 'ada@example.com' },
        { name: 'Grace Hopper', email: 'grace@example.com' },
      ],
    });
    expect(new Date(series[1]!.start).getTime() - new Date(series[0]!.start).getTime()).toBe(14 * DAY);
    expect(events.find((e) => e.title === 'Design review day')).toMatchObject({ allDay: true, seriesId: null });

    // Recorded from the first occurrence: the attendees become the participants, the event links back.
    const created = await call(token, 'POST', '/api/v1/meetings', { title: series[0]!.title, source: 'mic' });
    expect(created.status).toBe(201);
    const meetingId = created.body.id as string;
    const linked = await call(token, 'POST', `/api/v1/calendar/events/${series[0]!.id}/meeting`, { meetingId });
    expect(linked.status).toBe(200);
    expect(linked.body.meetingId).toBe(meetingId);
    const meeting = await call(token, 'GET', `/api/v1/meetings/${meetingId}`);
    expect(meeting.body.participants).toEqual(['Ada Lovelace', 'Grace Hopper']);

    const after = await eventsOf(token, new Date(now - 20 * DAY), new Date(now + 30 * DAY));
    const [recorded, next] = after.filter((e) => e.seriesId === 'one-on-one@example.com');
    expect(recorded).toMatchObject({ meetingId, lastMeeting: null });
    expect(next?.meetingId).toBeNull();
    expect(next?.lastMeeting).toMatchObject({ id: meetingId, title: 'Ada / Grace 1:1', openActionItems: 0 });

    // Nobody else sees the events or links a meeting to them.
    const other = await signUpUser(t.app, 'calendar-other');
    expect(await eventsOf(other.token, new Date(now - 20 * DAY), new Date(now + 30 * DAY))).toEqual([]);
    expect((await call(other.token, 'POST', `/api/v1/calendar/events/${series[1]!.id}/meeting`, { meetingId })).status).toBe(404);
    const othersMeeting = await call(other.token, 'POST', '/api/v1/meetings', { title: 'Mine', source: 'mic' });
    expect((await call(token, 'POST', `/api/v1/calendar/events/${series[1]!.id}/meeting`, { meetingId: othersMeeting.body.id as string })).status).toBe(404);

    // Delete All Data takes the connection, its sealed address, the events and the links.
    const email = (await t.app.inject({ method: 'GET', url: '/auth/v1/user', headers: { authorization: `Bearer ${token}` } })).json<{ email: string }>().email;
    expect((await call(token, 'DELETE', '/api/v1/me/data', { email })).status).toBe(200);
    expect((await call(token, 'GET', '/api/v1/integrations/calendar')).body).toMatchObject({ connected: false, eventCount: 0 });
    const left = await t.deps.database.db.selectFrom('calendar_meeting_links').select('meeting_id').where('user_id', '=', userId).execute();
    expect(left).toEqual([]);
  });

  it("shows a meeting's event and the series' earlier meetings to its owner, and to a teammate only if invited to it", async () => {
    // Grace, a teammate of Ada's, is invited to the 1:1 (her address as the calendar spells it); Linus is not.
    const grace = await signUpUser(t.app, 'calendar-links-invited');
    const linus = await signUpUser(t.app, 'calendar-links-not-invited');
    const withGrace = (ics: string) => ics.replace('mailto:grace@example.com', `mailto:${grace.email.toUpperCase()}`);
    const withPage = (ics: string) => ics.replace('SUMMARY:Ada / Grace 1:1', 'SUMMARY:Ada / Grace 1:1\r\nURL:https://calendar.example.com/event/one-on-one');
    // The series has its own page in the calendar; the one-off's "URL" is a script, never a link.
    published = calendar([
      'BEGIN:VEVENT',
      'UID:sneaky@example.com',
      `DTSTART:${utc(new Date(Date.now() + DAY))}`,
      'SUMMARY:Sneaky',
      'URL:javascript:alert(1)',
      'END:VEVENT',
    ]);
    published = withGrace(withPage(published));
    const ada = await signUpUser(t.app, 'calendar-links', { fullName: 'Ada Lovelace' });
    expect((await call(ada.token, 'PUT', '/api/v1/integrations/calendar', { icsUrl: `${base}/private-links/basic.ics` })).status).toBe(200);
    const now = Date.now();
    const events = await eventsOf(ada.token, new Date(now - 20 * DAY), new Date(now + 30 * DAY));
    const series = events.filter((e) => e.seriesId === 'one-on-one@example.com');
    const sneaky = events.find((e) => e.title === 'Sneaky')!;
    // The dashboard links each upcoming event to its page in the calendar: a web address only.
    expect(series.map((e) => e.url)).toEqual(series.map(() => 'https://calendar.example.com/event/one-on-one'));
    expect(sneaky.url).toBeNull();
    const calendarOf = async (token: string, meetingId: string) => {
      const answer = await call(token, 'GET', `/api/v1/meetings/${meetingId}/calendar-event`);
      return { status: answer.status, body: answer.status === 200 ? MeetingCalendarSchema.parse(answer.body) : answer.body };
    };
    const link = async (eventId: string, meetingId: string) =>
      expect((await call(ada.token, 'POST', `/api/v1/calendar/events/${eventId}/meeting`, { meetingId })).status).toBe(200);

    // The first occurrence was recorded as a sample meeting with open action items (what "last time" counts).
    const samples = (await call(ada.token, 'GET', '/api/v1/meetings?pageSize=12')).body.items as { id: string; title: string }[];
    let first: { id: string; title: string; open: number } | undefined;
    for (const sample of samples) {
      const read = (await call(ada.token, 'GET', `/api/v1/meetings/${sample.id}`)).body as { insights: { kind: string; status: string }[] };
      const open = read.insights.filter((i) => i.kind === 'action_item' && i.status === 'open').length;
      if (open > 0) first = { ...sample, open };
    }
    if (!first) throw new Error('a sample meeting with open action items');
    await link(series[0]!.id, first.id);
    const second = (await call(ada.token, 'POST', '/api/v1/meetings', { title: 'Ada / Grace 1:1', source: 'mic' })).body.id as string;
    await link(series[1]!.id, second);

    expect(await calendarOf(ada.token, second)).toEqual({
      status: 200,
      body: {
        event: {
          id: series[1]!.id,
          title: 'Ada / Grace 1:1',
          start: series[1]!.start,
          end: series[1]!.end,
          allDay: false,
          url: 'https://calendar.example.com/event/one-on-one',
        },
        earlier: [expect.objectContaining({ id: first.id, title: first.title, openActionItems: first.open })],
      },
    });
    // The first has nothing before it; a meeting recorded from no event has no event.
    expect((await calendarOf(ada.token, first.id)).body).toMatchObject({ event: { id: series[0]!.id }, earlier: [] });
    const unlinked = samples.find((m) => m.id !== first.id)!;
    expect((await calendarOf(ada.token, unlinked.id)).body).toEqual({ event: null, earlier: [] });
    const third = (await call(ada.token, 'POST', '/api/v1/meetings', { title: 'Sneaky', source: 'mic' })).body.id as string;
    await link(sneaky.id, third);
    expect((await calendarOf(ada.token, third)).body).toMatchObject({ event: { title: 'Sneaky', url: null }, earlier: [] });

    // A stranger: the meeting is not there. Teammates read the shared meeting; of Ada's calendar, the
    // event and the earlier meetings they may read too only if they were invited to it.
    expect((await calendarOf(grace.token, second)).status).toBe(404);
    const team = await t.deps.services.teams.create(ada.userId, 'One-on-ones');
    for (const teammate of [grace, linus]) {
      const invitation = await t.deps.services.teams.invite(ada.userId, team.id, { email: teammate.email, role: 'member' });
      await t.deps.services.teams.accept(teammate.userId, invitation.token);
    }
    expect(await t.deps.services.meetings.shareWithTeam(ada.userId, second, team.id)).toBe('shared');
    expect((await calendarOf(grace.token, second)).body).toMatchObject({ event: { id: series[1]!.id, title: 'Ada / Grace 1:1' }, earlier: [] });
    expect(await t.deps.services.meetings.shareWithTeam(ada.userId, first.id, team.id)).toBe('shared');
    expect((await calendarOf(grace.token, second)).body).toMatchObject({ earlier: [{ id: first.id, openActionItems: first.open }] });
    expect((await call(linus.token, 'GET', `/api/v1/meetings/${second}`)).status).toBe(200);
    expect(await calendarOf(linus.token, second)).toEqual({ status: 200, body: { event: null, earlier: [] } });
    expect(await calendarOf(linus.token, first.id)).toEqual({ status: 200, body: { event: null, earlier: [] } });

    // Grace taken off the invitation: the event is no longer hers to see.
    published = withPage(calendar()).replace('ATTENDEE;CN=Grace Hopper:mailto:grace@example.com\r\n', '');
    expect((await call(ada.token, 'POST', '/api/v1/integrations/calendar/sync')).body).toMatchObject({ lastError: null });
    expect((await calendarOf(grace.token, second)).body).toEqual({ event: null, earlier: [] });
    published = withGrace(withPage(calendar()));
    expect((await call(ada.token, 'POST', '/api/v1/integrations/calendar/sync')).body).toMatchObject({ lastError: null });
    expect((await calendarOf(grace.token, second)).body).toMatchObject({ event: { id: series[1]!.id } });

    // Once the event has left the calendar, the meeting keeps it as it was when recorded.
    published = calendar().replace(/BEGIN:VEVENT\r\nUID:one-on-one@example\.com[\s\S]*?END:VEVENT\r\n/, '');
    expect((await call(ada.token, 'POST', '/api/v1/integrations/calendar/sync')).body).toMatchObject({ lastError: null });
    expect(await eventsOf(ada.token, new Date(now - 20 * DAY), new Date(now + 30 * DAY))).not.toContainEqual(expect.objectContaining({ id: series[1]!.id }));
    expect((await calendarOf(ada.token, second)).body).toMatchObject({
      event: { id: series[1]!.id, title: 'Ada / Grace 1:1', start: series[1]!.start, url: 'https://calendar.example.com/event/one-on-one' },
      earlier: [{ id: first.id }],
    });
    // And who was invited as the calendar last said: Grace still, Linus never.
    expect((await calendarOf(grace.token, second)).body).toMatchObject({ event: { id: series[1]!.id, title: 'Ada / Grace 1:1' }, earlier: [{ id: first.id }] });
    expect((await calendarOf(linus.token, second)).body).toEqual({ event: null, earlier: [] });
  });

  it('refreshes on demand and every 15 minutes, and keeps the last good events with the error when it fails', async () => {
    published = calendar();
    status = 200;
    const { token } = await signUpUser(t.app, 'calendar-sync');
    expect((await call(token, 'PUT', '/api/v1/integrations/calendar', { icsUrl: `${base}/sync.ics` })).status).toBe(200);
    const from = new Date(Date.now() - DAY);
    const to = new Date(Date.now() + 10 * DAY);
    const added = [
      'BEGIN:VEVENT',
      'UID:added@example.com',
      `DTSTART:${utc(new Date(Date.now() + 2 * DAY))}`,
      `DTEND:${utc(new Date(Date.now() + 2 * DAY + 3_600_000))}`,
      'SUMMARY:Added later',
      'END:VEVENT',
    ];
    published = calendar(added);
    expect((await eventsOf(token, from, to)).map((e) => e.title)).not.toContain('Added later');
    const synced = await call(token, 'POST', '/api/v1/integrations/calendar/sync');
    expect(synced.body).toMatchObject({ lastError: null });
    expect((await eventsOf(token, from, to)).map((e) => e.title)).toContain('Added later');

    // The worker's sweep: nothing is due before 15 minutes, then the calendar is read again.
    published = calendar();
    await t.deps.services.calendar.sweepDue();
    expect((await eventsOf(token, from, to)).map((e) => e.title)).toContain('Added later');
    offsetMs = 16 * 60_000;
    try {
      await t.deps.services.calendar.sweepDue();
    } finally {
      offsetMs = 0;
    }
    expect((await eventsOf(token, from, to)).map((e) => e.title)).not.toContain('Added later');

    status = 404;
    try {
      const failed = await call(token, 'POST', '/api/v1/integrations/calendar/sync');
      expect(failed.body.lastError).toMatch(/answered 404: the address is wrong or was reset/);
      expect((await eventsOf(token, from, to)).length).toBeGreaterThan(0);
    } finally {
      status = 200;
    }

    expect((await call(token, 'DELETE', '/api/v1/integrations/calendar')).body).toMatchObject({ connected: false });
    expect(await eventsOf(token, from, to)).toEqual([]);
  });

  it('refuses addresses a person can fix, and keeps nothing of them', async () => {
    const { token } = await signUpUser(t.app, 'calendar-bad');
    const refused = async (icsUrl: string) => {
      const { status: code, body } = await call(token, 'PUT', '/api/v1/integrations/calendar', { icsUrl });
      return { code, message: (body.error as { message: string }).message };
    };
    expect(await refused(`${base}/html`)).toMatchObject({ code: 400, message: expect.stringMatching(/does not answer a calendar/) });
    expect(await refused(`${base}/huge.ics`)).toMatchObject({ code: 413, message: expect.stringMatching(/larger than 5 MB/) });
    expect(await refused('http://127.0.0.1:1/closed.ics')).toMatchObject({ code: 503, message: expect.stringMatching(/could not be reached/) });
    expect(await refused('ftp://example.com/cal.ics')).toMatchObject({ code: 400, message: expect.stringMatching(/https:\/\//) });
    expect((await call(token, 'GET', '/api/v1/integrations/calendar')).body).toMatchObject({ connected: false });
    const window = `from=${new Date().toISOString()}&to=${new Date(Date.now() + 90 * DAY).toISOString()}`;
    expect((await call(token, 'GET', `/api/v1/calendar/events?${window}`)).status).toBe(400);
  });

  it('schedules a follow-up as an .ics invitation with the open action items, for a meeting the caller may read', async () => {
    const { token } = await signUpUser(t.app, 'calendar-follow-up');
    // The sample meetings a new account starts with have notes with open action items.
    const meetings = (await call(token, 'GET', '/api/v1/meetings?pageSize=12')).body.items as { id: string; title: string }[];
    const withItems = [];
    for (const meeting of meetings) {
      const notes = (await call(token, 'GET', `/api/v1/meetings/${meeting.id}`)).body as { insights: { kind: string; status: string; text: string }[] };
      const open = notes.insights.filter((i) => i.kind === 'action_item' && i.status === 'open');
      if (open.length > 0) withItems.push({ meeting, open });
    }
    const [{ meeting, open }] = withItems as [(typeof withItems)[number]];
    const start = new Date(Date.now() + 7 * DAY);
    start.setUTCHours(15, 0, 0, 0);
    const answer = await call(token, 'POST', '/api/v1/calendar/follow-ups', { meetingId: meeting.id, start: start.toISOString(), durationMinutes: 45 });
    expect(answer.status).toBe(200);
    const followUp = FollowUpSchema.parse(answer.body);
    if (followUp.kind !== 'ics') throw new Error('expected an .ics invitation without Google');
    expect(followUp.fileName).toMatch(/^Follow-up .*\.ics$/);
    const event = new ICAL.Event(new ICAL.Component(ICAL.parse(followUp.ics) as unknown[]).getFirstSubcomponent('vevent')!);
    expect(event.summary).toBe(`Follow-up: ${meeting.title}`);
    expect(event.startDate.toJSDate().toISOString()).toBe(start.toISOString());
    expect(event.endDate.toJSDate().getTime() - start.getTime()).toBe(45 * 60_000);
    expect(event.description).toContain('Open action items:');
    for (const item of open) expect(event.description).toContain(item.text);
    expect(event.description).toContain(`${t.baseUrl}/meetings/${meeting.id}`);

    const other = await signUpUser(t.app, 'calendar-follow-up-other');
    expect((await call(other.token, 'POST', '/api/v1/calendar/follow-ups', { meetingId: meeting.id, start: start.toISOString() })).status).toBe(404);
  });
});
