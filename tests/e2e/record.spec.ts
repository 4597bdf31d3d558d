import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measureAudio, probeDurationMs } from '#server/lib/ffmpeg.ts';
import { chooseOption, launchBrowser, uniqueEmail } from '#tests/support/browser.ts';
import { findFreePort } from '#tests/support/build-test-app.ts';
import { signedInPage, toast } from '#tests/support/e2e-auth.ts';
import { spawnServer } from '#tests/support/spawn-server.ts';

// Recording with chromium's fake microphone (a synthetic tone), against the built server.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

/** What the page's IndexedDB still holds of its recordings (bytes recorded and acknowledged). */
const localRecordings = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<{ bytesRecorded: number; bytesAcked: number }[]>((resolve, reject) => {
        const open = indexedDB.open('parley-recordings');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const request = open.result.transaction('recordings').objectStore('recordings').getAll();
          request.onsuccess = () => resolve(request.result as { bytesRecorded: number; bytesAcked: number }[]);
          request.onerror = () => reject(request.error);
        };
      }),
  );

/**
 * Resolves once React has rendered what the page's timers just did: React schedules that render as a
 * MessageChannel message, so a message posted now arrives after it.
 */
const reactRendered = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve();
        channel.port2.postMessage(null);
      }),
  );

const apiJson = async <T>(page: Page, pathAndQuery: string): Promise<T> =>
  page.evaluate(async (url) => {
    const key = Object.keys(localStorage).find((k) => k.endsWith('-auth-token'))!;
    const token = (JSON.parse(localStorage.getItem(key)!) as { access_token: string }).access_token;
    return (await fetch(url, { headers: { authorization: `Bearer ${token}` } })).json();
  }, pathAndQuery) as Promise<T>;

describe('recording a meeting', () => {
  it('records, pauses, resumes, stops and saves; the meeting and its audio are stored', async () => {
    const { context, page } = await signedInPage(browser, { fullName: 'Rita Recorder', email: uniqueEmail('rec'), password: 'recorder1' });
    // The page's timers run on the real clock; the pause skips time ahead on it instead of waiting.
    await page.clock.install();
    await page.goto('/record');
    await page.getByLabel('Meeting title').fill('Fake mic standup');
    await page.getByRole('button', { name: 'Start Recording' }).click();
    await toast(page, 'Recording started').waitFor();
    await expect.poll(() => page.getByRole('timer').innerText(), { timeout: 10_000 }).toMatch(/^00:0[3-9]$/);
    await page.getByRole('button', { name: 'Pause' }).click();
    await toast(page, 'Recording paused').waitFor();
    const pausedAt = await page.getByRole('timer').innerText();
    // Two seconds pass while paused: a timer still running would tick on them.
    await page.clock.runFor(2000);
    await reactRendered(page);
    expect(await page.getByRole('timer').innerText()).toBe(pausedAt); // the timer stops while paused
    await page.getByRole('button', { name: 'Resume' }).click();
    await toast(page, 'Recording resumed').waitFor();
    // Recording goes on past 5 s of audio, and part of it has reached the server.
    await expect.poll(() => page.getByRole('timer').innerText(), { timeout: 10_000 }).toMatch(/^00:(0[6-9]|[1-5]\d)$/);
    await expect.poll(() => page.getByText(/saved on the server: [1-9]/).count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Stop Recording' }).click();
    await toast(page, 'Recording stopped').waitFor();
    await page.getByRole('button', { name: 'Save Meeting' }).click();
    await toast(page, 'Meeting saved').filter({ hasText: 'Fake mic standup' }).waitFor();
    // Its page opens, as after an upload or an import, where its progress shows.
    await page.waitForURL(/\/meetings\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { level: 1, name: 'Fake mic standup' }).waitFor();
    // The upload completes, the browser drops its copy, and the meeting has its audio.
    await expect.poll(async () => (await localRecordings(page)).length, { timeout: 30_000 }).toBe(0);
    type List = { items: { id: string; title: string; hasAudio: boolean; durationSeconds: number; source: string }[] };
    const found = await apiJson<List>(page, '/api/v1/meetings?q=fake%20mic');
    expect(found.items).toHaveLength(1);
    expect(found.items[0]).toMatchObject({ title: 'Fake mic standup', hasAudio: true, source: 'mic' });
    expect(found.items[0]!.durationSeconds).toBeGreaterThanOrEqual(5);
    // After a reload it is on the dashboard and in the history, where it downloads and shares.
    await page.goto('/dashboard');
    await page.getByText('Fake mic standup').waitFor();
    await page.goto('/history');
    await page.reload();
    await page.getByRole('button', { name: 'Actions for Fake mic standup' }).click();
    await page.getByRole('menu').getByRole('menuitem', { name: 'Download' }).click();
    const formats = page.getByRole('menu').last();
    const [download] = await Promise.all([page.waitForEvent('download'), formats.getByRole('menuitem', { name: 'Audio' }).click()]);
    const audioFile = (await download.path())!;
    expect((await measureAudio(audioFile)).durationMs).toBeGreaterThanOrEqual(5000);
    // The browser's WebM did not say how long it is; the download (MP3, the default file format) does.
    expect(download.suggestedFilename()).toBe('Fake mic standup.mp3');
    expect(await probeDurationMs(audioFile)).toBeGreaterThanOrEqual(5000);
    await page.getByRole('button', { name: 'Actions for Fake mic standup' }).click();
    await page.getByRole('menu').getByRole('menuitem', { name: 'Share', exact: true }).click();
    const share = page.getByRole('dialog', { name: 'Share meeting' });
    await share.getByRole('button', { name: 'Create link' }).click();
    const url = await share.getByRole('textbox', { name: 'Share link' }).inputValue();
    const guest = await browser.newContext();
    const guestPage = await guest.newPage();
    await guestPage.goto(url);
    await guestPage.getByRole('heading', { name: 'Fake mic standup', level: 1 }).waitFor();
    await guest.close();
    // On its page, its owner is told how this server could transcribe better (it runs the basic engine).
    await page.goto(`/meetings/${found.items[0]!.id}`);
    const better = page.getByRole('note', { name: 'Better transcripts' });
    await better.waitFor();
    expect(await better.textContent()).toContain('whoever runs it can install the recommended speech model with npm run models -- fetch parakeet-tdt-110m-en');
    await context.close();
  });

  it('without a microphone it says so and offers the demo recording', async () => {
    const { context, page } = await signedInPage(browser, { fullName: 'No Mic', email: uniqueEmail('nomic'), password: 'nomic1234' });
    await page.goto('/record');
    // Pretend the person refused the microphone.
    await page.evaluate(() => {
      navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('denied', 'NotAllowedError'));
    });
    await page.getByRole('button', { name: 'Start Recording' }).click();
    await page.getByText('Parley may not use your microphone').waitFor();
    await page.getByRole('button', { name: 'Try a demo recording' }).click();
    const panel = page.getByTestId('transcript-panel');
    await panel.getByText('Alex Johnson:').first().waitFor();
    await expect.poll(() => panel.getByText('Sarah Miller:').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await context.close();
  });
});

/** Flags in the page, from its first load on, whether the unfinished-uploads banner was ever on screen. */
const watchUnfinishedBanner = (page: Page) =>
  page.addInitScript(() => {
    const w = window as unknown as { bannerSeen: boolean };
    w.bannerSeen = false;
    new MutationObserver(() => {
      if (document.body?.textContent?.includes('This browser holds recordings that did not finish uploading.')) w.bannerSeen = true;
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });

/** A recording this browser kept of `meetingId` whose upload's answer never came back: no upload address, bytes said to be held. */
const leaveLocalCopy = (page: Page, meetingId: string, title: string) =>
  page.evaluate(
    ({ meetingId, title }) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('parley-recordings');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction('recordings', 'readwrite');
          tx.objectStore('recordings').put({
            id: crypto.randomUUID(),
            meetingId,
            title,
            mimeType: 'audio/webm',
            startedAt: new Date().toISOString(),
            bytesRecorded: 4096,
            bytesAcked: 0,
            stopped: true,
            durationSeconds: 4,
            uploadUrl: null,
          });
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(tx.error);
        };
      }),
    { meetingId, title },
  );

describe('the banner of recordings that did not finish uploading', () => {
  it('never lists the recording just saved, while it uploads or once it is ready; a leftover the server already holds resumes to saved', async () => {
    const { context, page } = await signedInPage(browser, { fullName: 'Bea Banner', email: uniqueEmail('banner'), password: 'banner123' });
    await watchUnfinishedBanner(page);
    await page.goto('/record');
    await page.getByLabel('Meeting title').fill('Saved while recording');
    await page.getByRole('button', { name: 'Start Recording' }).click();
    await toast(page, 'Recording started').waitFor();
    await expect.poll(() => page.getByRole('timer').innerText(), { timeout: 10_000 }).toMatch(/^00:0[3-9]$/);
    // Saved without stopping first: the last bytes are still to upload when the page is ready for the next recording.
    await page.getByRole('button', { name: 'Save Meeting' }).click();
    await toast(page, 'Meeting saved').filter({ hasText: 'Saved while recording' }).waitFor();
    await expect.poll(async () => (await localRecordings(page)).length, { timeout: 30_000 }).toBe(0);
    // Its page opened; transcribed, and back on /record the banner still never listed it.
    await page.waitForURL(/\/meetings\/[0-9a-f-]{36}$/);
    type List = { items: { id: string; hasAudio: boolean; status: string }[] };
    const status = async () => (await apiJson<List>(page, '/api/v1/meetings?q=saved%20while%20recording')).items[0]?.status;
    await expect.poll(status, { timeout: 60_000, interval: 500 }).toBe('ready');
    await page.goto('/record');
    await page.getByRole('button', { name: 'Start Recording' }).waitFor();
    const [saved] = (await apiJson<List>(page, '/api/v1/meetings?q=saved%20while%20recording')).items;
    expect(saved).toMatchObject({ hasAudio: true, status: 'ready' });
    expect(await page.evaluate(() => (window as unknown as { bannerSeen: boolean }).bannerSeen)).toBe(false);

    // A copy left behind (the upload's last answer was lost): offered once, and resuming it hears
    // that the server holds the audio already, which is success.
    await leaveLocalCopy(page, saved!.id, 'Saved while recording');
    await page.reload();
    const banner = page.getByRole('region', { name: 'Unfinished recordings' });
    await banner.getByText(/^Saved while recording · 00:04/).waitFor();
    await banner.getByRole('button', { name: 'Resume upload' }).click();
    await toast(page, 'Meeting saved').filter({ hasText: 'Saved while recording' }).waitFor();
    await banner.waitFor({ state: 'detached' });
    expect(await localRecordings(page)).toEqual([]);
    expect(await page.getByText('This meeting already has its audio.').count()).toBe(0);
    await context.close();
  });
});

describe('auto-delete, told where it matters', () => {
  it('says on /record and on a meeting’s page when recordings go, links to Settings › Privacy, and says nothing once it is off', async () => {
    const { context, page } = await signedInPage(browser, { fullName: 'Otto Delete', email: uniqueEmail('autodel'), password: 'autodel12' });
    await page.goto('/record');
    const note = page.getByRole('note', { name: 'Auto-delete' });
    expect(await note.textContent()).toBe('Recordings are deleted automatically 90 days after they are made (auto-delete). Change this in Settings › Privacy.');

    const meeting = await page.evaluate(async () => {
      const key = Object.keys(localStorage).find((k) => k.endsWith('-auth-token'))!;
      const token = (JSON.parse(localStorage.getItem(key)!) as { access_token: string }).access_token;
      const response = await fetch('/api/v1/meetings/imports', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ fileName: 'kept-for-a-while.txt', content: 'Ada: We ship on Friday.', title: 'Kept for a while' }),
      });
      return (await response.json()) as { id: string; createdAt: string };
    });
    await page.goto(`/meetings/${meeting.id}`);
    await page.getByRole('heading', { name: 'Kept for a while' }).waitFor();
    // 90 days from when it came in, as this browser writes dates.
    const day = await page.evaluate(
      (createdAt) =>
        new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', year: 'numeric' }).format(
          new Date(new Date(createdAt).getTime() + 90 * 86_400_000),
        ),
      meeting.createdAt,
    );
    expect(await note.textContent()).toBe(`This meeting will be deleted on ${day} (auto-delete after 90 days). Change this in Settings › Privacy.`);

    // The link opens the Privacy tab, where auto-delete is turned off.
    await note.getByRole('link', { name: 'Settings › Privacy' }).click();
    await page.waitForURL('**/settings?tab=privacy');
    await page.getByRole('tab', { name: 'Privacy', selected: true }).waitFor();
    await chooseOption(page, page.getByRole('combobox', { name: 'Auto-delete recordings' }), 'Never');
    await page.getByRole('button', { name: 'Update Privacy Settings' }).click();
    await toast(page, 'Privacy settings updated').waitFor();

    // Back on the meeting (in the app: the saved settings are what it reads, no load to wait for), and on /record.
    await page.goBack();
    await page.getByRole('heading', { name: 'Kept for a while' }).waitFor();
    expect(await note.count()).toBe(0);
    await page.getByRole('link', { name: 'Record Meeting', exact: true }).first().click();
    await page.getByRole('button', { name: 'Start Recording' }).waitFor();
    expect(await note.count()).toBe(0);
    await context.close();
  });
});

describe('audio quality', () => {
  it('records at the Audio Quality chosen in Settings › Recording, and at 128 kbit/s with High Quality Audio', async () => {
    const { context, page } = await signedInPage(browser, { fullName: 'Quinn Quality', email: uniqueEmail('quality'), password: 'quality12' });
    // The bitrate each MediaRecorder is asked for, as the page makes them.
    await page.addInitScript(() => {
      const Native = window.MediaRecorder;
      const asked: (number | undefined)[] = [];
      Object.assign(window, { askedBitrates: asked });
      window.MediaRecorder = class extends Native {
        constructor(stream: MediaStream, options?: MediaRecorderOptions) {
          super(stream, options);
          asked.push(options?.audioBitsPerSecond);
        }
      };
    });
    const askedBitrates = () => page.evaluate(() => (window as unknown as { askedBitrates: (number | undefined)[] }).askedBitrates);

    await page.goto('/settings?tab=recording');
    await chooseOption(page, page.getByRole('combobox', { name: 'Audio Quality' }), 'Standard');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await toast(page, 'Recording settings saved').waitFor();

    await page.getByRole('link', { name: 'Record Meeting', exact: true }).first().click();
    await page.getByText('Otherwise your Audio Quality in Settings › Recording: Standard, 32 kbit/s.', { exact: false }).waitFor();
    const recordOnce = async (title: string) => {
      await page.getByLabel('Meeting title').fill(title);
      // The buttons, not the toasts, say where it is: the last recording's toasts may still be showing.
      await page.getByRole('button', { name: 'Start Recording' }).click();
      await page.getByRole('button', { name: 'Stop Recording' }).click();
      await page.getByRole('button', { name: 'Save Meeting' }).click();
      await toast(page, 'Meeting saved').filter({ hasText: title }).waitFor();
      // Its page opens; back to /record for the next one.
      await page.waitForURL(/\/meetings\/[0-9a-f-]{36}$/);
      await page.getByRole('link', { name: 'Record Meeting', exact: true }).first().click();
      await page.getByRole('button', { name: 'Start Recording' }).waitFor();
    };
    await recordOnce('At standard quality');
    expect(await askedBitrates()).toEqual([32_000]);
    await page.getByRole('switch', { name: 'High Quality Audio' }).click();
    await recordOnce('At high quality');
    expect(await askedBitrates()).toEqual([32_000, 128_000]);
    await context.close();
  });
});

describe('a server outage during a recording', () => {
  it('loses no audio: chunks wait in IndexedDB and upload when the server returns', async () => {
    const port = await findFreePort();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-outage-'));
    let server = await spawnServer({ port, dataDir });
    const { context, page } = await signedInPage(browser, {
      baseUrl: server.baseUrl,
      fullName: 'Olga Outage',
      email: uniqueEmail('outage'),
      password: 'outage123',
    });
    try {
      await page.goto('/record');
      await page.getByLabel('Meeting title').fill('Outage test');
      await page.getByRole('button', { name: 'Start Recording' }).click();
      await expect.poll(() => page.getByText(/saved on the server: [1-9]/).count(), { timeout: 15_000 }).toBeGreaterThan(0);
      await server.stop('SIGKILL'); // the server dies mid-recording
      // Recording goes on through the outage (past 00:05), and what the server never acknowledged is held locally.
      await expect.poll(() => page.getByRole('timer').innerText(), { timeout: 15_000 }).toMatch(/^00:(0[5-9]|[1-5]\d)$/);
      const unacknowledged = async () => {
        const [recording] = await localRecordings(page);
        return recording!.bytesRecorded - recording!.bytesAcked;
      };
      await expect.poll(unacknowledged, { timeout: 10_000 }).toBeGreaterThan(0);
      const ackedDuringOutage = (await localRecordings(page))[0]!.bytesAcked;
      server = await spawnServer({ port, dataDir });
      // The server is back: the held chunks upload while the recording goes on.
      await expect.poll(async () => (await localRecordings(page))[0]!.bytesAcked, { timeout: 20_000 }).toBeGreaterThan(ackedDuringOutage);
      await expect.poll(() => page.getByRole('timer').innerText(), { timeout: 15_000 }).toMatch(/^00:(0[7-9]|[1-5]\d)$/);
      await page.getByRole('button', { name: 'Stop Recording' }).click();
      // The recorder's last chunk lands after Stop; wait until the recorded total settles.
      const status = page.getByTestId('recording-status');
      let recorded = -1;
      await expect
        .poll(
          async () => {
            const now = Number(await status.getAttribute('data-bytes-recorded'));
            const settled = now === recorded;
            recorded = now;
            return settled;
          },
          { interval: 1000, timeout: 15_000 },
        )
        .toBe(true);
      expect(recorded).toBeGreaterThan(0);
      await page.getByRole('button', { name: 'Save Meeting' }).click();
      await toast(page, 'Meeting saved').waitFor();
      await expect.poll(async () => (await localRecordings(page)).length, { timeout: 60_000 }).toBe(0);
      // Every recorded byte is on the server, and ffmpeg reads the whole file.
      const blobs = fs
        .readdirSync(path.join(dataDir, 'blobs'), { recursive: true })
        .map(String)
        .filter((f) => f.endsWith('.webm'));
      expect(blobs).toHaveLength(1);
      const file = path.join(dataDir, 'blobs', blobs[0]!);
      expect(fs.statSync(file).size).toBe(recorded);
      const { durationMs } = await measureAudio(file);
      expect(durationMs).toBeGreaterThan(6000);
    } finally {
      await context.close();
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
