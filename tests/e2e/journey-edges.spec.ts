import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedInvitation } from '#shared/contracts/teams.ts';
import { chooseOption, e2eServer, launchBrowser, newPage, PHONE, uniqueEmail } from '#tests/support/browser.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';
import { signedInPage, storedAccessToken, submitSignUp, toast } from '#tests/support/e2e-auth.ts';

// The rough edges a new person met on the way through the app (issue 34 item 6), each as they see it.

const { baseUrl, dataDir } = e2eServer();
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

/** The API as the person signed in on this page (a test's setup, not its subject). */
async function callApi<T>(page: Page, method: string, url: string, body?: object): Promise<T> {
  const response = await fetch(`${baseUrl}${url}`, {
    method,
    headers: { authorization: `Bearer ${await storedAccessToken(page)}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Opens the account's sample "Weekly Team Standup" from the dashboard and answers its id. */
async function openStandup(page: Page): Promise<string> {
  await page.getByRole('link', { name: 'Weekly Team Standup' }).first().click();
  await page.waitForURL(/\/meetings\/[0-9a-f-]{36}$/);
  await page.getByRole('list', { name: 'Transcript' }).waitFor();
  return new URL(page.url()).pathname.split('/').at(-1)!;
}

/** Gives the meeting a recording as the recording flow stores one: a minute of a steady tone, 16 kHz WAV. */
function attachRecording(meetingId: string): void {
  const id = crypto.randomUUID();
  const key = `${id.slice(0, 2)}/${id}.wav`;
  const file = path.join(dataDir, 'blobs', key);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=frequency=330:duration=60', '-ar', '16000', '-ac', '1', file]);
  const db = new Database(path.join(dataDir, 'parley.db'));
  db.prepare("update meetings set audio_key = ?, audio_mime = 'audio/wav', audio_bytes = ? where id = ?").run(key, fs.statSync(file).size, meetingId);
  db.close();
}

/** How wide the page is: more than the viewport means the person can scroll it sideways. */
const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

/** Fails unless the element lies wholly inside the phone's screen, left to right. */
async function expectOnScreen(locator: Locator, what: string): Promise<void> {
  const box = await locator.boundingBox();
  expect(box, what).not.toBeNull();
  expect(box!.x, what).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, what).toBeLessThanOrEqual(PHONE.width);
}

describe('an uploaded recording', () => {
  it('opens its meeting once stored, where its transcript arrives without a reload', { timeout: 90_000 }, async () => {
    const { context, page } = await signedInPage(browser);
    await page.goto('/record');
    await page.getByLabel('Recording file').setInputFiles(path.join(sharedAudioDir(), 'goforward.wav'));
    await toast(page, 'Meeting saved').waitFor();
    await page.waitForURL(/\/meetings\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { level: 1, name: 'goforward' }).waitFor();
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => navigations.push(frame.url()));
    await page.getByText('Go forward ten meters.').waitFor({ timeout: 60_000 });
    expect(navigations).toEqual([]);
    await context.close();
  });
});

describe('a 375 px phone', () => {
  it('a meeting with a recording, shared with a team, fits the screen: its Download, Share and Delete menu is reachable', { timeout: 60_000 }, async () => {
    const { context, page } = await signedInPage(browser, { viewport: PHONE, fullName: 'Pia Phone' });
    const meetingId = await openStandup(page);
    attachRecording(meetingId);
    const team = await callApi<{ id: string }>(page, 'POST', '/api/v1/teams', { name: 'Product Launch Working Group' });
    await callApi(page, 'PATCH', `/api/v1/meetings/${meetingId}`, { teamId: team.id });
    await page.reload();
    await page.getByRole('slider', { name: 'Playback position' }).waitFor();
    await page.getByRole('button', { name: /^Shared with Product Launch Working Group/ }).waitFor();
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);

    const actions = page.getByRole('button', { name: 'Actions for Weekly Team Standup' });
    await expectOnScreen(actions, 'the actions button');
    await actions.click();
    const menu = page.getByRole('menu');
    for (const item of ['Download', 'Share', 'Share with team', 'Delete']) {
      await expectOnScreen(menu.getByRole('menuitem', { name: item, exact: true }), item);
    }
    await menu.getByRole('menuitem', { name: 'Download', exact: true }).click();
    const formats = page.getByRole('menu').filter({ has: page.getByRole('menuitem', { name: 'PDF', exact: true }) });
    await formats.waitFor();
    for (const format of ['TXT', 'PDF', 'Audio']) await expectOnScreen(formats.getByRole('menuitem', { name: format, exact: true }), format);
    await context.close();
  });

  it('every tab of AI Insights lies inside the screen and opens with a tap', async () => {
    const { context, page } = await signedInPage(browser, { viewport: PHONE });
    await page.goto('/insights');
    const tabs = page.getByRole('tablist');
    await tabs.getByRole('tab', { name: 'Topics' }).waitFor();
    const names = await tabs.getByRole('tab').allTextContents();
    expect(names).toEqual(['Topics', 'Sentiment', 'Participation', 'Action Items', 'Decisions']);
    for (const name of names) await expectOnScreen(tabs.getByRole('tab', { name }), name);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await tabs.getByRole('tab', { name: 'Decisions' }).click();
    expect(await tabs.getByRole('tab', { name: 'Decisions' }).getAttribute('aria-selected')).toBe('true');
    await context.close();
  });
});

describe('the player', () => {
  it('draws the waveform the server worked out, also when it arrives after the recording is ready to play', { timeout: 60_000 }, async () => {
    const { context, page } = await signedInPage(browser);
    const meetingId = await openStandup(page);
    attachRecording(meetingId);
    // The server works the waveform out while the player loads: here it answers only once the player has drawn without it.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**/api/v1/meetings/${meetingId}/audio/peaks`, async (route) => {
      await released;
      await route.continue();
    });
    await page.reload();
    const position = page.getByRole('slider', { name: 'Playback position' });
    await position.waitFor();

    /** The waveform's canvases (wavesurfer draws inside its own shadow root): how many, and the share of their columns painted more than half their height. */
    const drawn = () =>
      position.evaluate((slider) => {
        const root = slider.firstElementChild?.shadowRoot;
        const canvases = [...(root?.querySelectorAll<HTMLCanvasElement>('.canvases canvas') ?? [])];
        let columns = 0;
        let tall = 0;
        for (const canvas of canvases) {
          const { width, height } = canvas;
          if (width === 0 || height === 0) continue;
          const pixels = canvas.getContext('2d')!.getImageData(0, 0, width, height).data;
          for (let x = 0; x < width; x += 1) {
            let painted = 0;
            for (let y = 0; y < height; y += 1) if (pixels[(y * width + x) * 4 + 3]! > 0) painted += 1;
            columns += 1;
            if (painted > height / 2) tall += 1;
          }
        }
        return { canvases: canvases.length, tall: columns === 0 ? 0 : tall / columns };
      });
    await expect.poll(async () => (await drawn()).canvases, { timeout: 20_000 }).toBeGreaterThan(0);
    release();
    // The length comes with the waveform: it has arrived. A steady tone's bars then stand full height.
    await expect.poll(() => position.getAttribute('aria-valuetext'), { timeout: 20_000 }).toBe('00:00 of 01:00');
    const tallColumns = async () => (await drawn()).tall;
    await expect.poll(tallColumns, { timeout: 10_000 }).toBeGreaterThan(0.3);
    await context.close();
  });
});

describe('an emailed invitation', () => {
  it('opens Sign Up (and Sign In) with the invited address filled in, and the new account joins', { timeout: 60_000 }, async () => {
    const owner = await signedInPage(browser, { fullName: 'Ines Inviter' });
    const team = await callApi<{ id: string }>(owner.page, 'POST', '/api/v1/teams', { name: 'Prefill crew' });
    const invited = uniqueEmail('invited');
    const invitation = await callApi<CreatedInvitation>(owner.page, 'POST', `/api/v1/teams/${team.id}/invitations`, { email: invited, role: 'member' });
    await owner.context.close();

    const { context, page } = await newPage(browser, baseUrl);
    await page.goto(new URL(invitation.url).pathname);
    await page.getByRole('heading', { name: 'Join Prefill crew' }).waitFor();
    await page.getByRole('button', { name: 'Create an account' }).click();
    const signUp = page.getByRole('tabpanel', { name: 'Sign Up' });
    await expect.poll(() => signUp.getByLabel('Email').inputValue()).toBe(invited);
    // The other tab has it too.
    await page.getByRole('tab', { name: 'Sign In' }).click();
    expect(await page.getByRole('tabpanel', { name: 'Sign In' }).getByLabel('Email').inputValue()).toBe(invited);
    await page.getByRole('tab', { name: 'Sign Up' }).click();
    expect(await signUp.getByLabel('Email').inputValue()).toBe(invited);

    await signUp.getByLabel('Full Name').fill('Ivy Invited');
    await signUp.getByLabel('Password', { exact: true }).fill('invited123');
    await submitSignUp(page);
    await page.waitForURL((url) => url.pathname === new URL(invitation.url).pathname);
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await toast(page, 'You joined Prefill crew').waitFor();
    await context.close();
  });
});

describe('time zones', () => {
  it('a first visit takes the browser’s zone: Settings › Profile shows it among every zone, the spec’s four first, and exports print in it', async () => {
    const { context, page } = await signedInPage(browser, { timezoneId: 'Europe/Berlin' });
    await page.goto('/settings');
    const select = page.getByRole('combobox', { name: 'Timezone' });
    await expect.poll(() => select.textContent()).toBe('Europe/Berlin');

    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await select.click();
    const options = await page.getByRole('option').allTextContents();
    expect(options.slice(0, 4)).toEqual(['Pacific Time', 'Mountain Time', 'Central Time', 'Eastern Time']);
    expect(options.length).toBeGreaterThan(300);
    expect(options).toContain('Asia/Tokyo');
    expect(options).toContain('America/Sao Paulo');
    await page.keyboard.press('Escape');

    // The server has it too: a meeting's export prints its date in Berlin time.
    const meetings = await callApi<{ items: { id: string; startedAt: string }[] }>(page, 'GET', '/api/v1/meetings');
    const meeting = meetings.items[0]!;
    const exported = async () =>
      (
        await fetch(`${baseUrl}/api/v1/meetings/${meeting.id}/export?format=md`, {
          headers: { authorization: `Bearer ${await storedAccessToken(page)}` },
        })
      ).text();
    const berlin = new Intl.DateTimeFormat('en-US', {
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZoneName: 'short',
      timeZone: 'Europe/Berlin',
    }).format(new Date(meeting.startedAt));
    await expect.poll(exported).toContain(berlin);
    await context.close();
  });

  it('a browser in Denver starts on the spec’s Mountain Time; the person may pick any zone', async () => {
    const { context, page } = await signedInPage(browser, { timezoneId: 'America/Denver' });
    await page.goto('/settings');
    const select = page.getByRole('combobox', { name: 'Timezone' });
    await expect.poll(() => select.textContent()).toBe('Mountain Time');
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await chooseOption(page, select, 'Asia/Tokyo');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Profile updated successfully').waitFor();
    await page.reload();
    await expect.poll(() => select.textContent()).toBe('Asia/Tokyo');
    await context.close();
  });
});
