import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MeetingDetailSchema } from '#shared/contracts/meetings.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { TEST_JOB_TIMINGS } from '#tests/support/test-job-timings.ts';
import { createStallingSpeechEngine } from '#tests/support/fake-speech.ts';
import { longSilentOpusArgs, longSpeechOpusArgs, peakRssMb } from '#tests/support/process-memory.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';
import { databaseEnv, killTestWorkers, startTestWorker, WORKER_START_MS } from '#tests/support/test-worker.ts';

// MAX_RECORDING_HOURS: a small file declaring hours of audio fails before it is decoded, in a worker
// process whose memory is read from /proc, and a recording under the cap still transcribes there.
// Stage time limits: an engine that never answers ends in a failure that says so.

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-limits-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** Hours of silent Opus, about 1 MB an hour: 9.5 hours decoded whole would be 1.1 GB of PCM. */
function silentHours(hours: number): string {
  const out = path.join(scratch, `${hours}h.ogg`);
  const args = longSilentOpusArgs(path.join(scratch, 'minute.ogg'), hours * 3600, out);
  execFileSync('ffmpeg', args.minute);
  execFileSync('ffmpeg', args.whole);
  return out;
}

/** Hours of talk (two recordings of two and three voices, looped), about 7 MB an hour. */
function talkHours(hours: number): string {
  const out = path.join(scratch, `talk-${hours}h.ogg`);
  const clips = ['pyannote_sample_2spk_30s.wav', 'leopard_3spk.wav'].map((clip) => path.join(sharedAudioDir(), clip));
  const args = longSpeechOpusArgs(clips, path.join(scratch, 'talk-minute.ogg'), hours * 3600, out);
  execFileSync('ffmpeg', args.minute);
  execFileSync('ffmpeg', args.whole);
  return out;
}

/** A meeting whose file is stored as a finished upload leaves it (finalisation itself is the uploads' to test), then queued. */
async function storeAndQueue(t: TestApp, token: string, file: string, mime: string, durationSeconds: number, options: object = {}): Promise<string> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/v1/meetings',
    headers: { authorization: `Bearer ${token}` },
    payload: { title: path.basename(file), source: 'upload', options },
  });
  const { id, owner } = created.json() as { id: string; owner: { id: string } };
  const copy = path.join(scratch, `${crypto.randomUUID()}${path.extname(file)}`);
  fs.copyFileSync(file, copy);
  const key = await t.deps.blobs.adopt(copy, path.extname(file).slice(1), { ownerId: owner.id, kind: 'recording' });
  await t.deps.services.meetings.recordingStored(id, { key, mime, bytes: fs.statSync(file).size, durationSeconds });
  await t.app.transcription.enqueue(id);
  return id;
}

const meetingOf = async (t: TestApp, token: string, id: string) =>
  MeetingDetailSchema.parse((await t.app.inject({ method: 'GET', url: `/api/v1/meetings/${id}`, headers: { authorization: `Bearer ${token}` } })).json());

describe('the recording length cap', () => {
  let web: TestApp;
  beforeAll(async () => {
    web = await buildTestApp({
      env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false', TRANSCRIBE_MAX_ATTEMPTS: '1' },
      deps: { role: 'web', jobTimings: { ...TEST_JOB_TIMINGS, leaseMs: 5_000, pollMs: 100 } },
    });
  });
  afterEach(() => killTestWorkers());
  afterAll(() => web.close());

  const storedMeeting = (token: string, file: string, mime: string, durationSeconds: number, options: object = {}) =>
    storeAndQueue(web, token, file, mime, durationSeconds, options);
  const meeting = (token: string, id: string) => meetingOf(web, token, id);

  it('fails a 9.5-hour recording with the reason, without the worker decoding it', { timeout: WORKER_START_MS + 60_000 }, async () => {
    const long = silentHours(9.5);
    expect(fs.statSync(long).size).toBeLessThan(12_000_000);
    const worker = await startTestWorker('tests/support/transcription-worker.ts', {
      ...databaseEnv(web.database.target),
      DATA_DIR: web.config.dataDir,
      TRANSCRIBE_MAX_ATTEMPTS: '1',
      TRANSCRIBE_RETRY_DELAY_SECONDS: '1',
      WORKER_ENGINE: 'fake',
    });
    const { token } = await signUpUser(web.app, 'limits', { samples: false });
    const before = peakRssMb(worker.pid);

    const id = await storedMeeting(token, long, 'audio/ogg', 9.5 * 3600);
    await expect.poll(async () => (await meeting(token, id)).status, { timeout: 30_000, interval: 100 }).toBe('failed');
    expect((await meeting(token, id)).failureReason).toBe('The recording is 9.5 hours long; this server transcribes up to 8 hours (MAX_RECORDING_HOURS).');
    // Decoded, it would have taken the worker up by a gigabyte; refused, by nothing worth the name.
    expect(peakRssMb(worker.pid) - before).toBeLessThan(40);

    // The same worker still transcribes a recording under the cap.
    const short = await storedMeeting(token, path.join(sharedAudioDir(), 'goforward.wav'), 'audio/wav', 2);
    await expect.poll(async () => (await meeting(token, short)).status, { timeout: 30_000, interval: 100 }).toBe('ready');
    expect((await meeting(token, short)).segments.map((s) => s.text)).toEqual(['Line 1 of the recording.']);
  });

  it('transcribes a 2-hour recording without speakers in windows, its memory flat and its lines whole across window edges', { timeout: 240_000 }, async () => {
    const twoHours = silentHours(2);
    const worker = await startTestWorker('tests/support/transcription-worker.ts', {
      ...databaseEnv(web.database.target),
      DATA_DIR: web.config.dataDir,
      TRANSCRIBE_MAX_ATTEMPTS: '1',
      TRANSCRIBE_RETRY_DELAY_SECONDS: '1',
      WORKER_ENGINE: 'fake',
    });
    const { token } = await signUpUser(web.app, 'limits', { samples: false });
    const before = peakRssMb(worker.pid);
    // Noise Reduction off: ffmpeg's denoiser runs in ffmpeg's process, not the worker's whose memory is
    // asserted, and on two hours it is long CPU work (the hour of talk below keeps it, on the recogniser's copy).
    const id = await storedMeeting(token, twoHours, 'audio/ogg', 2 * 3600, { speakerDetection: false, noiseReduction: false });
    await expect.poll(async () => (await meeting(token, id)).status, { timeout: 200_000, interval: 500 }).toBe('ready');
    // Decoded whole, 2 hours are 230 MB of PCM, and as much again while joined: windows keep it small.
    expect(peakRssMb(worker.pid) - before).toBeLessThan(120);
    // The fake engine says one line per 10 s of what it is given: twelve windows, no line lost or doubled at an edge.
    const segments = (await meeting(token, id)).segments;
    // (Opus decodes a few seconds past 2 hours here: each joined minute of the generated file keeps its padding.)
    expect(segments.length).toBeGreaterThanOrEqual(720);
    expect(segments.length).toBeLessThanOrEqual(730);
    expect(segments.map((s) => s.startMs)).toEqual(Array.from({ length: segments.length }, (_, i) => i * 10_000));
  });
});

describe('speaker identification a window at a time', () => {
  let web: TestApp;
  beforeAll(async () => {
    web = await buildTestApp({
      env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false', TRANSCRIBE_MAX_ATTEMPTS: '1' },
      deps: { role: 'web', jobTimings: { ...TEST_JOB_TIMINGS, leaseMs: 5_000, pollMs: 100 } },
    });
  });
  afterEach(() => killTestWorkers());
  afterAll(() => web.close());

  it('transcribes an hour of talk with its speakers told apart, the worker holding a window of it, not the hour', { timeout: 600_000 }, async () => {
    const hour = talkHours(1);
    const worker = await startTestWorker('tests/support/transcription-worker.ts', {
      ...databaseEnv(web.database.target),
      DATA_DIR: web.config.dataDir,
      TRANSCRIBE_MAX_ATTEMPTS: '1',
      TRANSCRIBE_RETRY_DELAY_SECONDS: '1',
      WORKER_ENGINE: 'fake',
      WORKER_SPEAKERS: 'clustering',
    });
    const { token } = await signUpUser(web.app, 'speakers-memory', { samples: false });
    const before = peakRssMb(worker.pid);
    // Speaker Detection on (the default).
    const id = await storeAndQueue(web, token, hour, 'audio/ogg', 3600);
    await expect.poll(async () => (await meetingOf(web, token, id)).status, { timeout: 560_000, interval: 1_000 }).toBe('ready');
    // Decoded whole, an hour is 115 MB of PCM, and as much again while its pieces are joined (230 MB).
    // A window at a time it grew 60–115 MB (two windows' PCM in flight, V8 collecting when it likes).
    expect(peakRssMb(worker.pid) - before).toBeLessThan(160);
    const done = await meetingOf(web, token, id);
    // Every line kept once across the six windows' edges (Opus decodes a few seconds past the hour,
    // as above), and told apart: the minute's voices recur all hour.
    expect(done.segments.length).toBeGreaterThanOrEqual(360);
    expect(done.segments.length).toBeLessThanOrEqual(365);
    expect(done.segments.map((s) => s.startMs)).toEqual(Array.from({ length: done.segments.length }, (_, i) => i * 10_000));
    expect(done.speakers.length).toBeGreaterThanOrEqual(2);
  });
});

describe('stage time limits', () => {
  let t: TestApp;
  const seen: AbortSignal[] = [];
  beforeAll(async () => {
    const stalling = createStallingSpeechEngine(() => undefined);
    t = await buildTestApp({
      env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' },
      deps: {
        speech: { engine: { ...stalling, transcribe: (pcm, options) => (options?.signal && seen.push(options.signal), stalling.transcribe(pcm, options)) } },
        stageLimits: {
          decoding: { floorMs: 60_000, perAudioSecondMs: 0 },
          transcribing: { floorMs: 500, perAudioSecondMs: 0 },
          'identifying speakers': { floorMs: 60_000, perAudioSecondMs: 0 },
        },
      },
    });
  });
  afterAll(() => t.close());

  it('fails a meeting whose engine never answers once transcribing runs past its limit, and stops the engine', { timeout: 30_000 }, async () => {
    const tone = path.join(scratch, 'tone.wav');
    execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440', '-t', '5', '-ar', '16000', '-ac', '1', tone]);
    const { token } = await signUpUser(t.app, 'limits');
    // Noise Reduction off: the recogniser's denoised copy is made inside the same limit, and on a
    // busy machine ffmpeg's denoiser alone outlasted it, so the engine under test was never called.
    const id = await storeAndQueue(t, token, tone, 'audio/wav', 5, { noiseReduction: false });
    await expect.poll(async () => (await meetingOf(t, token, id)).status, { timeout: 20_000, interval: 100 }).toBe('failed');
    expect((await meetingOf(t, token, id)).failureReason).toBe('Transcription stopped: transcribing took longer than 1 s, its limit for a recording of 5 s.');
    expect(seen.at(-1)?.aborted).toBe(true);
    // Not retried: the same machine would only wait as long again.
    expect(await t.deps.services.transcription.jobOf(id)).toMatchObject({ state: 'failed', attempts: 1 });
  });
});
