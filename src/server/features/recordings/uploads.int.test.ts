import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MeetingDetail } from '#shared/contracts/meetings.ts';
import { UPLOAD_REFUSED_HAS_AUDIO, UploadRefusalSchema } from '#shared/contracts/uploads.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { createFakeSpeakerIdentifier, createFakeSpeechEngine } from '#tests/support/fake-speech.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';
import { localBlobPath } from '#server/lib/blob-store.ts';

// Resumable audio uploads (tus) end to end: real HTTP, real files, real ffmpeg. The words are not the
// subject here (transcription-jobs.int.test.ts hears them with pocketsphinx): a fake engine transcribes.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({
    listen: true,
    env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false', UPLOAD_MAX_MB: '2' },
    deps: { speech: { engine: createFakeSpeechEngine(), speakers: createFakeSpeakerIdentifier() } },
  });
});
afterAll(() => t.close());

const CLIP = path.join(sharedAudioDir(), 'goforward.wav');
const newUser = async () => (await signUpUser(t.app, 'uploads')).token;

async function newMeeting(token: string, source: 'mic' | 'upload' = 'upload'): Promise<string> {
  const response = await fetch(`${t.baseUrl}/api/v1/meetings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Upload test', source }),
  });
  return ((await response.json()) as MeetingDetail).id;
}

async function meeting(token: string, id: string): Promise<MeetingDetail> {
  return (await (await fetch(`${t.baseUrl}/api/v1/meetings/${id}`, { headers: { authorization: `Bearer ${token}` } })).json()) as MeetingDetail;
}

type UploadOutcome = { ok: true; url: string } | { ok: false; status: number | undefined; body: string };

function upload(token: string, data: Buffer, metadata: Record<string, string>, options: Partial<tus.UploadOptions> = {}): Promise<UploadOutcome> {
  return new Promise((resolve) => {
    const u = new tus.Upload(data, {
      endpoint: `${t.baseUrl}/uploads`,
      headers: { authorization: `Bearer ${token}` },
      metadata,
      retryDelays: [],
      onSuccess: () => resolve({ ok: true, url: u.url ?? '' }),
      onError: (error) => {
        const detailed = error as tus.DetailedError;
        resolve({ ok: false, status: detailed.originalResponse?.getStatus(), body: detailed.originalResponse?.getBody() ?? error.message });
      },
      ...options,
    });
    u.start();
  });
}

const sha = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');

describe('uploading a recording', () => {
  it('stores the audio, measures it, and transcribes it', async () => {
    const token = await newUser();
    const id = await newMeeting(token);
    const data = fs.readFileSync(CLIP);
    const result = await upload(token, data, { meetingId: id, filetype: 'audio/wav', filename: 'goforward.wav' });
    expect(result.ok).toBe(true);
    await t.app.transcription.idle();
    const stored = await meeting(token, id);
    expect(stored.status).toBe('ready');
    expect(stored.hasAudio).toBe(true);
    expect(stored.durationSeconds).toBe(3);
    expect(stored.segments.map((s) => s.text)).toEqual(['Line 1 of the recording.']); // the fake engine's one line for 3 s of decoded audio
    const row = await t.deps.database.db.selectFrom('meetings').select(['audio_key', 'audio_bytes']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(Number(row.audio_bytes)).toBe(data.length); // bigint on PostgreSQL, read back as a string
    expect(sha(fs.readFileSync(localBlobPath(t.config.dataDir, row.audio_key!)))).toBe(sha(data));
    // The dashboard's storage used counts it (the blob store's row, written as the recording was stored).
    const stats = await fetch(`${t.baseUrl}/api/v1/meetings/stats`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await stats.json()) as { storageBytes: number }).storageBytes).toBe(data.length);
  });

  it('resumes an interrupted upload from the acknowledged offset and loses nothing', async () => {
    const token = await newUser();
    const id = await newMeeting(token, 'mic');
    const data = fs.readFileSync(CLIP);
    // Stop after the first 16 KiB chunk is acknowledged, as a closed tab would.
    const first = await new Promise<string>((resolve, reject) => {
      const u: tus.Upload = new tus.Upload(data, {
        endpoint: `${t.baseUrl}/uploads`,
        headers: { authorization: `Bearer ${token}` },
        metadata: { meetingId: id, filetype: 'audio/wav' },
        chunkSize: 16 * 1024,
        retryDelays: [],
        onChunkComplete: () => {
          void u.abort().then(() => resolve(u.url ?? ''));
        },
        onError: reject,
      });
      u.start();
    });
    const head = await fetch(`${t.baseUrl}${new URL(first, t.baseUrl).pathname}`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0' },
    });
    expect(Number(head.headers.get('upload-offset'))).toBe(16 * 1024);
    const resumed = await upload(token, data, { meetingId: id, filetype: 'audio/wav' }, { uploadUrl: new URL(first, t.baseUrl).toString() });
    expect(resumed.ok).toBe(true);
    await t.app.transcription.idle();
    const row = await t.deps.database.db.selectFrom('meetings').select(['audio_key', 'status']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(sha(fs.readFileSync(localBlobPath(t.config.dataDir, row.audio_key!)))).toBe(sha(data));
    expect(row.status).toBe('ready');
  });

  it('answers a second upload for a meeting that has its audio with a refusal the browser can tell from a failure', async () => {
    const token = await newUser();
    const id = await newMeeting(token, 'mic');
    const data = fs.readFileSync(CLIP);
    expect((await upload(token, data, { meetingId: id, filetype: 'audio/wav' })).ok).toBe(true);
    // The browser lost the answer (and the upload's address): it starts again, and hears that the server holds it.
    const again = await upload(token, data, { meetingId: id, filetype: 'audio/wav' });
    expect(again).toMatchObject({ ok: false, status: 409 });
    expect(UploadRefusalSchema.parse(JSON.parse((again as { body: string }).body))).toEqual({
      error: { message: 'This meeting already has its audio.', reason: UPLOAD_REFUSED_HAS_AUDIO },
    });
    await t.app.transcription.idle();
  });
});

describe('bad uploads', () => {
  it('refuses a file that is not audio by its type', async () => {
    const token = await newUser();
    const id = await newMeeting(token);
    const result = await upload(token, Buffer.from('hello'), { meetingId: id, filetype: 'text/plain' });
    expect(result).toMatchObject({ ok: false, status: 415 });
    expect(result.ok === false && result.body).toContain('use an audio file');
  });

  it('marks a corrupt or empty recording failed with the reason and keeps no bytes', async () => {
    const token = await newUser();
    for (const data of [crypto.randomBytes(50_000), Buffer.alloc(0)]) {
      const id = await newMeeting(token);
      const result = await upload(token, data, { meetingId: id, filetype: 'audio/wav' });
      expect(result).toMatchObject({ ok: false, status: 422 });
      const stored = await meeting(token, id);
      expect(stored.status).toBe('failed');
      expect(stored.failureReason).toMatch(/could not be decoded|contains no audio/);
      expect(stored.hasAudio).toBe(false);
    }
    // Nothing half-written stays behind: no bytes, only each finished upload's small info file (kept
    // until it expires so a retry whose answer was lost hears that every byte arrived).
    const left = fs.readdirSync(path.join(t.config.dataDir, 'uploads'));
    expect(left.filter((name) => !name.endsWith('.json'))).toEqual([]);
    for (const name of left) expect(JSON.parse(fs.readFileSync(path.join(t.config.dataDir, 'uploads', name), 'utf8'))).toMatchObject({ finished: true });
  });

  it('refuses a file over the size limit', async () => {
    const token = await newUser();
    const id = await newMeeting(token);
    const result = await upload(token, crypto.randomBytes(3 * 1024 * 1024), { meetingId: id, filetype: 'audio/wav' });
    expect(result).toMatchObject({ ok: false, status: 413 });
  });

  it('refuses a chunk at the wrong offset', async () => {
    const token = await newUser();
    const id = await newMeeting(token);
    const create = await fetch(`${t.baseUrl}/uploads`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'tus-resumable': '1.0.0',
        'upload-length': '1000',
        'upload-metadata': `meetingId ${Buffer.from(id).toString('base64')},filetype ${Buffer.from('audio/wav').toString('base64')}`,
      },
    });
    expect(create.status).toBe(201);
    const location = new URL(create.headers.get('location')!, t.baseUrl).toString();
    const patch = await fetch(location, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0', 'upload-offset': '500', 'content-type': 'application/offset+octet-stream' },
      body: Buffer.alloc(100),
    });
    expect(patch.status).toBe(409);
  });
});

describe('who may upload', () => {
  it('needs a valid token, the caller’s own meeting, and the caller’s own upload', async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const id = await newMeeting(owner);
    const anonymous = await upload('not-a-token', Buffer.alloc(10), { meetingId: id, filetype: 'audio/wav' });
    expect(anonymous).toMatchObject({ ok: false, status: 401 });
    const foreign = await upload(stranger, Buffer.alloc(10), { meetingId: id, filetype: 'audio/wav' });
    expect(foreign).toMatchObject({ ok: false, status: 404 });
    const create = await fetch(`${t.baseUrl}/uploads`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${owner}`,
        'tus-resumable': '1.0.0',
        'upload-defer-length': '1',
        'upload-metadata': `meetingId ${Buffer.from(id).toString('base64')},filetype ${Buffer.from('audio/webm').toString('base64')}`,
      },
    });
    expect(create.status).toBe(201);
    const location = new URL(create.headers.get('location')!, t.baseUrl).toString();
    const peek = await fetch(location, { method: 'HEAD', headers: { authorization: `Bearer ${stranger}`, 'tus-resumable': '1.0.0' } });
    expect(peek.status).toBe(404);
    const own = await fetch(location, { method: 'HEAD', headers: { authorization: `Bearer ${owner}`, 'tus-resumable': '1.0.0' } });
    expect(own.status).toBe(200);
    expect(own.headers.get('upload-defer-length')).toBe('1');
  });
});
