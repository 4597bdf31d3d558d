import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { LIVE_CLOSE, LiveServerMessageSchema, type LiveServerMessage } from '#shared/contracts/live.ts';
import { buildTestApp, type TestApp } from '#tests/support/build-test-app.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ listen: true, env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' } });
});
afterAll(() => t.close());

async function signUp(): Promise<string> {
  const response = await t.app.inject({ method: 'POST', url: '/auth/v1/signup', payload: { email: `live-${crypto.randomUUID()}@example.com`, password: 'secret12' } });
  return (response.json() as { access_token: string }).access_token;
}

async function recordingMeeting(token: string): Promise<string> {
  const response = await t.app.inject({ method: 'POST', url: '/api/v1/meetings', headers: { authorization: `Bearer ${token}` }, payload: { title: 'Live' } });
  return (response.json() as { id: string }).id;
}

async function open() {
  const socket = new WebSocket(`${t.baseUrl.replace('http', 'ws')}/realtime/live`);
  const messages: LiveServerMessage[] = [];
  socket.on('message', (data) => messages.push(LiveServerMessageSchema.parse(JSON.parse(String(data)))));
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  return { socket, messages, closed };
}

const pcmOf = (file: string) => execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-i', file, '-f', 's16le', '-ac', '1', '-ar', '16000', 'pipe:1'], { maxBuffer: 64 * 1024 * 1024 });

describe('/realtime/live', () => {
  it('streams recognised lines back while audio arrives, with recording timestamps', { timeout: 60_000 }, async () => {
    const token = await signUp();
    const meetingId = await recordingMeeting(token);
    const live = await open();
    live.socket.send(JSON.stringify({ type: 'auth', accessToken: token, meetingId }));
    await expect.poll(() => live.messages[0]).toEqual({ type: 'ready' });

    // 24.7 s of read speech sent at 4× real time in 100 ms frames, as the browser does at 1×.
    const pcm = pcmOf(path.join(sharedAudioDir(), 'librivox_ss_5utt.wav'));
    const frame = 3200;
    for (let offset = 0; offset < pcm.length; offset += frame) {
      live.socket.send(pcm.subarray(offset, offset + frame));
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    // The first utterances arrive before the audio ends (they are live, not at the end).
    const linesBeforeEnd = live.messages.filter((m) => m.type === 'line').length;
    expect(linesBeforeEnd).toBeGreaterThan(0);
    // A second of silence lets the recogniser close the last utterance.
    live.socket.send(Buffer.alloc(32_000 * 2));
    await expect.poll(() => live.messages.filter((m) => m.type === 'line').length, { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
    const lines = live.messages.flatMap((m) => (m.type === 'line' ? [m.line] : []));
    expect(lines[0]).toMatchObject({ speaker: 'Speaker 1' });
    expect(lines.map((l) => l.text).join(' ')).toContain('john');
    expect(lines.at(-1)!.endMs).toBeGreaterThan(20_000);
    expect(lines.every((l, i) => i === 0 || l.startMs >= lines[i - 1]!.endMs)).toBe(true);
    live.socket.close();
    await live.closed;
  });

  it('refuses a bad token, another person’s meeting, a meeting not recording, and a third session', async () => {
    const owner = await signUp();
    const stranger = await signUp();
    const meetingId = await recordingMeeting(owner);

    const bad = await open();
    bad.socket.send(JSON.stringify({ type: 'auth', accessToken: 'nope', meetingId }));
    expect(await bad.closed).toBe(LIVE_CLOSE.unauthenticated);

    const theirs = await open();
    theirs.socket.send(JSON.stringify({ type: 'auth', accessToken: stranger, meetingId }));
    expect(await theirs.closed).toBe(LIVE_CLOSE.notFound);

    const binaryFirst = await open();
    binaryFirst.socket.send(Buffer.alloc(100));
    expect(await binaryFirst.closed).toBe(LIVE_CLOSE.badMessage);

    const sessions = [await open(), await open()];
    for (const s of sessions) s.socket.send(JSON.stringify({ type: 'auth', accessToken: owner, meetingId }));
    for (const s of sessions) await expect.poll(() => s.messages[0]).toEqual({ type: 'ready' });
    const third = await open();
    third.socket.send(JSON.stringify({ type: 'auth', accessToken: owner, meetingId }));
    expect(await third.closed).toBe(LIVE_CLOSE.busy);
    for (const s of sessions) s.socket.close();
    await Promise.all(sessions.map((s) => s.closed));

    // Once saved, the meeting is no longer recording: no live transcript for it.
    await t.deps.database.db.updateTable('meetings').set({ status: 'processing' }).where('id', '=', meetingId).execute();
    const late = await open();
    late.socket.send(JSON.stringify({ type: 'auth', accessToken: owner, meetingId }));
    expect(await late.closed).toBe(LIVE_CLOSE.notFound);
  });
});
