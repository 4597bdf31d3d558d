import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newPage, uniqueEmail } from '#tests/support/browser.ts';
import { signUp, toast } from '#tests/support/e2e-auth.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';

const baseUrl = inject('baseUrl');
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
    ({ context, page } = await newPage(browser, baseUrl));
    await signUp(page, { fullName: 'Alan Turing', email: uniqueEmail('transcribe'), password: 'enigma123' });
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
    expect(await card.getByRole('status').textContent()).toMatch(/Waiting for its turn|Reading the recording|Transcribing|Telling speakers apart|Saving the transcript/);

    await card.getByRole('link', { name: /View Details/ }).click();
    await page.waitForURL(/\/meetings\/[0-9a-f-]{36}$/);
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => navigations.push(frame.url()));
    // The transcript replaces the progress line when the job finishes: no reload happened.
    const transcript = page.getByRole('list', { name: 'Transcript' });
    await transcript.waitFor({ timeout: 60_000 });
    expect((await transcript.textContent())?.toLowerCase()).toContain('john');
    expect(await page.getByRole('status').count()).toBe(0);
    expect(navigations).toEqual([]);
  });
});
