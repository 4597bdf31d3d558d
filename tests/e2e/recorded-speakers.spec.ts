import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '#tests/support/browser.ts';
import { signedInPage, storedAccessToken, toast } from '#tests/support/e2e-auth.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';

// Issue 13: one reader recorded through the microphone came out as several speakers. Chromium's
// fake microphone reads a real clip (fw_left.wav, one man reading two phrases; recorded before
// the fix it was three speakers) through the page's own capture: getUserMedia's processing,
// MediaRecorder's Opus chunks, the chunked upload.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser([`--use-file-for-fake-audio-capture=${path.join(sharedAudioDir(), 'fw_left.wav')}%noloop`]);
});
afterAll(async () => {
  await browser.close();
});

describe('speakers of a recording made on /record', () => {
  it('shows one reader as one speaker, whose voice profile is kept from it, shown in Settings and deleted', { timeout: 240_000 }, async () => {
    const { context, page } = await signedInPage(browser, { fullName: 'Ruth Reader' });
    await page.goto('/record');
    await page.getByLabel('Meeting title').fill('One reader');
    await page.getByRole('button', { name: 'Start Recording' }).click();
    await toast(page, 'Recording started').waitFor();
    // The clip is 5 s long from when the microphone opened; stopped just after it.
    await page.waitForTimeout(5_300);
    await page.getByRole('button', { name: 'Stop Recording' }).click();
    await page.getByRole('button', { name: 'Save Meeting' }).click();
    await toast(page, 'Meeting saved').waitFor();

    const token = await storedAccessToken(page);
    const idOf = async () => {
      const response = await fetch(new URL('/api/v1/meetings?pageSize=100', page.url()), { headers: { authorization: `Bearer ${token}` } });
      const list = (await response.json()) as { items: { id: string; title: string; status: string }[] };
      return list.items.find((m) => m.title === 'One reader' && m.status !== 'recording')?.id;
    };
    await expect.poll(idOf, { timeout: 60_000 }).toBeDefined();
    await page.goto(`/meetings/${await idOf()}`);
    const transcript = page.getByRole('list', { name: 'Transcript' });
    await transcript.waitFor({ timeout: 180_000 });
    const speakersOfLines = () =>
      transcript.locator(':scope > li').evaluateAll((lines) => lines.map((li) => li.textContent!.match(/^\d\d:\d\d([^:]+):/)?.[1]?.trim()));
    await expect.poll(async () => (await speakersOfLines()).length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(new Set(await speakersOfLines())).toEqual(new Set(['Speaker 1']));

    // Issue 32: the reader keeps a voice profile from this meeting, sees it in Settings, deletes it.
    const voices = page.getByRole('region', { name: 'Voices' });
    await voices.getByLabel('Is').selectOption({ label: 'Me' });
    await voices.getByRole('button', { name: 'This speaker is me' }).click();
    await toast(page, 'Learning your voice from this meeting…').waitFor();
    await voices.getByText('Your voice profile has this voice now: later meetings name you.').waitFor({ timeout: 30_000 });
    await expect.poll(async () => new Set(await speakersOfLines())).toEqual(new Set(['Ruth Reader']));
    await page.goto('/settings?tab=privacy');
    const profile = page.getByRole('region', { name: 'Voice profile' });
    await profile.getByRole('list', { name: 'Meetings your voice profile came from' }).getByRole('link', { name: 'One reader' }).waitFor();
    expect(await profile.getByText(/Voices are described by/).textContent()).toMatch(
      /^Voices are described by (Parley’s built-in voice features|the speaker embedding model)/,
    );
    await profile.getByRole('button', { name: 'Delete voice profile' }).click();
    await toast(page, 'Your voice profile was deleted.').waitFor();
    await profile.getByText('You have no voice profile.', { exact: false }).waitFor();
    await context.close();
  });
});
