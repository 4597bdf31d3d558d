import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { LIVE_PATH, LiveServerMessageSchema, type LiveClientMessage, type LiveLine } from '#shared/contracts/live.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';
import { signUpAndIn } from './auth-load.ts';
import type { Row } from './lib/report.ts';
import { startServer } from './lib/server.ts';

/**
 * Live-transcript latency on the built server: PCM streamed at real time in 100 ms frames (as the
 * browser's AudioWorklet sends it) over /realtime/live; for every line, from the end of its speech
 * in the audio to its arrival. Measured alone, with a shared tab (two recognisers), and with four
 * recordings at once, to see what a small server carries. The browser test prints the same figure
 * on screen (`tests/e2e/live-transcript.spec.ts`), which adds the page's rendering.
 */
const FRAME_MS = 100;
const BYTES_PER_MS = 32;

/** A clip of the shared audio as the browser streams it: 16 kHz mono s16le. */
export const pcmOf = (file: string) =>
  execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-i', path.join(sharedAudioDir(), file), '-f', 's16le', '-ac', '1', '-ar', '16000', 'pipe:1'], {
    maxBuffer: 1 << 26,
  });

/** Two mono clips as one interleaved two-channel stream, the shorter padded with silence. */
function interleave(left: Buffer, right: Buffer): Buffer {
  const frames = Math.max(left.length, right.length) / 2;
  const out = Buffer.alloc(frames * 4);
  for (let i = 0; i < frames; i++) {
    if (i * 2 < left.length) out.writeInt16LE(left.readInt16LE(i * 2), i * 4);
    if (i * 2 < right.length) out.writeInt16LE(right.readInt16LE(i * 2), i * 4 + 2);
  }
  return out;
}

async function createMeeting(baseUrl: string, token: string, audioSources?: string[]): Promise<string> {
  const response = await fetch(`${baseUrl}/api/v1/meetings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Live latency', audioSources }),
  });
  if (!response.ok) throw new Error(`meeting not created: ${response.status}`);
  return ((await response.json()) as { id: string }).id;
}

/** Streams `pcm` at real time and returns each line's latency (arrival − end of its speech) in ms. */
async function streamSession(baseUrl: string, token: string, pcm: Buffer, channels: number): Promise<number[]> {
  const meetingId = await createMeeting(baseUrl, token, channels === 2 ? ['Microphone', 'Shared tab'] : undefined);
  const socket = new WebSocket(`${baseUrl.replace('http', 'ws')}${LIVE_PATH}`);
  const arrivals: { line: LiveLine; at: number }[] = [];
  let started = 0;
  const ready = new Promise<void>((resolve, reject) => {
    socket.on('message', (data) => {
      const message = LiveServerMessageSchema.parse(JSON.parse(String(data)));
      if (message.type === 'ready') resolve();
      else if (message.type === 'line') arrivals.push({ line: message.line, at: performance.now() });
      else if (message.type === 'error') reject(new Error(message.message));
    });
    socket.on('close', (code) => reject(new Error(`live socket closed: ${code}`)));
  });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  socket.send(JSON.stringify({ type: 'auth', accessToken: token, meetingId, channels } satisfies LiveClientMessage));
  await ready;
  const frameBytes = FRAME_MS * BYTES_PER_MS * channels;
  // A second of silence after the speech closes the last utterance, as a pause in talk would.
  const audio = Buffer.concat([pcm, Buffer.alloc(1000 * BYTES_PER_MS * channels)]);
  started = performance.now();
  for (let i = 0; i * frameBytes < audio.length; i++) {
    // Frame i is complete (and sent by a browser) FRAME_MS after its first sample was captured.
    const due = started + (i + 1) * FRAME_MS;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
    socket.send(audio.subarray(i * frameBytes, (i + 1) * frameBytes));
  }
  await new Promise((resolve) => setTimeout(resolve, 3000));
  socket.close();
  return arrivals.map(({ line, at }) => at - started - line.endMs);
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] ?? NaN;
const describe = (latencies: number[]) =>
  latencies.length === 0
    ? 'no lines'
    : `p50 ${percentile(latencies, 50).toFixed(0)} ms, p95 ${percentile(latencies, 95).toFixed(0)} ms, max ${Math.max(...latencies).toFixed(0)} ms over ${latencies.length} lines`;

export async function benchLiveLatency(): Promise<Row[]> {
  if (!fs.existsSync('/usr/bin/pocketsphinx_continuous')) return [{ name: 'live transcript', value: 'skipped: pocketsphinx is not installed' }];
  const server = await startServer({ env: { AUTH_RATE_LIMITS: 'false', AUTH_AUTOCONFIRM: 'true' } });
  try {
    const script = await (await fetch(`${server.baseUrl}/app-config.js`)).text();
    const apikey = /"anonKey":"([^"]+)"/.exec(script)?.[1] ?? '';
    const account = async (n: number) =>
      (await signUpAndIn(server.baseUrl, apikey, `bench-live-${Date.now()}-${n}@example.com`, 'bench-password-1')).access_token;
    const speech = pcmOf('librivox_ss_5utt.wav');
    const rows: Row[] = [];
    rows.push({ name: 'one recording (24.7 s read speech)', value: describe(await streamSession(server.baseUrl, await account(0), speech, 1)) });
    const call = interleave(pcmOf('leopard_3spk.wav'), pcmOf('jfk.wav'));
    rows.push({ name: 'with a shared tab (2 recognisers, 19.8 s)', value: describe(await streamSession(server.baseUrl, await account(1), call, 2)) });
    const tokens = await Promise.all([2, 3, 4, 5].map(account));
    const together = await Promise.all(tokens.map((token) => streamSession(server.baseUrl, token, speech, 1)));
    rows.push({ name: 'four recordings at once, each', value: describe(together.flat()), note: 'two cores shared' });
    return rows;
  } finally {
    await server.stop();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
}
