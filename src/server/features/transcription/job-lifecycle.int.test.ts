import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { MeetingDetailSchema, MeetingListResponseSchema, type MeetingDetail } from '#shared/contracts/meetings.ts';
import { RealtimeServerMessageSchema, type MeetingProgressEvent } from '#shared/contracts/realtime.ts';
import { buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import type { DbHandle } from '#server/db/create-db.ts';
import { createDeps } from '#server/deps.ts';
import { finalizeRecording } from '#server/features/recordings/finalize-recording.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { TEST_JOB_TIMINGS } from '#tests/support/test-job-timings.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';
import { createTestDatabase, testDatabaseKind } from '#tests/support/test-database.ts';
import { wordErrorRate } from './word-error-rate.ts';

// A transcription job over its whole life: uploaded over HTTP, watched over a real WebSocket and the
// API, stopped with its server and finished by the next one, and a very long recording.

const AUDIO = sharedAudioDir();
/** 24.7 s of read speech in five utterances: pocketsphinx reports progress several times on it. */
const READ_SPEECH = path.join(AUDIO, 'librivox_ss_5utt.wav');
const ENV = { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false', TRANSCRIBE_ENGINE: 'pocketsphinx' };
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-lifecycle-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

type App = Awaited<ReturnType<typeof buildApp>>;

async function createMeeting(app: App, token: string, title: string): Promise<string> {
  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/meetings',
    headers: { authorization: `Bearer ${token}` },
    payload: { title, source: 'upload' },
  });
  return (created.json() as { id: string }).id;
}

const getMeeting = async (app: App, token: string, id: string): Promise<MeetingDetail> =>
  MeetingDetailSchema.parse((await app.inject({ method: 'GET', url: `/api/v1/meetings/${id}`, headers: { authorization: `Bearer ${token}` } })).json());

/** Events of one person from the hub, with a way to wait for the first that matches. */
function watch(app: App, userId: string) {
  const events: MeetingProgressEvent[] = [];
  const unsubscribe = app.realtime.subscribe(userId, (event) => event.type === 'meeting.progress' && events.push(event));
  const until = (match: (e: MeetingProgressEvent) => boolean) => expect.poll(() => events.some(match), { timeout: 30_000, interval: 20 }).toBe(true);
  return { events, until, unsubscribe };
}

describe('a job stopped with its server', () => {
  let database: DbHandle;
  const dataDir = fs.mkdtempSync(path.join(scratch, 'data-'));
  /** A server as main.ts builds one, on the shared database and data directory. */
  const startServer = async () => {
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_URL: 'http://localhost:3000', DATA_DIR: dataDir, ...ENV });
    const deps = await createDeps(config, { database, jobTimings: TEST_JOB_TIMINGS });
    const app = await buildApp(deps);
    await app.ready();
    return { app, deps };
  };
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it('is handed back mid-transcription and finished by the next server on the same database', { timeout: 90_000 }, async () => {
    const first = await startServer();
    await first.deps.start();
    const { token, userId } = await signUpUser(first.app, 'lifecycle');
    const id = await createMeeting(first.app, token, 'Read aloud');
    const copy = path.join(dataDir, 'incoming.wav');
    fs.copyFileSync(READ_SPEECH, copy);
    await finalizeRecording(
      { meetings: first.deps.services.meetings, blobs: first.deps.blobs, maxRecordingHours: first.deps.config.transcription.maxRecordingHours },
      {
        meetingId: id,
        mimeType: 'audio/wav',
        bytes: fs.statSync(READ_SPEECH).size,
        store: (extension, owner) => first.deps.blobs.adopt(copy, extension, owner),
      },
    );
    const progress = watch(first.app, userId);
    await first.app.transcription.enqueue(id);
    await progress.until((e) => e.stage === 'transcribing');

    // A page opened now reads the stage from the API, before any event reaches it.
    await expect.poll(async () => (await getMeeting(first.app, token, id)).processing?.stage, { timeout: 10_000, interval: 20 }).toBe('transcribing');
    const listed = MeetingListResponseSchema.parse(
      (await first.app.inject({ method: 'GET', url: '/api/v1/meetings', headers: { authorization: `Bearer ${token}` } })).json(),
    );
    expect(listed.items.find((m) => m.id === id)?.processing?.stage).toMatch(/transcribing|identifying speakers|saving/);

    // Graceful shutdown, as close-with-grace does on SIGTERM: the app, then its background work.
    await first.app.close();
    await first.deps.close();
    progress.unsubscribe();
    const second = await startServer();
    const handedBack = await second.deps.services.transcription.jobOf(id);
    expect(handedBack).toMatchObject({ state: 'queued', attempts: 0 });
    expect(progress.events.some((e) => e.status === 'ready')).toBe(false);

    await second.deps.start();
    try {
      await second.app.transcription.idle();
      const done = await getMeeting(second.app, token, id);
      expect(done.status).toBe('ready');
      expect(done.processing).toBeNull();
      const reference = 'and mister john dashwood had then leisure to consider how much there might be prudently in his power to do for them';
      // The first utterance of the clip, recognised after the restart (the whole clip has five).
      expect(
        wordErrorRate(
          reference,
          done.segments
            .map((s) => s.text)
            .join(' ')
            .split(' ')
            .slice(0, 22)
            .join(' '),
        ),
      ).toBeLessThan(0.5);
      const job = await second.deps.services.transcription.jobOf(id);
      expect(job).toMatchObject({ state: 'succeeded', attempts: 1 }); // the interrupted run did not count
    } finally {
      await second.app.close();
      await second.deps.close();
    }
  });
});

describe('progress over the realtime channel', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ listen: true, env: ENV });
  });
  afterAll(() => t.close());

  /** A signed-in socket, with every message it receives. */
  async function socketFor(token: string) {
    const socket = new WebSocket(`${t.baseUrl.replace('http', 'ws')}/realtime`);
    const messages: unknown[] = [];
    socket.on('message', (data) => messages.push(RealtimeServerMessageSchema.parse(JSON.parse(String(data)))));
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    socket.send(JSON.stringify({ type: 'auth', accessToken: token }));
    await expect.poll(() => messages.length).toBe(1);
    const progress = () => messages.filter((m): m is MeetingProgressEvent => (m as { type: string }).type === 'meeting.progress');
    return { socket, progress };
  }

  function uploadOverHttp(token: string, meetingId: string, file: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const upload = new tus.Upload(fs.readFileSync(file), {
        endpoint: `${t.baseUrl}/uploads`,
        headers: { authorization: `Bearer ${token}` },
        metadata: { meetingId, filetype: 'audio/wav', filename: path.basename(file) },
        retryDelays: [],
        onSuccess: () => resolve(),
        onError: reject,
      });
      upload.start();
    });
  }

  it('reaches the owner in order from queued to ready, and nobody else', { timeout: 60_000 }, async () => {
    const owner = await signUpUser(t.app, 'lifecycle');
    const other = await signUpUser(t.app, 'lifecycle');
    const ownerSocket = await socketFor(owner.token);
    const otherSocket = await socketFor(other.token);
    const id = await createMeeting(t.app, owner.token, 'Read aloud');

    await uploadOverHttp(owner.token, id, READ_SPEECH);
    await t.app.transcription.idle();
    await expect.poll(() => ownerSocket.progress().at(-1)?.status, { timeout: 5000 }).toBe('ready');

    const events = ownerSocket.progress().filter((e) => e.meetingId === id);
    const stages = events.map((e) => (e.status === 'processing' ? e.stage : e.status));
    const first = (stage: (typeof stages)[number]) => stages.indexOf(stage);
    expect(first('queued')).toBe(0);
    expect(first('decoding')).toBeGreaterThan(first('queued'));
    expect(first('transcribing')).toBeGreaterThan(first('decoding'));
    expect(first('identifying speakers')).toBeGreaterThan(stages.lastIndexOf('transcribing'));
    expect(first('saving')).toBeGreaterThan(first('identifying speakers'));
    expect(stages.at(-1)).toBe('ready');
    const fractions = events.filter((e) => e.stage === 'transcribing').map((e) => e.progress ?? 0);
    expect(fractions.length).toBeGreaterThan(2); // the bar moves while the engine works
    expect([...fractions].sort((a, b) => a - b)).toEqual(fractions);
    expect(otherSocket.progress()).toEqual([]);

    const done = await getMeeting(t.app, owner.token, id);
    expect(done.segments.length).toBeGreaterThan(0);
    ownerSocket.socket.close();
    otherSocket.socket.close();
  });

  // Twenty minutes of decoding and recognition are the pipeline's, the same on either database: on SQLite only.
  it.skipIf(testDatabaseKind() === 'postgres')(
    'ends a 20-minute recording of tone and silence ready, with no transcript, not stuck',
    { timeout: 240_000 },
    async () => {
      const { token } = await signUpUser(t.app, 'lifecycle');
      const file = path.join(scratch, 'twenty-minutes.wav');
      // Ten seconds of a 440 Hz tone, ten of silence, for twenty minutes.
      execFileSync('ffmpeg', [
        '-nostdin',
        '-loglevel',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        "aevalsrc='if(lt(mod(t,20),10),0.3*sin(2*PI*440*t),0)':s=16000:d=1200",
        '-ac',
        '1',
        file,
      ]);
      const id = await createMeeting(t.app, token, 'Very long');
      await uploadOverHttp(token, id, file);
      await t.app.transcription.idle();
      const done = await getMeeting(t.app, token, id);
      expect(done.durationSeconds).toBe(1200);
      expect(done.status).toBe('ready');
      expect(done.segments).toEqual([]);
    },
  );
});
