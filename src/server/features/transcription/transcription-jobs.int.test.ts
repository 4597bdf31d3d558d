import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MeetingDetailSchema, type MeetingDetail } from '#shared/contracts/meetings.ts';
import { MeetingProgressEventSchema, type MeetingProgressEvent } from '#shared/contracts/realtime.ts';
import { localBlobPath } from '#server/lib/blob-store.ts';
import { finalizeRecording } from '#server/features/recordings/finalize-recording.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { TEST_JOB_TIMINGS } from '#tests/support/test-job-timings.ts';
import { startFakeSpeechService } from '#tests/support/fake-openai-speech.ts';
import { FLITE_LINES } from '#tests/support/flite-meeting.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';
import { testDatabaseKind } from '#tests/support/test-database.ts';
import { databaseEnv, killTestWorkers, startTestWorker, WORKER_START_MS } from '#tests/support/test-worker.ts';

const AUDIO = sharedAudioDir();
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-jobs-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** Audio generated with ffmpeg's lavfi sources (silence, a tone). */
function generated(name: string, lavfi: string, seconds: number): string {
  const file = path.join(scratch, `${name}.wav`);
  execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', lavfi, '-t', String(seconds), '-ar', '16000', '-ac', '1', file]);
  return file;
}

// A web-only app (no jobs worked here) never sets up the samples: nothing to wait for.
const signUp = (t: TestApp) => signUpUser(t.app, 'jobs', t.deps.role === 'web' ? { samples: false } : {});

/** A meeting whose recording was stored exactly as a finished upload stores it, then queued. */
async function storedMeeting(t: TestApp, token: string, file: string, options: object = {}): Promise<string> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/v1/meetings',
    headers: { authorization: `Bearer ${token}` },
    payload: { title: path.basename(file), source: 'upload', options },
  });
  const { id } = created.json() as { id: string };
  const copy = path.join(scratch, `${crypto.randomUUID()}.wav`);
  fs.copyFileSync(file, copy);
  await finalizeRecording(
    { meetings: t.deps.services.meetings, blobs: t.deps.blobs, maxRecordingHours: t.config.transcription.maxRecordingHours },
    { meetingId: id, mimeType: 'audio/wav', bytes: fs.statSync(file).size, store: (extension, owner) => t.deps.blobs.adopt(copy, extension, owner) },
  );
  await t.app.transcription.enqueue(id);
  return id;
}

const meeting = async (t: TestApp, token: string, id: string) =>
  MeetingDetailSchema.parse(
    (await t.app.inject({ method: 'GET', url: `/api/v1/meetings/${id}`, headers: { authorization: `Bearer ${token}` } })).json(),
  ) as MeetingDetail;

describe('transcription jobs with pocketsphinx', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false', TRANSCRIBE_ENGINE: 'pocketsphinx' } });
  });
  afterAll(() => t.close());

  it('takes an uploaded clip to ready with its words, reporting each stage to the owner only', async () => {
    const owner = await signUp(t);
    const other = await signUp(t);
    const events: MeetingProgressEvent[] = [];
    const othersEvents: MeetingProgressEvent[] = [];
    const unsubscribe = t.app.realtime.subscribe(owner.userId, (e) => e.type === 'meeting.progress' && events.push(e));
    const unsubscribeOther = t.app.realtime.subscribe(other.userId, (e) => e.type === 'meeting.progress' && othersEvents.push(e));
    const id = await storedMeeting(t, owner.token, path.join(AUDIO, 'goforward.wav'));
    await t.app.transcription.idle();
    unsubscribe();
    unsubscribeOther();

    const result = await meeting(t, owner.token, id);
    expect(result.status).toBe('ready');
    expect(result.segments.map((s) => s.text).join(' ')).toBe('Go forward ten meters.');
    expect(result.speakers.map((s) => s.label)).toEqual(['Speaker 1']);
    const stages = events.filter((e) => e.meetingId === id).map((e) => e.stage ?? e.status);
    expect(stages[0]).toBe('queued');
    expect(stages).toContain('decoding');
    expect(stages).toContain('transcribing');
    expect(stages.at(-2)).toBe('saving');
    expect(stages.at(-1)).toBe('ready');
    expect(othersEvents).toEqual([]);
  });

  /**
   * What a recording's sound makes of it (words, speakers, a clear end for silence, tone or broken
   * bytes) is the engines' and the pipeline's, the same on either database: on SQLite only. The job's
   * states, retries, leases and hand-offs, which the database carries, run on both.
   */
  const onSQLiteOnly = it.skipIf(testDatabaseKind() === 'postgres');

  onSQLiteOnly('separates the three voices of a meeting spoken by flite, within a stated word error rate', { timeout: 60_000 }, async () => {
    // Each line as flite says it, untrimmed, with 0.7 s of silence after it: a file as a person would upload it.
    const lines = FLITE_LINES;
    const parts = lines.map(([voice, text], i) => {
      const raw = path.join(scratch, `line-${i}.wav`);
      execFileSync('flite', ['-voice', voice, '-t', text, '-o', raw]);
      return raw;
    });
    const file = path.join(scratch, 'flite-meeting.wav');
    const inputs = parts.flatMap((p) => ['-i', p]);
    const filter = `${parts.map((_, i) => `[${i}:a]aresample=16000,apad=pad_dur=0.7[a${i}]`).join(';')};${parts.map((_, i) => `[a${i}]`).join('')}concat=n=${parts.length}:v=0:a=1[out]`;
    execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', ...inputs, '-filter_complex', filter, '-map', '[out]', '-ac', '1', '-ar', '16000', file]);

    const { token } = await signUp(t);
    const id = await storedMeeting(t, token, file);
    await t.app.transcription.idle();
    const result = await meeting(t, token, id);
    expect(result.status).toBe('ready');

    const { wordErrorRate } = await import('./word-error-rate.ts');
    const wer = wordErrorRate(lines.map(([, text]) => text).join(' '), result.segments.map((s) => s.text).join(' '));
    expect(wer).toBeLessThan(0.4); // measured 0.27 with Debian's en-us model on flite's voices
    expect(result.speakers).toHaveLength(3);
    // Turns as spoken: kal16, slt, awb, then each again. Consecutive lines of one speaker merge.
    const turns = result.segments.map((s) => s.speakerId).filter((speaker, i, all) => i === 0 || all[i - 1] !== speaker);
    expect(turns).toHaveLength(6);
    expect(new Set(turns.slice(0, 3)).size).toBe(3);
    expect(turns.slice(3)).toEqual(turns.slice(0, 3));
  });

  onSQLiteOnly('ends silent, tone-only and corrupt recordings in a clear state, never stuck', { timeout: 60_000 }, async () => {
    const { token } = await signUp(t);
    const silent = await storedMeeting(t, token, generated('silence', 'anullsrc=r=16000:cl=mono', 8));
    const tone = await storedMeeting(t, token, generated('tone', 'sine=frequency=440:sample_rate=16000', 8));
    await t.app.transcription.idle();
    const silentResult = await meeting(t, token, silent);
    expect(silentResult.status).toBe('ready');
    expect(silentResult.segments).toEqual([]);
    expect((await meeting(t, token, tone)).status).toBe('ready');

    // Corrupt bytes behind a stored recording (the upload check passed, the file broke later).
    const broken = await storedMeeting(t, token, path.join(AUDIO, 'goforward.wav'));
    await t.app.transcription.idle();
    const row = await t.deps.database.db.selectFrom('meetings').select('audio_key').where('id', '=', broken).executeTakeFirstOrThrow();
    fs.writeFileSync(localBlobPath(t.config.dataDir, row.audio_key!), 'not audio at all');
    const retry = await t.app.inject({ method: 'POST', url: `/api/v1/meetings/${broken}/retry`, headers: { authorization: `Bearer ${token}` } });
    expect(retry.statusCode).toBe(409); // it is ready, not failed
    await t.deps.database.db.updateTable('meetings').set({ status: 'processing' }).where('id', '=', broken).execute();
    await t.app.transcription.enqueue(broken);
    await t.app.transcription.idle();
    const failed = await meeting(t, token, broken);
    expect(failed.status).toBe('failed');
    expect(failed.failureReason).toBe('The audio could not be decoded: Invalid data found when processing input'); // no server path
  });

  it('lets only the owner retry, and only a failed meeting', async () => {
    const owner = await signUp(t);
    const stranger = await signUp(t);
    const id = await storedMeeting(t, owner.token, path.join(AUDIO, 'goforward.wav'));
    await t.app.transcription.idle();
    await t.deps.database.db.updateTable('meetings').set({ status: 'failed', failure_reason: 'x' }).where('id', '=', id).execute();
    const denied = await t.app.inject({ method: 'POST', url: `/api/v1/meetings/${id}/retry`, headers: { authorization: `Bearer ${stranger.token}` } });
    expect(denied.statusCode).toBe(404);
    const accepted = await t.app.inject({ method: 'POST', url: `/api/v1/meetings/${id}/retry`, headers: { authorization: `Bearer ${owner.token}` } });
    expect(accepted.statusCode).toBe(202);
    await t.app.transcription.idle();
    expect((await meeting(t, owner.token, id)).status).toBe('ready');
  });
});

describe('transcription jobs against an outage of the speech service', () => {
  let t: TestApp;
  let fake: Awaited<ReturnType<typeof startFakeSpeechService>>;
  beforeAll(async () => {
    fake = await startFakeSpeechService({ apiKey: 'sk-test' });
    t = await buildTestApp({
      env: {
        AUTH_AUTOCONFIRM: 'true',
        AUTH_RATE_LIMITS: 'false',
        TRANSCRIBE_ENGINE: 'openai',
        TRANSCRIBE_OPENAI_URL: fake.url,
        TRANSCRIBE_OPENAI_KEY: 'sk-test',
        TRANSCRIBE_RETRY_DELAY_SECONDS: '1',
        TRANSCRIBE_MAX_ATTEMPTS: '3',
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('retries with backoff while the service is down and succeeds when it is back', async () => {
    const { token, userId } = await signUp(t);
    const events: MeetingProgressEvent[] = [];
    t.app.realtime.subscribe(userId, (e) => e.type === 'meeting.progress' && events.push(e));
    fake.behave('overloaded');
    const before = fake.requests.length;
    const id = await storedMeeting(t, token, path.join(AUDIO, 'goforward.wav'));
    await expect.poll(() => events.some((e) => e.stage?.startsWith('waiting to retry')), { timeout: 10_000 }).toBe(true);
    // The wait is a time, not words: the web counts it down.
    const waiting = events.find((e) => e.stage === 'waiting to retry')!;
    expect(MeetingProgressEventSchema.parse(waiting)).toMatchObject({ status: 'processing', progress: null, retryAt: expect.any(String) });
    expect(Math.abs(Date.parse(waiting.retryAt!) - Date.now())).toBeLessThan(60_000);
    expect((await meeting(t, token, id)).status).toBe('processing');
    fake.behave('ok');
    await expect.poll(async () => (await meeting(t, token, id)).status, { timeout: 15_000 }).toBe('ready');
    expect(fake.requests.length - before).toBeGreaterThanOrEqual(2);
  });

  it('gives up after the last attempt with the service’s own words', async () => {
    const { token } = await signUp(t);
    fake.behave('overloaded');
    const id = await storedMeeting(t, token, path.join(AUDIO, 'goforward.wav'));
    await expect.poll(async () => (await meeting(t, token, id)).status, { timeout: 20_000, interval: 200 }).toBe('failed');
    expect((await meeting(t, token, id)).failureReason).toContain('overloaded');
    fake.behave('ok');
  });
});

describe('transcription workers that die mid-job', () => {
  // A web process (it only queues) and worker processes whose engine never finishes, killed with
  // SIGKILL mid-job as a crash or an OOM kill would; the queue's lease decides when the job is free again.
  let web: TestApp;
  beforeAll(async () => {
    web = await buildTestApp({
      env: {
        AUTH_AUTOCONFIRM: 'true',
        AUTH_RATE_LIMITS: 'false',
        TRANSCRIBE_ENGINE: 'pocketsphinx',
        TRANSCRIBE_MAX_ATTEMPTS: '2',
        TRANSCRIBE_RETRY_DELAY_SECONDS: '1',
      },
      deps: { role: 'web', jobTimings: { ...TEST_JOB_TIMINGS, leaseMs: 1_000, pollMs: 100 } },
    });
  });
  afterEach(() => killTestWorkers());
  afterAll(() => web.close());

  const worker = () =>
    startTestWorker('tests/support/transcription-worker.ts', {
      ...databaseEnv(web.database.target),
      DATA_DIR: web.config.dataDir,
      TRANSCRIBE_MAX_ATTEMPTS: '2',
      TRANSCRIBE_RETRY_DELAY_SECONDS: '1',
    });
  /** This test's own process starts working the queue (a worker that stays up). */
  const workHere = () => web.deps.jobs.start({ work: true });

  it('picks up a job whose worker died, once its lease has run out', { timeout: WORKER_START_MS + 60_000 }, async () => {
    const { token } = await signUp(web);
    const dying = await worker();
    const id = await storedMeeting(web, token, path.join(AUDIO, 'goforward.wav'));
    await dying.waitFor('transcribing');
    await dying.kill();
    expect((await meeting(web, token, id)).status).toBe('processing');
    await workHere();
    await expect.poll(async () => (await meeting(web, token, id)).status, { timeout: 45_000, interval: 200 }).toBe('ready');
    // The meeting is ready inside the job's run; the queue records the job done just after.
    await expect.poll(async () => (await web.deps.services.transcription.jobOf(id))?.state, { timeout: 15_000, interval: 100 }).toBe('succeeded');
    expect(await web.deps.services.transcription.jobOf(id)).toMatchObject({ state: 'succeeded', attempts: 2 });
  });

  it('fails a job whose runs keep dying with their process, instead of trying forever', { timeout: WORKER_START_MS + 60_000 }, async () => {
    await web.deps.jobs.stop();
    await web.deps.jobs.start({ work: false });
    const { token } = await signUp(web);
    const id = await storedMeeting(web, token, path.join(AUDIO, 'goforward.wav'));
    for (let run = 0; run < 2; run += 1) {
      const dying = await worker();
      await dying.waitFor('transcribing');
      await dying.kill();
    }
    await workHere();
    await expect.poll(async () => (await meeting(web, token, id)).status, { timeout: 45_000, interval: 200 }).toBe('failed');
    const failed = await meeting(web, token, id);
    expect(failed.failureReason).toBe('The transcription was interrupted 2 times before it could finish (the server stopped while working on it). Try again.');
    expect(failed.segments).toEqual([]);
  });
});
