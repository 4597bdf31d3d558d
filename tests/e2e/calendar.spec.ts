import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, uniqueEmail } from '#tests/support/browser.ts';
import { signedInPage, toast } from '#tests/support/e2e-auth.ts';

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
        'ORGANIZER;CN=Rosa Planner:mailto:rosa@example.com',
        'ATTENDEE;CN=Grace Hopper:mailto:grace@example.com',
        'END:VEVENT',
        'END:VCALENDAR',
      ].join('\r\n'),
    );
});

let browser: Browser;
beforeAll(async () => {
  await new Promise<void>((resolve) => publisher.listen(0, '127.0.0.1', resolve));
  calendarUrl = `http://127.0.0.1:${(publisher.address() as AddressInfo).port}/calendar/ical/secret-7c1e9a/basic.ics`;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
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
