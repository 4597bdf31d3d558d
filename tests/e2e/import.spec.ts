import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, uniqueEmail } from '#tests/support/browser.ts';
import { signedInPage, toast } from '#tests/support/e2e-auth.ts';
import { BAD_TIMESTAMP_VTT, TEAMS_VTT } from '#tests/support/transcript-samples.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

const vttFile = (name: string, text: string) => ({ name, mimeType: 'text/vtt', buffer: Buffer.from(text, 'utf8') });

describe('importing a transcript on the record page', () => {
  it('makes a meeting from a Teams WebVTT file and opens it with the named speakers and the transcript, without audio', async () => {
    const { context, page } = await signedInPage(browser, { fullName: 'Ivy Importer', email: uniqueEmail('import'), password: 'importer1' });
    await page.goto('/record');
    await page.getByText('Import a transcript').waitFor();
    await page.getByLabel('Transcript file').setInputFiles(vttFile('Launch sync.vtt', TEAMS_VTT));

    await page.waitForURL(/\/meetings\/[0-9a-f-]{36}$/);
    await toast(page, 'Meeting saved').waitFor();
    await page.getByRole('heading', { name: 'Launch sync' }).waitFor();
    await page.getByText('Imported transcript').waitFor();
    const transcript = page.getByRole('list', { name: 'Transcript' });
    await transcript.getByText('The store listing is approved & the screenshots are uploaded.').waitFor();
    expect(await transcript.getByText('Megan Bowen:').count()).toBe(2);
    expect(await transcript.getByText('Alex Wilber:').count()).toBe(2);
    await page.getByRole('button', { name: 'Rename Megan Bowen' }).waitFor(); // the Speakers card names them from the file
    expect(await page.getByTestId('audio-player').count()).toBe(0); // no audio player
    await context.close();
  });

  it('shows the line to fix for a malformed file and stays on the record page', async () => {
    const { context, page } = await signedInPage(browser, { fullName: 'Mal Formed', email: uniqueEmail('import-bad'), password: 'malformed1' });
    await page.goto('/record');
    await page.getByLabel('Transcript file').setInputFiles(vttFile('broken.vtt', BAD_TIMESTAMP_VTT));
    const message = 'Line 10: expected a timestamp like 00:01:02.000 --> 00:01:05.000, found "00:00:1x.000 --> 00:00:12.000"';
    await page.getByRole('alert').filter({ hasText: message }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/record');
    await page.goto('/history');
    await page.getByText('Weekly Team Standup').first().waitFor();
    expect(await page.getByText('broken', { exact: true }).count()).toBe(0);
    await context.close();
  });
});
