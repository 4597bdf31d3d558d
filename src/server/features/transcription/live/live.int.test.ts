import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { LIVE_CLOSE, LiveServerMessageSchema, type LiveClientMessage, type LiveLine, type LiveServerMessage } from '#shared/contracts/live.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';
import { deinterleave } from './live-session.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ listen: true, env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' } });
});
afterAll(() => t.close());

const signUp = async () => (await signUpUser(t.app, 'live')).token;

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

async function open() {
  const socket = new WebSocket(`${t.baseUrl.replace('http', 'ws')}/realtime/live`);
  const messages: LiveServerMessage[] = [];
  socket.on('message', (data) => messages.push(LiveServerMessageSchema.parse(JSON.parse(String(data)))));
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const lines = () => messages.flatMap((m) => (m.type === 'line' ? [m.line] : []));
  const say = (message: LiveClientMessage) => socket.send(JSON.stringify(message));
  return { socket, messages, closed, lines, say };
}

/** A clip as 16 kHz mono 16-bit PCM, trailing silence cut so the end of speech is the end of the audio. */
const pcmOf = (file: string) =>
  execFileSync(
    'ffmpeg',
    [
      '-nostdin',
      '-loglevel',
      'error',
      '-i',
      path.join(sharedAudioDir(), file),
      '-af',
      'areverse,silenceremove=start_periods=1:start_threshold=-40dB,areverse',
      '-f',
      's16le',
      '-ac',
      '1',
      '-ar',
      '16000',
      'pipe:1',
    ],
    {
      maxBuffer: 64 * 1024 * 1024,
    },
  );

/** Sends PCM in 100 ms frames (as the browser does) at `speed` × real time. */
async function stream(socket: WebSocket, pcm: Buffer, { speed = 4, frameBytes = 3200 } = {}) {
  for (let offset = 0; offset < pcm.length; offset += frameBytes) {
    socket.send(pcm.subarray(offset, offset + frameBytes));
    await new Promise((resolve) => setTimeout(resolve, 100 / speed));
  }
}

const ms = (pcm: Buffer, channels = 1) => pcm.length / 2 / channels / 16;

describe('/realtime/live', () => {
  it('streams recognised lines back while audio arrives, with recording timestamps', { timeout: 90_000 }, async () => {
    const token = await signUp();
    const meetingId = await recordingMeeting(token);
    const live = await open();
    live.say({ type: 'auth', accessToken: token, meetingId });
    await expect.poll(() => live.messages[0]).toEqual({ type: 'ready', speakers: ['You'] });

    // 24.7 s of read speech sent at real time, as a browser sends it: the first utterances come back
    // before the audio ends. Faster than real time would ask the recogniser for more speed than a
    // person needs, which a machine busy with other work does not always have.
    const pcm = pcmOf('librivox_ss_5utt.wav');
    await stream(live.socket, pcm, { speed: 1 });
    expect(live.lines().length).toBeGreaterThan(0);
    // A second of silence lets the recogniser close the last utterance.
    live.socket.send(Buffer.alloc(32_000 * 2));
    await expect.poll(() => live.lines().at(-1)?.endMs ?? 0, { timeout: 20_000 }).toBeGreaterThan(20_000);
    const lines = live.lines();
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(lines[0]).toMatchObject({ speaker: 'You' });
    expect(lines.map((l) => l.text).join(' ')).toMatch(/john.*consider.*young man.*respectable/);
    expect(lines.every((l, i) => i === 0 || l.startMs >= lines[i - 1]!.endMs)).toBe(true);
    live.socket.close();
    await live.closed;
  });

  it('finishes the sentence in progress at a pause, and keeps the recording’s clock after resuming', { timeout: 60_000 }, async () => {
    const token = await signUp();
    const meetingId = await recordingMeeting(token);
    const live = await open();
    // A reconnection continues at the recording time it was at: 5 s here.
    live.say({ type: 'auth', accessToken: token, meetingId, offsetMs: 5000 });
    await expect.poll(() => live.messages[0]?.type).toBe('ready');

    const speech = pcmOf('goforward.wav');
    await stream(live.socket, speech);
    live.say({ type: 'pause' }); // no more audio comes, yet the sentence is heard out
    await expect.poll(() => live.lines().length, { timeout: 15_000 }).toBe(1);
    expect(live.lines()[0]).toMatchObject({ text: 'go forward ten meters', speaker: 'You' });

    // Resumed: the same sentence again, timed right after the first audio (the pause's silence is not counted).
    await stream(live.socket, speech);
    live.say({ type: 'pause' });
    await expect.poll(() => live.lines().length, { timeout: 15_000 }).toBe(2);
    const [first, second] = live.lines() as [LiveLine, LiveLine];
    expect(second.text).toBe('go forward ten meters');
    expect(first.startMs).toBeGreaterThanOrEqual(5000);
    expect(second.startMs - first.startMs).toBeGreaterThan(ms(speech) - 150);
    expect(second.startMs - first.startMs).toBeLessThan(ms(speech) + 150);
    live.socket.close();
    await live.closed;
  });

  it('corrects the near-misses of the meeting’s custom vocabulary in each line, as in the saved transcript', { timeout: 60_000 }, async () => {
    const token = await signUp();
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/vocabulary',
      headers: { authorization: `Bearer ${token}` },
      payload: { terms: ['metres'] },
    });
    expect(saved.statusCode).toBe(200);
    const meetingId = await recordingMeeting(token);
    const live = await open();
    live.say({ type: 'auth', accessToken: token, meetingId, offsetMs: 0 });
    await expect.poll(() => live.messages[0]?.type).toBe('ready');
    await stream(live.socket, pcmOf('goforward.wav'));
    live.say({ type: 'pause' });
    await expect.poll(() => live.lines().length, { timeout: 15_000 }).toBe(1);
    expect(live.lines()[0]).toMatchObject({ text: 'go forward ten metres', speaker: 'You' });
    live.socket.close();
    await live.closed;
  });

  it('with a shared tab, hears each channel as its own speaker', { timeout: 60_000 }, async () => {
    const token = await signUp();
    const meetingId = await recordingMeeting(token, ['Microphone', 'Shared tab']);
    // The recording's two channels: the microphone (goforward) left, the shared tab (Mr Quilter) right.
    const microphone = pcmOf('goforward.wav');
    const tab = pcmOf('librispeech_mr_quilter.wav');
    const frames = Math.max(microphone.length, tab.length) / 2 + 16_000; // and a second of silence
    const stereo = Buffer.alloc(frames * 4);
    for (let i = 0; i < frames; i++) {
      if (i * 2 < microphone.length) stereo.writeInt16LE(microphone.readInt16LE(i * 2), i * 4);
      if (i * 2 < tab.length) stereo.writeInt16LE(tab.readInt16LE(i * 2), i * 4 + 2);
    }
    expect(deinterleave(stereo, 2)[0]!.subarray(0, microphone.length).equals(microphone)).toBe(true);

    // The browser must send what the meeting records: a mono stream is refused.
    const mono = await open();
    mono.say({ type: 'auth', accessToken: token, meetingId });
    expect(await mono.closed).toBe(LIVE_CLOSE.badMessage);

    const live = await open();
    live.say({ type: 'auth', accessToken: token, meetingId, channels: 2 });
    await expect.poll(() => live.messages[0]).toEqual({ type: 'ready', speakers: ['You', 'Shared tab'] });
    await stream(live.socket, stereo, { frameBytes: 6400 });
    live.say({ type: 'pause' });
    await expect.poll(() => new Set(live.lines().map((l) => l.speaker)).size, { timeout: 15_000 }).toBe(2);
    const said = (speaker: string) =>
      live
        .lines()
        .filter((l) => l.speaker === speaker)
        .map((l) => l.text)
        .join(' ');
    expect(said('You')).toBe('go forward ten meters');
    expect(said('Shared tab')).toMatch(/apostle.*middle classes.*gospel/);
    expect(said('Shared tab')).not.toMatch(/forward/);
    live.socket.close();
    await live.closed;
  });

  it('refuses a bad token, another person’s meeting, a meeting not recording, and a third session', async () => {
    const owner = await signUp();
    const stranger = await signUp();
    const meetingId = await recordingMeeting(owner);

    const bad = await open();
    bad.say({ type: 'auth', accessToken: 'nope', meetingId });
    expect(await bad.closed).toBe(LIVE_CLOSE.unauthenticated);

    const theirs = await open();
    theirs.say({ type: 'auth', accessToken: stranger, meetingId });
    expect(await theirs.closed).toBe(LIVE_CLOSE.notFound);

    const binaryFirst = await open();
    binaryFirst.socket.send(Buffer.alloc(100));
    expect(await binaryFirst.closed).toBe(LIVE_CLOSE.badMessage);

    const sessions = [await open(), await open()];
    for (const s of sessions) s.say({ type: 'auth', accessToken: owner, meetingId });
    for (const s of sessions) await expect.poll(() => s.messages[0]?.type).toBe('ready');
    const third = await open();
    third.say({ type: 'auth', accessToken: owner, meetingId });
    expect(await third.closed).toBe(LIVE_CLOSE.busy);
    // Odd-length audio is not 16-bit PCM.
    sessions[0]!.socket.send(Buffer.alloc(101));
    expect(await sessions[0]!.closed).toBe(LIVE_CLOSE.badMessage);
    sessions[1]!.socket.close();
    await sessions[1]!.closed;

    // A closed session frees its place.
    const again = await open();
    again.say({ type: 'auth', accessToken: owner, meetingId });
    await expect.poll(() => again.messages[0]?.type).toBe('ready');
    again.socket.close();
    await again.closed;

    // Once saved, the meeting is no longer recording: no live transcript for it.
    await t.deps.database.db.updateTable('meetings').set({ status: 'processing' }).where('id', '=', meetingId).execute();
    const late = await open();
    late.say({ type: 'auth', accessToken: owner, meetingId });
    expect(await late.closed).toBe(LIVE_CLOSE.notFound);
  });
});
