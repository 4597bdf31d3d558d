import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { LIVE_CLOSE, LIVE_PATH, LiveServerMessageSchema, type LiveClientMessage, type LiveServerMessage } from '#shared/contracts/live.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';

// Recogniser places are scarce: this server runs two (LIVE_RECOGNIZERS), an account holds or waits
// for two sessions at most, a session paused for a second lets its recogniser go, and an account's
// sessions hold recognisers paused for five seconds an hour at most.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({
    listen: true,
    env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false', LIVE_RECOGNIZERS: '2', LIVE_SESSIONS_PER_ACCOUNT: '2', LIVE_PAUSED_RELEASE_SECONDS: '1' },
  });
});
afterAll(() => t.close());

async function recordingMeeting(token: string, audioSources?: string[]): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/v1/meetings',
    headers: { authorization: `Bearer ${token}` },
    payload: { title: 'Live', audioSources },
  });
  expect(response.statusCode).toBe(201);
  return (response.json() as { id: string }).id;
}

/** A live socket authenticated for a fresh recording of one (or two) sources. */
async function live(token: string, channels: 1 | 2 = 1) {
  const meetingId = await recordingMeeting(token, channels === 2 ? ['Microphone', 'Shared tab'] : undefined);
  const socket = new WebSocket(`${t.baseUrl.replace('http', 'ws')}${LIVE_PATH}`);
  const messages: LiveServerMessage[] = [];
  let closedWith: number | undefined;
  socket.on('message', (data) => messages.push(LiveServerMessageSchema.parse(JSON.parse(String(data)))));
  socket.on('close', (code) => (closedWith = code));
  await once(socket, 'open');
  const say = (message: LiveClientMessage) => socket.send(JSON.stringify(message));
  say({ type: 'auth', accessToken: token, meetingId, channels });
  return {
    socket,
    say,
    closedWith: () => closedWith,
    /** What the session was last told: ready, or waiting at which place. */
    last: () => {
      const message = messages.filter((m) => m.type === 'ready' || m.type === 'waiting').at(-1);
      return message?.type === 'waiting' ? `waiting ${message.position}` : message?.type;
    },
    lines: () => messages.flatMap((m) => (m.type === 'line' ? [m.line] : [])),
    close: async () => {
      socket.close();
      await expect.poll(() => closedWith).toBeDefined();
    },
  };
}

const signUp = async () => (await signUpUser(t.app, 'live-queue')).token;

/** goforward.wav as 16 kHz mono PCM, then a second and a half of silence to end the utterance. */
const speech = () =>
  Buffer.concat([
    execFileSync('ffmpeg', [
      '-nostdin',
      '-loglevel',
      'error',
      '-i',
      path.join(sharedAudioDir(), 'goforward.wav'),
      '-f',
      's16le',
      '-ac',
      '1',
      '-ar',
      '16000',
      'pipe:1',
    ]),
    Buffer.alloc(48_000),
  ]);

describe('live-transcription places', () => {
  it(
    'a session finding every recogniser busy waits in line, told its place, and starts when one frees, on the recording’s clock',
    { timeout: 60_000 },
    async () => {
      const first = await live(await signUp(), 2);
      await expect.poll(() => first.last(), { timeout: 15_000 }).toBe('ready');
      const second = await live(await signUp());
      await expect.poll(() => second.last()).toBe('waiting 1');
      const third = await live(await signUp(), 2);
      await expect.poll(() => third.last()).toBe('waiting 2');

      // Two seconds of audio while in line: not heard, but on the clock.
      for (let i = 0; i < 20; i++) second.socket.send(Buffer.alloc(3200));
      await first.close();
      await expect.poll(() => second.last(), { timeout: 15_000 }).toBe('ready');
      // The two-source session needs both places: next in line, it waits for the second session.
      await expect.poll(() => third.last()).toBe('waiting 1');
      expect(third.closedWith()).toBeUndefined();

      second.socket.send(speech());
      await expect.poll(() => second.lines().length, { timeout: 20_000 }).toBe(1);
      expect(second.lines()[0]).toMatchObject({ text: 'go forward ten meters' });
      expect(second.lines()[0]!.startMs).toBeGreaterThanOrEqual(2000);
      await second.close();
      await expect.poll(() => third.last(), { timeout: 15_000 }).toBe('ready');
      await third.close();
    },
  );

  it('an account holds or waits for two sessions at most', { timeout: 30_000 }, async () => {
    const token = await signUp();
    // One after the other, so which one holds the recognisers and which one waits is known.
    const holding = await live(token, 2);
    await expect.poll(() => holding.last(), { timeout: 15_000 }).toBe('ready');
    const waiting = await live(token, 2);
    await expect.poll(() => waiting.last()).toBe('waiting 1');
    const sessions = [holding, waiting];
    const third = await live(token);
    await expect.poll(() => third.closedWith()).toBe(LIVE_CLOSE.busy);
    for (const session of sessions) await session.close();
  });

  it('a paused session lets its recogniser go to the next in line', { timeout: 30_000 }, async () => {
    const paused = await live(await signUp(), 2);
    await expect.poll(() => paused.last(), { timeout: 15_000 }).toBe('ready');
    const next = await live(await signUp());
    await expect.poll(() => next.last()).toBe('waiting 1');
    paused.say({ type: 'pause' });
    await expect.poll(() => paused.closedWith(), { timeout: 10_000 }).toBe(LIVE_CLOSE.idle);
    await expect.poll(() => next.last(), { timeout: 15_000 }).toBe('ready');
    await next.close();
  });

  it('a repeated pause does not put the release off: the session goes a second after its first pause', { timeout: 30_000 }, async () => {
    const paused = await live(await signUp());
    await expect.poll(() => paused.last(), { timeout: 15_000 }).toBe('ready');
    paused.say({ type: 'pause' });
    // Paused again every 0.2 s: each pause used to start the second over, so the recogniser was never let go.
    const repeating = setInterval(() => paused.say({ type: 'pause' }), 200);
    try {
      await expect.poll(() => paused.closedWith(), { timeout: 10_000 }).toBe(LIVE_CLOSE.idle);
    } finally {
      clearInterval(repeating);
    }
  });

  it('pausing and resuming over and over spends the account’s paused time: then its sessions are let go at a pause', { timeout: 60_000 }, async () => {
    /** Pauses for 0.2 s (shorter than the 1 s release) and resumes with audio, up to `most` times; the pause the session was let go at. */
    const pausesUntilLetGo = async (session: Awaited<ReturnType<typeof live>>, most: number) => {
      for (let pauses = 1; pauses <= most; pauses++) {
        session.say({ type: 'pause' });
        await sleep(200);
        if (session.closedWith() !== undefined) return pauses;
        session.socket.send(Buffer.alloc(3200));
      }
      return undefined;
    };
    const token = await signUp();
    const cycling = await live(token);
    await expect.poll(() => cycling.last(), { timeout: 15_000 }).toBe('ready');
    // Five seconds of paused time: about 25 pauses of 0.2 s (they used to go on for as long as the browser liked).
    expect(await pausesUntilLetGo(cycling, 40)).toBeDefined();
    expect(cycling.closedWith()).toBe(LIVE_CLOSE.idle);

    // The account's next session has no paused time left: a pause lets it go at once, however soon it resumes.
    const next = await live(token);
    await expect.poll(() => next.last(), { timeout: 15_000 }).toBe('ready');
    expect(await pausesUntilLetGo(next, 10)).toBeDefined();
    expect(next.closedWith()).toBe(LIVE_CLOSE.idle);
  });
});
