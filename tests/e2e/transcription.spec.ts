import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eServer, launchBrowser, uniqueEmail } from '#tests/support/browser.ts';
import { signedInPage, toast } from '#tests/support/e2e-auth.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';

/** What the progress line says while a meeting is being transcribed. */
const PROGRESS_TEXT = /Waiting for its turn|Reading the recording|Transcribing|Telling speakers apart|Saving the transcript/;

const { dataDir } = e2eServer();
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

describe('transcription progress, live over the realtime channel', () => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    ({ context, page } = await signedInPage(browser, { fullName: 'Alan Turing', email: uniqueEmail('transcribe'), password: 'enigma123' }));
  });
  afterAll(async () => {
    await context.close();
  });

  it('shows an imported recording being transcribed, then its transcript, without a reload', { timeout: 90_000 }, async () => {
    await page.goto('/record');
    await page.getByLabel('Recording file').setInputFiles(path.join(sharedAudioDir(), 'librivox_ss_5utt.wav'));
    await toast(page, 'Meeting saved').waitFor();

    // History: the card says what is happening while the job runs (client-side navigation keeps the socket).
    await page.getByRole('link', { name: 'Meeting History' }).first().click();
    const card = page.getByRole('article', { name: 'librivox_ss_5utt', exact: true });
    await card.getByRole('status').waitFor({ timeout: 20_000 });
    expect(await card.getByRole('status').textContent()).toMatch(PROGRESS_TEXT);

    await card.getByRole('link', { name: /View Details/ }).click();
    await page.waitForURL(/\/meetings\/[0-9a-f-]{36}$/);
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => navigations.push(frame.url()));
    // The transcript replaces the progress line when the job finishes: no reload happened.
    const transcript = page.getByRole('list', { name: 'Transcript' });
    await transcript.waitFor({ timeout: 60_000 });
    expect((await transcript.textContent())?.toLowerCase()).toContain('john');
    // (The transcript's search counter is a status region of its own: the progress line is the one that must be gone.)
    expect(await page.getByRole('status').filter({ hasText: PROGRESS_TEXT }).count()).toBe(0);
    expect(navigations).toEqual([]);
  });

  it('shows why a transcription failed, and Retry on the page and the card brings the transcript without a reload', { timeout: 90_000 }, async () => {
    const clip = path.join(sharedAudioDir(), 'goforward.wav');
    await page.goto('/record');
    await page.getByLabel('Recording file').setInputFiles(clip);
    await toast(page, 'Meeting saved').waitFor();
    await page.getByRole('link', { name: 'Meeting History' }).first().click();
    await page
      .getByRole('article', { name: 'goforward', exact: true })
      .getByRole('link', { name: /View Details/ })
      .click();
    await page.waitForURL(/\/meetings\/[0-9a-f-]{36}$/);
    await page.getByText('Go forward ten meters.').waitFor({ timeout: 30_000 });
    const meetingId = new URL(page.url()).pathname.split('/').at(-1)!;

    // The stored recording is damaged on disk and its last transcription failed.
    const db = new Database(path.join(dataDir, 'parley.db'));
    const { audio_key: key } = db.prepare('select audio_key from meetings where id = ?').get(meetingId) as { audio_key: string };
    const blob = path.join(dataDir, 'blobs', key);
    fs.writeFileSync(blob, 'these bytes are not audio');
    db.prepare("update meetings set status = 'failed', failure_reason = 'The recording could not be read.' where id = ?").run(meetingId);
    db.close();
    await page.reload();
    const alert = page.getByRole('alert').filter({ hasText: 'The transcript could not be made' });
    await alert.getByText('The recording could not be read.').waitFor();

    // A reload would drop this mark: everything below must happen in this one page load.
    await page.evaluate(() => Object.assign(window, { parleyPageMark: true }));
    // Retry runs the job again; it fails on the damaged file and says why, live.
    await alert.getByRole('button', { name: 'Retry' }).click();
    await alert.getByText('The audio could not be decoded: Invalid data found when processing input').waitFor({ timeout: 30_000 });

    // The history card says the same and offers Retry too; with the file repaired it succeeds.
    fs.copyFileSync(clip, blob);
    await page.getByRole('link', { name: 'Meeting History' }).first().click();
    const card = page.getByRole('article', { name: 'goforward', exact: true });
    await card
      .getByRole('alert')
      .getByText(/The audio could not be decoded/)
      .waitFor();
    await card.getByRole('button', { name: 'Retry' }).click();
    await card.getByText('Transcribed').waitFor({ timeout: 30_000 });
    expect(await card.getByRole('alert').count()).toBe(0);
    await card.getByRole('link', { name: /View Details/ }).click();
    await page.getByText('Go forward ten meters.').waitFor();
    expect(await page.evaluate(() => 'parleyPageMark' in window)).toBe(true);
  });
});
