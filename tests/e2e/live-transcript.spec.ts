import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newPage, uniqueEmail } from '#tests/support/browser.ts';
import { signUp, toast } from '#tests/support/e2e-auth.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';

const baseUrl = inject('baseUrl');
let browser: Browser;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-live-e2e-'));

beforeAll(async () => {
  // The fake microphone reads (and loops) this file: real read speech instead of a beep.
  const speech = path.join(dir, 'speech.wav');
  execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', path.join(sharedAudioDir(), 'librivox_ss_5utt.wav'), '-ar', '48000', '-ac', '1', '-c:a', 'pcm_s16le', speech]);
  browser = await launchBrowser([`--use-file-for-fake-audio-capture=${speech}`, '--autoplay-policy=no-user-gesture-required']);
});
afterAll(async () => {
  await browser.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;

describe('the live transcript on /record', () => {
  it('shows real lines with speaker and time while recording, a few seconds behind speech', { timeout: 90_000 }, async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await signUp(page, { fullName: 'Ada Lovelace', email: uniqueEmail('live'), password: 'analytical1' });
    await page.goto('/record');
    // When each line appears, and when the live transcript started listening (its time zero).
    await page.evaluate(() => {
      const w = window as unknown as { liveTimes: { listening?: number; lines: number[] } };
      w.liveTimes = { lines: [] };
      new MutationObserver(() => {
        const panel = document.querySelector('[data-testid="transcript-panel"]');
        if (!panel) return;
        if (w.liveTimes.listening === undefined && panel.textContent?.startsWith('Listening')) w.liveTimes.listening = performance.now();
        const count = panel.querySelectorAll('li').length;
        while (w.liveTimes.lines.length < count) w.liveTimes.lines.push(performance.now());
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.getByRole('textbox', { name: 'Meeting title' }).fill('Live transcript check');
    await page.getByRole('button', { name: 'Start Recording' }).click();
    const panel = page.getByTestId('transcript-panel');
    await panel.getByText('Listening…').waitFor({ timeout: 15_000 });
    await expect.poll(() => panel.locator('li').count(), { timeout: 45_000, interval: 250 }).toBeGreaterThanOrEqual(3);

    const items = await panel.locator('li').allTextContents();
    expect(items[0]).toMatch(/^\d\d:\d\dSpeaker 1: \S+/);
    expect(items.join(' ').toLowerCase()).toMatch(/john|leisure|consider|young man|respectable/);

    // Latency: a line's end (its time in the recording, from the server) to the moment it is on screen.
    const times = await page.evaluate(() => (window as unknown as { liveTimes: { listening: number; lines: number[] } }).liveTimes);
    const endsMs = await panel.locator('li').evaluateAll((els) => els.map((el) => Number((el as HTMLElement).dataset.endMs)));
    const latencies = endsMs.map((end, i) => times.lines[i]! - times.listening - end);
    console.log(`live transcript latency (speech end → line on screen): p50 ${Math.round(percentile(latencies, 50))} ms, p95 ${Math.round(percentile(latencies, 95))} ms over ${latencies.length} lines`);
    expect(percentile(latencies, 50)).toBeLessThan(15_000); // generous: a broken stream shows nothing at all
    const clock = items.map((text) => text.slice(0, 5));
    expect(clock.every((c, i) => i === 0 || c >= clock[i - 1]!)).toBe(true);

    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.getByRole('button', { name: 'Save Meeting' }).click();
    await toast(page, 'Meeting saved').waitFor();
    // The live lines stay until the saved meeting's own transcript replaces them.
    await page.getByText('The saved meeting’s transcript').waitFor({ timeout: 45_000 });
    expect(await panel.locator('li').count()).toBeGreaterThan(0);
    await context.close();
  });

  it('records a shared tab’s audio as a second source, which becomes its own speaker', { timeout: 120_000 }, async () => {
    const { context, page } = await newPage(browser, baseUrl);
    await signUp(page, { fullName: 'Grace Hopper', email: uniqueEmail('tab'), password: 'cobol12345' });
    // The "tab": real speech played by an <audio> element, its sound captured as a MediaStream
    // (headless chromium has no tab picker; getDisplayMedia hands this stream over instead).
    const tabSpeech = fs.readFileSync(path.join(sharedAudioDir(), 'librispeech_mr_quilter.wav'));
    await page.route('**/tab-speech.wav', (route) => route.fulfill({ body: tabSpeech, contentType: 'audio/wav' }));
    await page.goto('/record');
    await page.evaluate(() => {
      navigator.mediaDevices.getDisplayMedia = async () => {
        const audio = new Audio('/tab-speech.wav');
        audio.loop = true;
        await audio.play();
        return (audio as HTMLAudioElement & { captureStream: () => MediaStream }).captureStream();
      };
    });
    await page.getByRole('textbox', { name: 'Meeting title' }).fill('Call with a shared tab');
    await page.getByRole('switch', { name: 'Also record a shared tab’s audio' }).click();
    await page.getByRole('button', { name: 'Start Recording' }).click();
    await toast(page, 'Recording started').waitFor();
    await expect.poll(() => page.getByRole('timer', { name: 'Recording time' }).textContent(), { timeout: 20_000 }).toBe('00:08');
    await page.getByRole('button', { name: 'Save Meeting' }).click();
    await toast(page, 'Meeting saved').waitFor();

    await page.getByRole('link', { name: 'Meeting History' }).first().click();
    await page.getByRole('link', { name: 'View Details of Call with a shared tab' }).click();
    const transcript = page.getByRole('list', { name: 'Transcript' });
    await transcript.waitFor({ timeout: 60_000 });
    const text = (await transcript.textContent()) ?? '';
    expect(text).toContain('Microphone');
    expect(text).toContain('Shared tab');
    expect(text.toLowerCase()).toMatch(/john|leisure|consider|power|might/); // the fake microphone reads librivox
    expect(text.toLowerCase()).toMatch(/quilter|apostle|middle|classes|gospel/);
    await context.close();
  });
});
