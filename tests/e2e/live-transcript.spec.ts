import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import NodeWebSocket from 'ws';
import { LIVE_PATH, LiveServerMessageSchema } from '#shared/contracts/live.ts';
import { launchBrowser, uniqueEmail } from '#tests/support/browser.ts';
import { findFreePort } from '#tests/support/build-test-app.ts';
import { signedInPage, toast } from '#tests/support/e2e-auth.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';
import { spawnServer, type SpawnedServer } from '#tests/support/spawn-server.ts';
import { startTcpProxy } from '#tests/support/tcp-proxy.ts';

let browser: Browser;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-live-e2e-'));

beforeAll(async () => {
  // Chromium's fake capture devices read (and loop) this file: real read speech instead of a beep.
  // Its microphone and the audio of its fake screen share both play it.
  const speech = path.join(dir, 'speech.wav');
  execFileSync('ffmpeg', [
    '-nostdin',
    '-loglevel',
    'error',
    '-y',
    '-i',
    path.join(sharedAudioDir(), 'librivox_ss_5utt.wav'),
    '-ar',
    '48000',
    '-ac',
    '1',
    '-c:a',
    'pcm_s16le',
    speech,
  ]);
  browser = await launchBrowser([`--use-file-for-fake-audio-capture=${speech}`, '--autoplay-policy=no-user-gesture-required']);
});
afterAll(async () => {
  await browser.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;

/**
 * Measures in the page, before it loads: when the live transcript's audio clock started and when each
 * line appeared. The AudioWorklet posts a 100 ms frame each time it has one, so frame n cannot reach
 * the page before n × 100 ms after capture began, but may reach it later (a busy main thread delivers
 * several at once): the earliest of (arrival − n × 100 ms) over all frames is the start, which the
 * first frame alone overestimated by a second on a loaded machine.
 */
async function watchLiveTranscript(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { liveTimes: { clockStart: number; lines: Record<string, number> } };
    w.liveTimes = { clockStart: Infinity, lines: {} };
    let frames = 0;
    const Native = window.AudioWorkletNode;
    window.AudioWorkletNode = class extends Native {
      constructor(...args: ConstructorParameters<typeof AudioWorkletNode>) {
        super(...args);
        this.port.addEventListener('message', () => {
          frames += 1;
          w.liveTimes.clockStart = Math.min(w.liveTimes.clockStart, performance.now() - frames * 100);
        });
      }
    };
    // The live transcript's sockets, so a test can cut one as a network failure would, and what
    // each sent: the clock it started on (the auth message's offsetMs) and the bytes of audio.
    const NativeSocket = window.WebSocket;
    const sockets: WebSocket[] = [];
    const sent: Array<{ offsetMs?: number; audioBytes: number }> = [];
    (window as unknown as { liveSockets: WebSocket[] }).liveSockets = sockets;
    (window as unknown as { liveSent: typeof sent }).liveSent = sent;
    window.WebSocket = class extends NativeSocket {
      constructor(...args: ConstructorParameters<typeof WebSocket>) {
        super(...args);
        if (!String(args[0]).includes('/realtime/live')) return;
        sockets.push(this);
        const log = { audioBytes: 0 } as (typeof sent)[number];
        sent.push(log);
        const send = this.send.bind(this);
        this.send = (data) => {
          if (typeof data === 'string') log.offsetMs ??= (JSON.parse(data) as { offsetMs?: number }).offsetMs;
          else log.audioBytes += (data as ArrayBuffer).byteLength;
          send(data);
        };
      }
    };
    new MutationObserver(() => {
      for (const li of document.querySelectorAll<HTMLElement>('[data-testid="transcript-panel"] li[data-end-ms]')) {
        const key = `${li.dataset.speaker}@${li.dataset.endMs}`;
        w.liveTimes.lines[key] ??= performance.now();
      }
    }).observe(document, { subtree: true, childList: true });
  });
}

/** Speech end (in the recording) → line on screen, for every live line shown. */
async function liveLatencies(page: Page): Promise<number[]> {
  const times = await page.evaluate(() => (window as unknown as { liveTimes: { clockStart: number; lines: Record<string, number> } }).liveTimes);
  return Object.entries(times.lines).map(([key, shownAt]) => shownAt - times.clockStart - Number(key.split('@')[1]));
}

/** "01:05…" → 65. */
const seconds = (text: string) => Number(text.slice(0, 2)) * 60 + Number(text.slice(3, 5));

const linesBy = (page: Page, speaker: string) => page.getByTestId('transcript-panel').locator(`li[data-speaker="${speaker}"]`);

describe('the live transcript on /record', () => {
  // Real time: it records for real, and the live recogniser and then the saved meeting's transcription
  // share two cores with lint and the engines' tests, then taking more than twice as long as alone.
  it('shows real lines with speaker and time while recording, a few seconds behind speech', { timeout: 240_000 }, async () => {
    const { context, page } = await signedInPage(browser, { fullName: 'Ada Lovelace', email: uniqueEmail('live'), password: 'analytical1' });
    await watchLiveTranscript(page);
    await page.goto('/record');
    await page.getByRole('textbox', { name: 'Meeting title' }).fill('Live transcript check');
    await page.getByRole('button', { name: 'Start Recording' }).click();
    const panel = page.getByTestId('transcript-panel');
    await panel
      .getByText(
        'Listening… each sentence appears here a few seconds after it is spoken. Your microphone’s lines are marked “You”; the saved transcript tells the voices in the room apart.',
      )
      .waitFor({ timeout: 15_000 });
    // The file's five utterances (24.7 s) and the start of the next loop.
    await expect.poll(() => panel.locator('li').count(), { timeout: 45_000, interval: 250 }).toBeGreaterThanOrEqual(5);

    const items = await panel.locator('li').allTextContents();
    // Named by their source: the microphone is the person recording.
    expect(items[0]).toMatch(/^\d\d:\d\dYou: \S+/);
    expect(items.join(' ').toLowerCase()).toMatch(/john|leisure|consider|young man|respectable/);
    const clock = items.map((text) => text.slice(0, 5));
    expect(clock.every((c, i) => i === 0 || c >= clock[i - 1]!)).toBe(true);
    // The panel follows the newest line.
    expect(await panel.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)).toBeLessThan(48);

    const latencies = await liveLatencies(page);
    console.log(
      `live transcript latency (speech end → line on screen): p50 ${Math.round(percentile(latencies, 50))} ms, p95 ${Math.round(percentile(latencies, 95))} ms over ${latencies.length} lines`,
    );
    expect(percentile(latencies, 50)).toBeLessThan(15_000); // generous: a broken stream shows nothing at all
    expect(Math.min(...latencies)).toBeGreaterThan(0); // a line cannot appear before its speech ends

    // Paused: no audio is sent and the recording's clock stands still; once what was sent has been
    // answered (the audio sent and the lines on screen stop changing), resumed, lines go on from the
    // same clock.
    await page.getByRole('button', { name: 'Pause' }).click();
    const pausedAt = await page.getByRole('timer', { name: 'Recording time' }).textContent();
    const sentAndShown = () =>
      page.evaluate(() => {
        const sent = (window as unknown as { liveSent: Array<{ audioBytes: number }> }).liveSent.reduce((sum, s) => sum + s.audioBytes, 0);
        return `${sent} bytes, ${document.querySelectorAll('[data-testid="transcript-panel"] li').length} lines`;
      });
    let before = '';
    await expect
      .poll(
        async () => {
          const now = await sentAndShown();
          const settled = now === before;
          before = now;
          return settled;
        },
        { interval: 1000, timeout: 20_000 },
      )
      .toBe(true);
    expect(await page.getByRole('timer', { name: 'Recording time' }).textContent()).toBe(pausedAt);
    const linesBeforeResume = await panel.locator('li').count();
    await page.getByRole('button', { name: 'Resume' }).click();
    await expect.poll(() => panel.locator('li').count(), { timeout: 30_000, interval: 250 }).toBeGreaterThan(linesBeforeResume);
    // On the recording's clock, which stood still during the pause (the live clock starts a moment after
    // the timer). A busy recogniser may still be finishing a line from before the pause: the next one shows.
    const lastLine = async () => seconds((await panel.locator('li').last().textContent())!);
    await expect.poll(lastLine, { timeout: 30_000, interval: 250 }).toBeGreaterThanOrEqual(seconds(pausedAt!) - 2);
    expect(await lastLine()).toBeLessThanOrEqual(seconds((await page.getByRole('timer', { name: 'Recording time' }).textContent())!));

    // The connection drops: the live transcript reconnects and goes on with the recording's clock.
    const linesBeforeDrop = await panel.locator('li').count();
    await page.evaluate(() => (window as unknown as { liveSockets: WebSocket[] }).liveSockets.at(-1)!.close(4000, 'test: connection lost'));
    await expect.poll(() => page.evaluate(() => (window as unknown as { liveSockets: WebSocket[] }).liveSockets.length), { timeout: 10_000 }).toBe(2);
    await expect.poll(() => panel.locator('li').count(), { timeout: 30_000, interval: 250 }).toBeGreaterThan(linesBeforeDrop);
    // The audio captured while it was away went with the new connection, on the recording's clock:
    // it starts where the first connection's audio ended (16 kHz 16-bit mono is 32 bytes a ms), not
    // a second or more later, when it reconnected.
    const [first, second] = await page.evaluate(() => (window as unknown as { liveSent: Array<{ offsetMs: number; audioBytes: number }> }).liveSent);
    const firstEndedMs = first!.offsetMs + first!.audioBytes / 32;
    expect(second!.offsetMs).toBeGreaterThanOrEqual(Math.floor(firstEndedMs));
    expect(second!.offsetMs).toBeLessThan(firstEndedMs + 300);
    const afterDrop = (await panel.locator('li').allTextContents()).map(seconds);
    expect(afterDrop.every((time, i) => i === 0 || time >= afterDrop[i - 1]!)).toBe(true);
    expect(afterDrop.at(-1)).toBeLessThanOrEqual(seconds((await page.getByRole('timer', { name: 'Recording time' }).textContent())!));

    // Saved while lines are still coming: the panel is cleared at once and stays so, its socket is
    // closed, and no line of it shows again; then the saved meeting's transcript, with its speakers.
    // From the click on Save on, a live line added to the panel is flagged.
    await page.evaluate(() => {
      const w = window as unknown as { liveLineAfterSave: boolean; saveClicked: boolean };
      w.liveLineAfterSave = false;
      w.saveClicked = false;
      document.addEventListener(
        'click',
        (event) => (w.saveClicked ||= (event.target as Element).closest('button')?.textContent?.includes('Save Meeting') ?? false),
        true,
      );
      new MutationObserver((records) => {
        if (!w.saveClicked) return;
        const live = (node: Node) =>
          node instanceof Element && (node.matches('li[data-speaker="You"]') || node.querySelector('li[data-speaker="You"]') !== null);
        if (records.some((record) => [...record.addedNodes].some(live))) w.liveLineAfterSave = true;
      }).observe(document, { subtree: true, childList: true });
    });
    await page.getByRole('button', { name: 'Save Meeting' }).click();
    await toast(page, 'Meeting saved').waitFor();
    // The meeting's page opens (the panel goes with /record); its transcript arrives there, with its speakers.
    await page.waitForURL(/\/meetings\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { level: 1, name: 'Live transcript check' }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { liveSockets: WebSocket[] }).liveSockets.every((s) => s.readyState >= WebSocket.CLOSING))).toBe(
      true,
    );
    const transcript = page.getByRole('list', { name: 'Transcript' });
    await expect.poll(() => transcript.locator('li').count(), { timeout: 150_000, interval: 500 }).toBeGreaterThan(0);
    const finalSpeakers = await page.evaluate(async (id) => {
      const key = Object.keys(localStorage).find((k) => k.endsWith('-auth-token'))!;
      const token = (JSON.parse(localStorage.getItem(key)!) as { access_token: string }).access_token;
      const meeting = (await (await fetch(`/api/v1/meetings/${id}`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
        speakers: { label: string; displayName: string | null }[];
      };
      return meeting.speakers.map((s) => s.displayName ?? s.label);
    }, page.url().split('/').at(-1)!);
    expect(finalSpeakers.length).toBeGreaterThan(0);
    expect(finalSpeakers.every((name) => name !== 'You' && /\S/.test(name))).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { liveLineAfterSave: boolean }).liveLineAfterSave)).toBe(false);

    // The next recording starts with an empty panel: nothing of the last one comes with it.
    await page.getByRole('link', { name: 'Record Meeting' }).first().click();
    await page.getByRole('button', { name: 'Start Recording' }).click();
    await page.getByRole('button', { name: 'Stop Recording' }).waitFor();
    expect(await panel.locator('li').count()).toBe(0);
    await page.getByRole('button', { name: 'Stop Recording' }).click();
    await context.close();
  });

  it('adds a shared tab’s audio with the browser’s own screen-share API; stopping it keeps the microphone', { timeout: 90_000 }, async () => {
    // Headless chromium cannot capture a real tab here (no audio device: "Could not start audio
    // source"); with its fake devices, getDisplayMedia hands over a fake screen whose audio plays the
    // same speech file as the microphone. So both sources say the same words here.
    const { context, page } = await signedInPage(browser, { fullName: 'Grace Hopper', email: uniqueEmail('tab'), password: 'cobol12345' });
    await page.goto('/record');
    const tab = page.getByTestId('tab-audio');
    await tab.getByText('A tab’s audio (optional)').waitFor();
    await tab.getByRole('button', { name: 'Add tab audio' }).click();
    await tab.getByText('Sound of a browser tab').waitFor();
    await tab.getByText(/Only the sound is kept, never the picture/).waitFor();
    await page.getByRole('textbox', { name: 'Meeting title' }).fill('Call with the fake screen');
    await page.getByRole('button', { name: 'Start Recording' }).click();
    await toast(page, 'Recording started').waitFor();
    await page
      .getByTestId('transcript-panel')
      .getByText('Your microphone’s lines are marked “You”, the shared tab’s “Shared tab”.')
      .waitFor({ timeout: 15_000 });
    await expect.poll(() => linesBy(page, 'Shared tab').count(), { timeout: 45_000, interval: 250 }).toBeGreaterThan(0);
    await expect.poll(() => linesBy(page, 'You').count(), { timeout: 45_000, interval: 250 }).toBeGreaterThan(0);
    expect(Number(await tab.getByRole('meter', { name: 'Shared tab level' }).getAttribute('aria-valuenow'))).toBeGreaterThanOrEqual(0);

    // The person stops sharing: the recording and the microphone's live lines go on.
    await tab.getByRole('button', { name: 'Stop sharing' }).click();
    await tab.getByText('Tab audio stopped').waitFor();
    await tab.getByText('The microphone keeps recording.').waitFor();
    const tabLines = await linesBy(page, 'Shared tab').count();
    const micLines = await linesBy(page, 'You').count();
    await expect.poll(() => linesBy(page, 'You').count(), { timeout: 45_000, interval: 250 }).toBeGreaterThan(micLines);
    expect(await page.getByTestId('recording-status').textContent()).toMatch(/^Recording…/);
    // Nothing more from the tab, bar one sentence it was in the middle of.
    expect(await linesBy(page, 'Shared tab').count()).toBeLessThanOrEqual(tabLines + 1);
    await page.getByRole('button', { name: 'Stop Recording' }).click();
    await toast(page, 'Recording stopped').waitFor();
    await tab.getByRole('button', { name: 'Add tab audio' }).waitFor();
    await context.close();
  });

  it('records the shared tab on its own channel: its words are its own speaker, live and in the saved transcript', { timeout: 150_000 }, async () => {
    const { context, page } = await signedInPage(browser, { fullName: 'Alan Turing', email: uniqueEmail('tab2'), password: 'enigma1234' });
    // Different speech on the tab than on the microphone, to tell the channels apart: the "tab" is
    // an <audio> element playing another clip, whose sound is handed over as getDisplayMedia's
    // stream (the real screen share cannot be told to play something else headless).
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
    await page.getByRole('button', { name: 'Add tab audio' }).click();
    await page.getByText('Sound of a tab').waitFor();
    await page.getByRole('button', { name: 'Start Recording' }).click();
    await toast(page, 'Recording started').waitFor();

    // Live: each source's words under its own name.
    await expect
      .poll(async () => (await linesBy(page, 'Shared tab').allTextContents()).join(' '), { timeout: 45_000, interval: 250 })
      .toMatch(/apostle|middle classes|gospel/);
    await expect
      .poll(async () => (await linesBy(page, 'You').allTextContents()).join(' '), { timeout: 45_000, interval: 250 })
      .toMatch(/john|leisure|consider|dashwood/);
    expect((await linesBy(page, 'Shared tab').allTextContents()).join(' ')).not.toMatch(/john|dashwood|leisure/);
    expect((await linesBy(page, 'You').allTextContents()).join(' ')).not.toMatch(/apostle|gospel/);

    await page.getByRole('button', { name: 'Save Meeting' }).click();
    await toast(page, 'Meeting saved').waitFor();
    await page.getByRole('link', { name: 'Meeting History' }).first().click();
    await page.getByRole('link', { name: 'View Details of Call with a shared tab' }).click();
    const transcript = page.getByRole('list', { name: 'Transcript' });
    await transcript.waitFor({ timeout: 90_000 });
    const text = (await transcript.textContent()) ?? '';
    expect(text).toContain('Microphone');
    expect(text).toContain('Shared tab');
    expect(text.toLowerCase()).toMatch(/john|leisure|consider|dashwood/);
    expect(text.toLowerCase()).toMatch(/apostle|middle|classes|gospel/);
    await context.close();
  });
});

/**
 * The server as installed without pocketsphinx's English model: it runs in a mount namespace of its
 * own (as root there only) where /usr/share/pocketsphinx is an empty directory, so neither the live
 * recogniser nor batch transcription can start; the rest of the machine is untouched.
 */
const WITHOUT_POCKETSPHINX = ['unshare', '--user', '--map-root-user', '--mount', 'sh', '-c', 'mount -t tmpfs tmpfs /usr/share/pocketsphinx && exec "$@"', 'sh'];

/** A server of the test's own, optionally behind a TCP proxy whose address the app is published at. */
async function ownServer(options: { wrapper?: string[]; behindProxy?: boolean; env?: Record<string, string> } = {}) {
  const port = await findFreePort();
  const dataDir = fs.mkdtempSync(path.join(dir, 'data-'));
  const proxy = options.behindProxy ? await startTcpProxy({ host: '127.0.0.1', port }) : undefined;
  let server: SpawnedServer | undefined;
  try {
    // Without pocketsphinx the server warns that it has no engine and that the job failed, as the test expects: not printed.
    const env = { LOG_LEVEL: options.wrapper ? 'error' : 'warn', ...(proxy ? { PUBLIC_URL: proxy.url } : {}), ...options.env };
    server = await spawnServer({ port, dataDir, wrapper: options.wrapper, env });
  } catch (error) {
    await proxy?.close();
    throw error;
  }
  return {
    url: proxy?.url ?? server.baseUrl,
    dataDir,
    proxy,
    stop: async () => {
      await proxy?.close();
      await server.stop();
    },
  };
}

/** The recording's audio files the server has stored, with their sizes. */
const storedRecordings = (dataDir: string) =>
  fs.existsSync(path.join(dataDir, 'blobs'))
    ? fs
        .readdirSync(path.join(dataDir, 'blobs'), { recursive: true })
        .map(String)
        .filter((f) => f.endsWith('.webm'))
        .map((f) => fs.statSync(path.join(dataDir, 'blobs', f)).size)
    : [];

/** Someone else's live transcript on `url`, started from here: it holds a recogniser until closed. */
async function occupyRecognizer(url: string) {
  const headers = { 'content-type': 'application/json' };
  const signedUp = await fetch(`${url}/auth/v1/signup`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email: uniqueEmail('holder'), password: 'holder123' }),
  });
  const { access_token: token } = (await signedUp.json()) as { access_token: string };
  const created = await fetch(`${url}/api/v1/meetings`, {
    method: 'POST',
    headers: { ...headers, authorization: `Bearer ${token}` },
    body: JSON.stringify({ title: 'Held' }),
  });
  const { id } = (await created.json()) as { id: string };
  const socket = new NodeWebSocket(`${url.replace('http', 'ws')}${LIVE_PATH}`);
  let ready = false;
  socket.on('message', (data) => (ready ||= LiveServerMessageSchema.parse(JSON.parse(String(data))).type === 'ready'));
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  socket.send(JSON.stringify({ type: 'auth', accessToken: token, meetingId: id }));
  await expect.poll(() => ready, { timeout: 15_000 }).toBe(true);
  return { close: () => socket.close() };
}

describe('the live transcript on /record when it cannot run', () => {
  it('waits for a free live-transcription slot when the server’s recognisers are busy, then lines come', { timeout: 60_000 }, async () => {
    const server = await ownServer({ env: { LIVE_RECOGNIZERS: '1' } });
    const holder = await occupyRecognizer(server.url);
    const { context, page } = await signedInPage(browser, {
      baseUrl: server.url,
      fullName: 'Wanda Waiting',
      email: uniqueEmail('waiting'),
      password: 'waiting12',
    });
    await watchLiveTranscript(page);
    try {
      await page.goto('/record');
      await page.getByRole('textbox', { name: 'Meeting title' }).fill('Recorded while the server is busy');
      await page.getByRole('button', { name: 'Start Recording' }).click();
      const panel = page.getByTestId('transcript-panel');
      await panel
        .getByText('Recording. Waiting for a free live-transcription slot (next in line); lines appear once one frees.', { exact: true })
        .waitFor({ timeout: 15_000 });
      // In line, the audio still goes out (it keeps the recording's clock); no line can come yet.
      const audioSent = () => page.evaluate(() => (window as unknown as { liveSent: Array<{ audioBytes: number }> }).liveSent[0]?.audioBytes ?? 0);
      await expect.poll(audioSent, { timeout: 10_000 }).toBeGreaterThan(32_000);
      expect(await panel.locator('li').count()).toBe(0);

      holder.close();
      await panel.getByText('Listening…').waitFor({ timeout: 15_000 });
      await expect.poll(() => panel.locator('li').count(), { timeout: 25_000, interval: 250 }).toBeGreaterThan(0);
      expect(await page.getByTestId('recording-status').textContent()).toMatch(/^Recording…/);
    } finally {
      holder.close();
      await context.close();
      await server.stop();
    }
  });

  it('says live transcription is not installed on a server without pocketsphinx; the recording still saves', { timeout: 45_000 }, async () => {
    const server = await ownServer({ wrapper: WITHOUT_POCKETSPHINX });
    const { context, page } = await signedInPage(browser, {
      baseUrl: server.url,
      fullName: 'Nina Noengine',
      email: uniqueEmail('nolive'),
      password: 'noengine1',
    });
    try {
      await page.goto('/record');
      await page.getByRole('textbox', { name: 'Meeting title' }).fill('Recorded without a live transcript');
      await page.getByRole('button', { name: 'Start Recording' }).click();
      const panel = page.getByTestId('transcript-panel');
      await panel
        .getByText(
          'The live transcript is unavailable (live transcription is not installed on this server). Recording goes on; the transcript is made when you stop.',
          { exact: true },
        )
        .waitFor({ timeout: 15_000 });
      expect(await page.getByTestId('recording-status').textContent()).toMatch(/^Recording…/);
      await expect.poll(() => page.getByText(/saved on the server: [1-9]/).count(), { timeout: 10_000 }).toBeGreaterThan(0);
      expect(await panel.locator('li').count()).toBe(0);

      await page.getByRole('button', { name: 'Save Meeting' }).click();
      await toast(page, 'Meeting saved').filter({ hasText: 'Recorded without a live transcript' }).waitFor();
      await expect.poll(() => storedRecordings(server.dataDir), { timeout: 15_000 }).toEqual([expect.any(Number)]);
      expect(storedRecordings(server.dataDir)[0]).toBeGreaterThan(0);
    } finally {
      await context.close();
      await server.stop();
    }
  });

  it('reconnects when the network drops its connection mid-recording, and lines keep coming', { timeout: 60_000 }, async () => {
    const server = await ownServer({ behindProxy: true });
    const proxy = server.proxy!;
    const liveConnections = () => proxy.opened.filter((p) => p === LIVE_PATH).length;
    const { context, page } = await signedInPage(browser, {
      baseUrl: server.url,
      fullName: 'Rene Reconnect',
      email: uniqueEmail('drop'),
      password: 'reconnect1',
    });
    try {
      await page.goto('/record');
      await page.getByRole('textbox', { name: 'Meeting title' }).fill('Live transcript over a bad network');
      await page.getByRole('button', { name: 'Start Recording' }).click();
      const panel = page.getByTestId('transcript-panel');
      await panel.getByText('Listening…').waitFor({ timeout: 15_000 });
      await expect.poll(() => panel.locator('li').count(), { timeout: 20_000, interval: 250 }).toBeGreaterThan(0);

      const linesBeforeDrop = await panel.locator('li').count();
      proxy.cut(LIVE_PATH);
      await expect.poll(liveConnections, { timeout: 10_000 }).toBe(2);
      await expect.poll(() => panel.locator('li').count(), { timeout: 25_000, interval: 250 }).toBeGreaterThan(linesBeforeDrop);
      expect(await panel.textContent()).not.toContain('The live transcript stopped');
      expect(await page.getByTestId('recording-status').textContent()).toMatch(/^Recording…/);
    } finally {
      await context.close();
      await server.stop();
    }
  });

  it('says the connection was lost once five reconnections have failed; the recording goes on and saves', { timeout: 45_000 }, async () => {
    const server = await ownServer({ behindProxy: true });
    const proxy = server.proxy!;
    const liveConnections = () => proxy.opened.filter((p) => p === LIVE_PATH).length;
    const { context, page } = await signedInPage(browser, { baseUrl: server.url, fullName: 'Lena Lost', email: uniqueEmail('lost'), password: 'lostline1' });
    // Counts the live sockets the page opens, for "no sixth try" below.
    await watchLiveTranscript(page);
    // The page's timers run on the real clock until the test skips the reconnection back-off ahead.
    await page.clock.install();
    try {
      await page.goto('/record');
      await page.getByRole('textbox', { name: 'Meeting title' }).fill('Live transcript lost');
      await page.getByRole('button', { name: 'Start Recording' }).click();
      const panel = page.getByTestId('transcript-panel');
      await panel.getByText('Listening…').waitFor({ timeout: 15_000 });

      // The network to the live transcript goes for good; the rest of the app still reaches the server.
      proxy.refuse(LIVE_PATH);
      proxy.cut(LIVE_PATH);
      // Five tries, 1 + 2 + 4 + 8 + 16 s apart: jump over the waits rather than sit through them.
      const lost = panel.getByText(/the connection to the server was lost/);
      await expect
        .poll(
          async () => {
            await page.clock.fastForward(10_000);
            return lost.count();
          },
          { timeout: 20_000, interval: 250 },
        )
        .toBe(1);
      expect(liveConnections()).toBe(1 + 5);
      // With lines already on screen the note goes under them; without, it takes the panel's place.
      const expected =
        (await panel.locator('li').count()) > 0
          ? 'The live transcript stopped (the connection to the server was lost); the recording goes on.'
          : 'The live transcript is unavailable (the connection to the server was lost). Recording goes on; the transcript is made when you stop.';
      expect(await lost.textContent()).toBe(expected);
      // No sixth try: it has given up. A try would open its socket in the timer that fast-forwarding runs.
      await page.clock.fastForward(60_000);
      expect(await page.evaluate(() => (window as unknown as { liveSockets: WebSocket[] }).liveSockets.length)).toBe(1 + 5);
      expect(liveConnections()).toBe(1 + 5);

      expect(await page.getByTestId('recording-status').textContent()).toMatch(/^Recording…/);
      await page.getByRole('button', { name: 'Save Meeting' }).click();
      await toast(page, 'Meeting saved').filter({ hasText: 'Live transcript lost' }).waitFor();
      await expect.poll(() => storedRecordings(server.dataDir), { timeout: 15_000 }).toEqual([expect.any(Number)]);
    } finally {
      await context.close();
      await server.stop();
    }
  });
});
