import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, uniqueEmail } from '#tests/support/browser.ts';
import { findFreePort } from '#tests/support/build-test-app.ts';
import { signedInPage, storedAccessToken, toast } from '#tests/support/e2e-auth.ts';
import { startFakeGoogleCalendar, type FakeGoogleCalendar } from '#tests/support/fake-google-calendar.ts';
import { spawnServer, type SpawnedServer } from '#tests/support/spawn-server.ts';

const DAY = 86_400_000;
const utc = (date: Date) => `${date.toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;

/** A calendar publisher on this machine, serving one person's secret address. */
let calendarUrl = '';
const publisher = http.createServer((_request, response) => {
  const start = new Date(Date.now() + 2 * DAY);
  start.setUTCMinutes(0, 0, 0);
  response
    .writeHead(200, { 'content-type': 'text/calendar' })
    .end(
      [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//Parley tests//EN',
        'BEGIN:VEVENT',
        'UID:roadmap@example.com',
        `DTSTART:${utc(start)}`,
        `DTEND:${utc(new Date(start.getTime() + 45 * 60_000))}`,
        'SUMMARY:Roadmap review',
        'URL:https://calendar.example.com/events/roadmap',
        'ORGANIZER;CN=Rosa Planner:mailto:rosa@example.com',
        'ATTENDEE;CN=Grace Hopper:mailto:grace@example.com',
        'END:VEVENT',
        'END:VCALENDAR',
      ].join('\r\n'),
    );
});

let browser: Browser;
/** Connect with Google: a local Google, and a server of this file's own that has a Google OAuth client. */
let google: FakeGoogleCalendar;
let googleServer: SpawnedServer;
let googleDataDir: string;
beforeAll(async () => {
  await new Promise<void>((resolve) => publisher.listen(0, '127.0.0.1', resolve));
  calendarUrl = `http://127.0.0.1:${(publisher.address() as AddressInfo).port}/calendar/ical/secret-7c1e9a/basic.ics`;
  google = await startFakeGoogleCalendar({ clientId: 'parley-e2e.apps.googleusercontent.com', clientSecret: 'e2e-google-secret' });
  googleDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-e2e-google-'));
  [browser, googleServer] = await Promise.all([
    launchBrowser(),
    spawnServer({
      port: await findFreePort(),
      dataDir: googleDataDir,
      env: { AUTH_AUTOCONFIRM: 'true', OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true', ...google.env },
    }),
  ]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await googleServer?.stop();
  await google?.close();
  fs.rmSync(googleDataDir, { recursive: true, force: true });
  publisher.closeAllConnections();
  await new Promise((resolve) => publisher.close(resolve));
});

describe('a calendar by its secret address', () => {
  it('connects in Settings, lists the meeting on the dashboard, records it with its title, schedules a follow-up, and disconnects', async () => {
    const { context, page } = await signedInPage(browser, { fullName: 'Rosa Planner', email: uniqueEmail('calendar'), password: 'calendar1' });
    await page.goto('/settings');
    await page.getByRole('button', { name: 'Connect Google Calendar' }).click();
    await page.getByLabel('Secret address in iCal format').fill(calendarUrl);
    await page.getByRole('button', { name: 'Connect calendar' }).click();
    await toast(page, 'Calendar connected').waitFor();
    // Shown as its host only: the rest of the address is a secret.
    await page.getByText(/^Connected: 127\.0\.0\.1:\d+\/…$/).waitFor();
    expect(await page.getByText('secret-7c1e9a').count()).toBe(0);

    await page.goto('/dashboard');
    const upcoming = page.getByRole('list', { name: 'Upcoming meetings' });
    await upcoming.getByText('Roadmap review').waitFor();
    await upcoming.getByText(/2 people/).waitFor();
    // The event's own page in its calendar, in a new tab that gets no handle on Parley.
    const inCalendar = upcoming.getByRole('link', { name: 'Roadmap review (opens in your calendar in a new tab)' });
    expect(await inCalendar.getAttribute('href')).toBe('https://calendar.example.com/events/roadmap');
    expect(await inCalendar.getAttribute('target')).toBe('_blank');
    expect(await inCalendar.getAttribute('rel')).toBe('noopener noreferrer');
    await upcoming.getByRole('link', { name: 'Record Roadmap review' }).click();

    await page.waitForURL(/\/record\?event=/);
    await page.getByText('From your calendar: Roadmap review · with Rosa Planner, Grace Hopper').waitFor();
    await expect.poll(() => page.getByLabel('Meeting title').inputValue()).toBe('Roadmap review');

    // Schedule follow-up from a meeting: without Google, an .ics invitation with its open action items.
    await page.goto('/history');
    await page.getByRole('link', { name: 'Weekly Team Standup' }).first().click();
    // The history card has an actions menu of the same name (without Schedule follow-up): the meeting page first.
    await page.getByRole('heading', { level: 1, name: 'Weekly Team Standup' }).waitFor();
    await page.getByRole('button', { name: 'Actions for Weekly Team Standup' }).click();
    await page.getByRole('menuitem', { name: 'Schedule follow-up' }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('dialog').getByRole('button', { name: 'Schedule follow-up' }).click()]);
    expect(download.suggestedFilename()).toBe('Follow-up Weekly Team Standup.ics');
    await toast(page, 'Follow-up invitation downloaded').waitFor();

    await page.goto('/settings');
    await page.getByRole('button', { name: 'Disconnect Google Calendar' }).click();
    await toast(page, 'Calendar disconnected').waitFor();
    await page.getByRole('button', { name: 'Connect Google Calendar' }).waitFor();
    await page.goto('/dashboard');
    await page.getByText('Connect your calendar to see your meetings here').waitFor();
    await context.close();
  });
});

describe('Connect with Google', () => {
  it(
    'signs in at Google, lists the upcoming events, links a meeting to its event and the series’ last time, and disconnects',
    { timeout: 90_000 },
    async () => {
      // A weekly design review (last week's and tomorrow's occurrences) and a one-off budget sync.
      const hour = new Date(Date.now() + 86_400_000);
      hour.setUTCMinutes(0, 0, 0);
      const at = (days: number, minutes = 0) => new Date(hour.getTime() + days * DAY + minutes * 60_000).toISOString();
      const weekly = (id: string, days: number) => ({
        id,
        recurringEventId: 'designreview',
        summary: 'Design review',
        start: at(days),
        end: at(days, 30),
        htmlLink: `https://www.google.com/calendar/event?eid=${id}`,
        organizer: { email: 'ada@example.com', displayName: 'Ada Lovelace' },
        attendees: [{ email: 'grace@example.com', displayName: 'Grace Hopper' }],
      });
      google.events.push(weekly('designreview_past', -7), weekly('designreview_next', 0), {
        id: 'budgetsync',
        summary: 'Budget sync',
        start: at(2),
        end: at(2, 45),
        htmlLink: 'https://www.google.com/calendar/event?eid=budgetsync',
      });

      const { context, page } = await signedInPage(browser, { baseUrl: googleServer.baseUrl, fullName: 'Ada Lovelace' });
      await page.goto(`${googleServer.baseUrl}/settings`);
      await page.getByRole('button', { name: 'Connect Google Calendar' }).click();
      await page.getByRole('button', { name: 'Connect with Google' }).click();
      // Google approves at once and sends the browser back to the callback page, which opens Settings.
      await toast(page, 'Google Calendar connected').filter({ hasText: 'Ada Lovelace (ada@example.com)' }).waitFor({ timeout: 20_000 });
      await page.waitForURL(`${googleServer.baseUrl}/settings?tab=profile`);
      await page.getByText('Connected: Ada Lovelace (ada@example.com)').waitFor();
      await page.getByText(/ · 3 events · refreshed every 15 minutes$/).waitFor();

      // Last week's review was recorded (a sample meeting with open action items stands in), and
      // tomorrow's is being recorded: each linked to its occurrence as Record does once recording starts.
      const token = await storedAccessToken(page);
      const request = async (method: string, url: string, body?: unknown) => {
        const response = await fetch(`${googleServer.baseUrl}${url}`, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
        expect(response.status, `${method} ${url}`).toBeLessThan(300);
        return (await response.json()) as Record<string, unknown>;
      };
      const window = `from=${encodeURIComponent(at(-10))}&to=${encodeURIComponent(at(5))}`;
      const events = (await request('GET', `/api/v1/calendar/events?${window}`)).events as { id: string; start: string }[];
      const [past, next] = events.filter((e) => e.start === at(-7) || e.start === at(0)).map((e) => e.id);
      const samples = (await request('GET', '/api/v1/meetings?pageSize=12')).items as { id: string; title: string }[];
      const standup = samples.find((m) => m.title === 'Weekly Team Standup')!;
      const insights = (await request('GET', `/api/v1/meetings/${standup.id}`)).insights as { kind: string; status: string }[];
      const open = insights.filter((i) => i.kind === 'action_item' && i.status === 'open').length;
      const openItems = `${open} open action ${open === 1 ? 'item' : 'items'}`;
      expect(open).toBeGreaterThan(0);
      await request('POST', `/api/v1/calendar/events/${past}/meeting`, { meetingId: standup.id });
      const recording = await request('POST', '/api/v1/meetings', { title: 'Design review', source: 'mic' });
      await request('POST', `/api/v1/calendar/events/${next}/meeting`, { meetingId: recording.id });

      // The dashboard: the next seven days, the review with last week's meeting and its recording.
      await page.goto(`${googleServer.baseUrl}/dashboard`);
      const upcoming = page.getByRole('list', { name: 'Upcoming meetings' });
      await upcoming.getByRole('link', { name: 'Record Budget sync' }).waitFor();
      expect(await upcoming.getByRole('listitem').allTextContents()).toEqual([
        expect.stringMatching(new RegExp(`^Design review.* · 2 peopleLast time: Weekly Team Standup · ${openItems}Open recording$`)),
        expect.stringMatching(/^Budget sync.*Record$/),
      ]);
      expect(await upcoming.getByRole('link', { name: /^Budget sync/ }).getAttribute('href')).toBe('https://www.google.com/calendar/event?eid=budgetsync');

      // The meeting page links back to its event in Google Calendar, and to last week's meeting.
      await upcoming.getByRole('link', { name: 'Open recording' }).click();
      await page.waitForURL(`${googleServer.baseUrl}/meetings/${String(recording.id)}`);
      const fromCalendar = page.getByRole('region', { name: 'Calendar event' });
      const recordedFrom = fromCalendar.getByText(/^Recorded from Design review · (?!.*Open in your calendar)/);
      await recordedFrom.waitFor();
      expect(await fromCalendar.getByRole('link', { name: 'Open in your calendar' }).getAttribute('href')).toBe(
        'https://www.google.com/calendar/event?eid=designreview_next',
      );
      const earlier = fromCalendar.getByRole('list', { name: 'Earlier meetings of this series' });
      await earlier.getByText(openItems, { exact: false }).waitFor();
      await earlier.getByRole('link', { name: 'Weekly Team Standup' }).click();
      await page.waitForURL(`${googleServer.baseUrl}/meetings/${standup.id}`);
      // Last week's meeting: its own occurrence, and nothing earlier.
      await page.getByRole('heading', { level: 1, name: 'Weekly Team Standup' }).waitFor();
      await recordedFrom.waitFor();
      expect(await fromCalendar.getByRole('list').count()).toBe(0);

      await page.goto(`${googleServer.baseUrl}/settings`);
      await page.getByRole('button', { name: 'Disconnect Google Calendar' }).click();
      await toast(page, 'Calendar disconnected').waitFor();
      await page.getByRole('button', { name: 'Connect Google Calendar' }).waitFor();
      // The grant is revoked at Google.
      expect(google.oauth.revoked).toHaveLength(1);
      await context.close();
    },
  );
});
