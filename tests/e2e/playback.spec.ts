import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eServer, launchBrowser, PHONE } from '#tests/support/browser.ts';
import { signedInPage } from '#tests/support/e2e-auth.ts';

const { dataDir } = e2eServer();
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

/** Opens the account's sample "Weekly Team Standup" (six lines, 00:00 to 00:55) and answers its id. */
async function openStandup(page: Page): Promise<string> {
  await page.getByRole('link', { name: 'Weekly Team Standup' }).first().click();
  await page.waitForURL(/\/meetings\/[0-9a-f-]{36}$/);
  await page.getByRole('list', { name: 'Transcript' }).waitFor();
  return new URL(page.url()).pathname.split('/').at(-1)!;
}

/**
 * Gives the meeting a recording, stored as the recording flow stores one (a blob under a generated
 * key, named on the meeting): ten minutes of 16 kHz WAV, 19 MB, so the browser could not have it
 * all by the time it plays, and a byte offset is a moment (32,000 bytes a second).
 */
function attachRecording(meetingId: string): { bytes: number } {
  const id = crypto.randomUUID();
  const key = `${id.slice(0, 2)}/${id}.wav`;
  const file = path.join(dataDir, 'blobs', key);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=frequency=330:duration=600', '-ar', '16000', '-ac', '1', file]);
  const bytes = fs.statSync(file).size;
  const db = new Database(path.join(dataDir, 'parley.db'));
  db.prepare("update meetings set audio_key = ?, audio_mime = 'audio/wav', audio_bytes = ? where id = ?").run(key, bytes, meetingId);
  db.close();
  return { bytes };
}

/** The player's clock as the person reads it ("01:05 / 10:00"): seconds played. */
async function playedSeconds(page: Page): Promise<number> {
  const text = (await page.getByTestId('player-time').textContent()) ?? '';
  const [minutes, seconds] = text.split(' / ')[0]!.split(':').map(Number);
  return minutes! * 60 + seconds!;
}

type AudioRequest = { url: string; range: string | undefined; status?: number; contentRange?: string | undefined };

describe('the player', () => {
  it(
    'streams the recording with Range requests through a short-lived link, and plays, skips, changes speed and answers the keyboard',
    { timeout: 90_000 },
    async () => {
      const { context, page } = await signedInPage(browser, { fullName: 'Paula Player' });
      const meetingId = await openStandup(page);
      const { bytes } = attachRecording(meetingId);
      const requests: AudioRequest[] = [];
      const seen = new Map<Request, AudioRequest>();
      page.on('request', (request) => {
        if (!request.url().includes(`/api/v1/meetings/${meetingId}/audio`)) return;
        const record = { url: request.url(), range: request.headers().range };
        requests.push(record);
        seen.set(request, record);
      });
      page.on('response', (response) => {
        const record = seen.get(response.request());
        if (record) Object.assign(record, { status: response.status(), contentRange: response.headers()['content-range'] });
      });
      await page.reload();

      // The waveform's decoded length (the recording's ten minutes, not the 32 the meeting states).
      const position = page.getByRole('slider', { name: 'Playback position' });
      await expect.poll(() => position.getAttribute('aria-valuetext'), { timeout: 20_000 }).toBe('00:00 of 10:00');
      await page.getByRole('button', { name: 'Play', exact: true }).click();
      await page.getByRole('button', { name: 'Pause', exact: true }).waitFor();
      await expect.poll(() => playedSeconds(page), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);

      // The <audio> element asked for ranges of the link's address; nothing fetched the file whole with the bearer token.
      const streamed = requests.filter((r) => r.url.includes('/audio/stream?token='));
      expect(streamed.length).toBeGreaterThan(0);
      expect(requests.filter((r) => new URL(r.url).pathname === `/api/v1/meetings/${meetingId}/audio`)).toEqual([]);
      expect(streamed[0]!.range).toBe('bytes=0-');
      expect(streamed[0]!.status).toBe(206);
      expect(streamed[0]!.contentRange).toBe(`bytes 0-${bytes - 1}/${bytes}`);

      // Space pauses and plays again while focus is on the page, not a field.
      await page.getByRole('heading', { name: 'Weekly Team Standup' }).click();
      await page.keyboard.press('Space');
      await page.getByRole('button', { name: 'Play', exact: true }).waitFor();
      await page.keyboard.press('Space');
      await page.getByRole('button', { name: 'Pause', exact: true }).waitFor();

      // → skips 15 s at a time: to nine minutes in, where the browser fetches from the middle of the file.
      const before = await playedSeconds(page);
      for (let i = 0; i < 36; i += 1) await page.keyboard.press('ArrowRight');
      await expect.poll(() => playedSeconds(page), { timeout: 15_000 }).toBeGreaterThanOrEqual(before + 36 * 15);
      // Skips in quick succession cancel the requests of the ones before: one answered from the second half is what counts.
      const fromSecondHalf = (r: (typeof requests)[number]) =>
        r.url.includes('/audio/stream?token=') && Number(/^bytes=(\d+)-/.exec(r.range ?? '')?.[1]) > bytes / 2;
      await expect.poll(() => requests.some((r) => fromSecondHalf(r) && r.status === 206), { timeout: 15_000 }).toBe(true);
      const tail = requests.find((r) => fromSecondHalf(r) && r.status === 206)!;
      expect(tail.contentRange).toMatch(new RegExp(`^bytes \\d+-${bytes - 1}/${bytes}$`));
      // ← and the button go back.
      const atNine = await playedSeconds(page);
      await page.keyboard.press('ArrowLeft');
      await page.getByRole('button', { name: 'Back 15 seconds' }).click();
      await expect.poll(() => playedSeconds(page)).toBeLessThan(atNine - 20);
      await page.getByRole('button', { name: 'Pause', exact: true }).waitFor();

      // Speed: the element plays at the chosen rate, voices at their pitch.
      const speed = page.getByLabel('Playback speed');
      expect(await speed.locator('option').allTextContents()).toEqual(['0.75×', '1×', '1.25×', '1.5×', '1.75×', '2×']);
      await speed.selectOption('2');
      const audio = page.getByTestId('audio-player').locator('audio');
      expect(await audio.evaluate((element: HTMLAudioElement) => [element.playbackRate, element.preservesPitch])).toEqual([2, true]);
      await speed.selectOption('0.75');
      expect(await audio.evaluate((element: HTMLAudioElement) => element.playbackRate)).toBe(0.75);

      // Typing in the transcript's search box is typing: space and the arrows leave the player alone.
      const search = page.getByRole('searchbox', { name: 'Search the transcript' });
      await search.click();
      await page.keyboard.type('the api');
      await page.keyboard.press('ArrowLeft');
      expect(await search.inputValue()).toBe('the api');
      await page.getByRole('button', { name: 'Pause', exact: true }).waitFor();
      await context.close();
    },
  );

  it('asks for a new link when the one it plays through stops working, and carries on where it was', { timeout: 90_000 }, async () => {
    const { context, page } = await signedInPage(browser, { fullName: 'Lena Link' });
    const meetingId = await openStandup(page);
    attachRecording(meetingId);
    const links: string[] = [];
    page.on('response', async (response) => {
      if (response.url().endsWith(`/api/v1/meetings/${meetingId}/audio/link`)) links.push(((await response.json()) as { url: string }).url);
    });
    await page.reload();
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await expect.poll(() => playedSeconds(page), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    expect(links).toHaveLength(1);

    // The first link now answers as an expired one does; a seek far ahead needs bytes it has not fetched.
    const refused = new URL(links[0]!, page.url()).toString();
    await page.route(
      (url) => url.toString() === refused,
      (route) => route.fulfill({ status: 403, contentType: 'application/json', body: '{"error":{"code":"FORBIDDEN","message":"expired"}}' }),
    );
    await page.getByRole('slider', { name: 'Playback position' }).focus();
    for (let i = 0; i < 32; i += 1) await page.keyboard.press('ArrowRight');
    await expect.poll(() => links.length, { timeout: 15_000 }).toBe(2);
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await expect.poll(() => playedSeconds(page), { timeout: 15_000 }).toBeGreaterThan(8 * 60);
    expect(await page.getByText('This recording could not be played in this browser.').count()).toBe(0);
    await context.close();
  });
});

describe('searching the transcript', () => {
  it('marks every match, says which one is shown of how many, and steps through them both ways', async () => {
    const { context, page } = await signedInPage(browser, { fullName: 'Sid Search' });
    await openStandup(page);
    const transcript = page.getByRole('list', { name: 'Transcript' });
    const search = page.getByRole('searchbox', { name: 'Search the transcript' });
    const count = page.getByRole('search', { name: 'In this transcript' }).getByRole('status');

    // "the", in any case: nine times in five of the six lines.
    await search.fill('THE');
    await expect.poll(() => count.textContent()).toBe('1 of 9');
    expect(await transcript.locator('mark').allTextContents()).toEqual(['The', 'the', 'The', 'the', 'the', 'the', 'the', 'the', 'the']);
    const current = transcript.locator('mark[data-current="true"]');
    expect(await current.count()).toBe(1);
    const currentLine = () => current.evaluate((mark) => mark.closest('li')!.textContent);
    expect(await currentLine()).toContain('The new onboarding flow');

    await page.getByRole('button', { name: 'Next match' }).click();
    await expect.poll(() => count.textContent()).toBe('2 of 9');
    expect(await current.textContent()).toBe('the');
    await search.press('Enter');
    await expect.poll(() => count.textContent()).toBe('3 of 9');
    expect(await currentLine()).toContain('The API migration');
    await search.press('Shift+Enter');
    await search.press('Shift+Enter');
    await expect.poll(() => count.textContent()).toBe('1 of 9');
    await page.getByRole('button', { name: 'Previous match' }).click();
    await expect.poll(() => count.textContent()).toBe('9 of 9');
    expect(await currentLine()).toContain('regression by Wednesday');

    await search.fill('production credentials');
    await expect.poll(() => count.textContent()).toBe('1 of 1');
    expect(await transcript.locator('mark').allTextContents()).toEqual(['production credentials']);
    await search.fill('kubernetes');
    await expect.poll(() => count.textContent()).toBe('No matches');
    expect(await page.getByRole('button', { name: 'Next match' }).isDisabled()).toBe(true);
    expect(await transcript.locator('mark').count()).toBe(0);
    await context.close();
  });
});

describe('correcting a line', () => {
  const opacity = (page: Page, name: string) => page.getByRole('button', { name }).evaluate((button) => getComputedStyle(button).opacity);

  it('on a touch screen: the pencil is there without hovering, Enter saves and Esc cancels', async () => {
    const { context, page } = await signedInPage(browser, { fullName: 'Tia Touch', viewport: PHONE, touch: true });
    await openStandup(page);
    const transcript = page.getByRole('list', { name: 'Transcript' });
    expect(await opacity(page, 'Edit the line at 00:35')).toBe('1');

    await page.getByRole('button', { name: 'Edit the line at 00:35' }).tap();
    const text = page.getByLabel('Text of the line at 00:35');
    await text.fill('I will chase the platform team today.');
    await text.press('Enter');
    // (Only once the editor is gone: React keeps a textarea's text content in step with what is typed.)
    await text.waitFor({ state: 'detached' });
    await transcript.getByText('I will chase the platform team today.').waitFor();

    await page.getByRole('button', { name: 'Edit the line at 00:35' }).tap();
    await text.fill('Something I did not mean to say.');
    await text.press('Escape');
    await text.waitFor({ state: 'detached' });
    expect(await transcript.getByText('Something I did not mean to say.').count()).toBe(0);
    await transcript.getByText('I will chase the platform team today.').waitFor();
    // Shift+Enter is a new line in the text, not a save.
    await page.getByRole('button', { name: 'Edit the line at 00:35' }).tap();
    await text.press('Control+End');
    await text.press('Shift+Enter');
    expect(await text.inputValue()).toBe('I will chase the platform team today.\n');
    await context.close();
  });

  it('with a mouse: the pencil shows on hovering its line, and on focus for the keyboard', async () => {
    const { context, page } = await signedInPage(browser, { fullName: 'Max Mouse' });
    await openStandup(page);
    await expect.poll(() => opacity(page, 'Edit the line at 00:35')).toBe('0');
    await page.getByRole('list', { name: 'Transcript' }).getByText("I'll chase that with the platform team today.").hover();
    await expect.poll(() => opacity(page, 'Edit the line at 00:35')).toBe('1');
    await page.mouse.move(0, 0);
    await expect.poll(() => opacity(page, 'Edit the line at 00:35')).toBe('0');
    await page.getByRole('button', { name: 'Edit the line at 00:35' }).focus();
    await expect.poll(() => opacity(page, 'Edit the line at 00:35')).toBe('1');
    await context.close();
  });
});
