import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CalendarEventSchema, REMINDER_LEAD_MINUTES } from '#shared/contracts/calendar.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { startFakeSmtp } from '#tests/support/fake-smtp.ts';

// Settings › Notifications › Meeting Reminders on the real server: a connected calendar (a local ICS
// publisher), the worker's minute sweep run with a moved clock, the reminder handed to notifications
// as `calendar.event_starting` and sent over a real SMTP conversation (a local SMTP server).

let published = '';
const server = http.createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' }).end(published);
});

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startFakeSmtp>>;
let base = '';
let offsetMs = 0;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  smtp = await startFakeSmtp();
  t = await buildTestApp({
    env: {
      AUTH_AUTOCONFIRM: 'true',
      AUTH_RATE_LIMITS: 'false',
      OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(smtp.port),
    },
    deps: { clock: { now: () => new Date(Date.now() + offsetMs) } },
  });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const MINUTE = 60_000;
const utc = (date: Date) => `${date.toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;
const vevent = (uid: string, title: string, start: Date, minutes: number, extra: string[] = []) => [
  'BEGIN:VEVENT',
  `UID:${uid}`,
  `DTSTART:${utc(start)}`,
  `DTEND:${utc(new Date(start.getTime() + minutes * MINUTE))}`,
  `SUMMARY:${title}`,
  ...extra,
  'END:VEVENT',
];
const ics = (events: string[][]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Parley tests//EN', ...events.flat(), 'END:VCALENDAR'].join('\r\n');

type Person = { token: string; userId: string; email: string };
const call = async (person: Person, method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) => {
  const response = await t.app.inject({ method, url, headers: { authorization: `Bearer ${person.token}` }, ...(payload ? { payload } : {}) });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> };
};
const connect = async (person: Person) => {
  expect((await call(person, 'PUT', '/api/v1/integrations/calendar', { icsUrl: `${base}/${person.userId}.ics` })).status).toBe(200);
};
const eventIdOf = async (person: Person, title: string): Promise<string> => {
  const window = `from=${new Date(Date.now() - 2 * 3_600_000).toISOString()}&to=${new Date(Date.now() + 24 * 3_600_000).toISOString()}`;
  const { body } = await call(person, 'GET', `/api/v1/calendar/events?${window}`);
  const event = (body.events as unknown[]).map((e) => CalendarEventSchema.parse(e)).find((e) => e.title === title);
  if (!event) throw new Error(`no event “${title}”`);
  return event.id;
};
const remindersTo = (person: Person): ParsedMail[] =>
  smtp.messages.filter((m) => (Array.isArray(m.to) ? m.to : [m.to]).some((a) => a?.text === person.email) && m.text?.includes('Meeting Reminders'));
/** The worker's minute sweep with the clock at `at` (by `workers` at once), its deliveries run to the end. */
const sweepAt = async (at: Date, workers = 1) => {
  offsetMs = at.getTime() - Date.now();
  try {
    await Promise.all(Array.from({ length: workers }, () => t.deps.services.calendar.sweepDue()));
    await t.deps.jobs.idle();
  } finally {
    offsetMs = 0;
  }
};
const before = (at: Date, minutes: number) => new Date(at.getTime() - minutes * MINUTE);

describe('Meeting Reminders', () => {
  // An event 30 minutes from now (milliseconds dropped, as in the calendar), one that starts 18
  // minutes from now (started by the time the first is within its lead), one later, and an all-day one.
  const now = new Date(Math.floor(Date.now() / 1000) * 1000);
  const designSync = new Date(now.getTime() + 30 * MINUTE);
  published = ics([
    vevent('sync@example.com', 'Design sync', designSync, 45, [
      'ORGANIZER;CN=Ada Lovelace:mailto:ada@example.com',
      'ATTENDEE;CN=Grace Hopper:mailto:grace@example.com',
    ]),
    vevent('standup@example.com', 'Standup', new Date(now.getTime() + 18 * MINUTE), 15),
    vevent('later@example.com', 'Planning', new Date(now.getTime() + 3 * 3_600_000), 60),
    ['BEGIN:VEVENT', 'UID:offsite@example.com', `DTSTART;VALUE=DATE:${utc(now).slice(0, 8)}`, 'SUMMARY:Offsite', 'END:VEVENT'],
  ]);

  it('emails one reminder per event a few minutes before it, in the person’s time zone, with its attendees and Record; none for events started, later or all-day', async () => {
    const ada = await signUpUser(t.app, 'reminders', { fullName: 'Ada Lovelace' });
    expect((await call(ada, 'PUT', '/auth/v1/user', { data: { timezone: 'Asia/Tokyo' } })).status).toBe(200);
    await connect(ada);
    const eventId = await eventIdOf(ada, 'Design sync');

    // Before the lead: not yet.
    await sweepAt(before(designSync, REMINDER_LEAD_MINUTES + 1));
    expect(remindersTo(ada)).toEqual([]);

    // Five minutes before (within the lead): the reminder; none for the Standup, started by then.
    expect(REMINDER_LEAD_MINUTES).toBeGreaterThanOrEqual(5);
    await sweepAt(before(designSync, 5));
    await expect.poll(() => remindersTo(ada).length).toBe(1);
    const mail = remindersTo(ada)[0]!;
    const time = (at: Date) => new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Tokyo', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
    const day = new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Tokyo', weekday: 'long', day: 'numeric', month: 'long' }).format(designSync);
    expect(mail.subject).toBe(`In 5 minutes: Design sync at ${time(designSync)}`);
    expect(mail.text).toContain(
      `“Design sync” starts in 5 minutes: ${day}, ${time(designSync)}–${time(new Date(designSync.getTime() + 45 * MINUTE))} (Asia/Tokyo).`,
    );
    expect(mail.text).toContain('Attendees: Ada Lovelace <ada@example.com>, Grace Hopper <grace@example.com>.');
    expect(mail.text).toContain(`Record: ${t.baseUrl}/record?event=${encodeURIComponent(eventId)}`);
    expect(mail.html).toContain(`href="${t.baseUrl}/record?event=${encodeURIComponent(eventId)}"`);
    const unsubscribe = mail.headerLines.find((h) => h.key === 'list-unsubscribe')?.line;
    expect(unsubscribe).toMatch(new RegExp(`<${t.baseUrl}/api/v1/notifications/unsubscribe\\?token=[^>]+>`));
    expect(mail.text).toContain(`${t.baseUrl}/api/v1/notifications/unsubscribe?token=`);

    // Later sweeps, two workers' at once, find it raised already: still one email, and none for the
    // Standup that had started, the Planning hours away or the all-day Offsite.
    await sweepAt(before(designSync, 4), 2);
    await sweepAt(before(designSync, 1));
    expect(remindersTo(ada).map((m) => m.subject)).toEqual([mail.subject]);
    const raised = await t.deps.database.db.selectFrom('calendar_reminders').select('event_id').where('user_id', '=', ada.userId).execute();
    expect(raised).toEqual([{ event_id: eventId }]);
  });

  it('sends nothing while the choice is off, nor for an event cancelled after its reminder was raised', async () => {
    const off = await signUpUser(t.app, 'reminders-off');
    expect((await call(off, 'PUT', '/api/v1/settings/notifications', { meetingReminders: false })).status).toBe(200);
    await connect(off);
    await sweepAt(before(designSync, 5));
    expect(remindersTo(off)).toEqual([]);

    // Raised, then cancelled in the calendar before the email went: the delivery finds it gone (while
    // it was there, the same delivery sent it).
    const grace = await signUpUser(t.app, 'reminders-cancelled');
    await connect(grace);
    const eventId = await eventIdOf(grace, 'Design sync');
    const start = designSync.toISOString();
    await t.deps.services.notifications.meetingReminder({ userId: grace.userId, eventId, start });
    expect(remindersTo(grace).map((m) => m.subject)).toEqual([expect.stringMatching(/^In \d+ minutes: Design sync at /)]);
    const kept = published;
    published = ics([vevent('sync@example.com', 'Design sync', designSync, 45, ['STATUS:CANCELLED'])]);
    try {
      expect((await call(grace, 'POST', '/api/v1/integrations/calendar/sync')).body).toMatchObject({ lastError: null });
    } finally {
      published = kept;
    }
    await t.deps.services.notifications.meetingReminder({ userId: grace.userId, eventId, start });
    expect(remindersTo(grace)).toHaveLength(1);
  });
});
