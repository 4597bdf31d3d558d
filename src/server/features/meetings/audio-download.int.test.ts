import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';
import { localBlobPath } from '#server/lib/blob-store.ts';

let t: TestApp;
let scratch: string;
beforeAll(async () => {
  t = await buildTestApp({ env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' } });
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-audio-download-'));
});
afterAll(async () => {
  await t.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

const inject = (token: string | undefined, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } });

/** What ffprobe says of a file: its container and its length in seconds (null when the container does not say). */
function probe(file: string): { format: string; seconds: number | null; codec: string } {
  const out = execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=format_name,duration:stream=codec_name', '-of', 'json', file], {
    encoding: 'utf8',
  });
  const json = JSON.parse(out) as { format: { format_name: string; duration?: string }; streams: { codec_name: string }[] };
  return { format: json.format.format_name, seconds: json.format.duration ? Number(json.format.duration) : null, codec: json.streams[0]?.codec_name ?? '' };
}

/**
 * A recording as the browser's MediaRecorder leaves it: Opus in WebM written as a stream, so the
 * container never learns its length. Made from a real 11-second speech clip.
 */
function browserStyleWebm(): Buffer {
  return execFileSync(
    'ffmpeg',
    ['-nostdin', '-hide_banner', '-loglevel', 'error', '-i', path.join(sharedAudioDir(), 'jfk.wav'), '-c:a', 'libopus', '-b:a', '32k', '-f', 'webm', 'pipe:1'],
    { maxBuffer: 64 * 1024 * 1024 },
  );
}

describe('recording downloads', () => {
  let token: string;
  let meetingId: string;
  let recordingKey: string;
  const saved = (name: string, body: Buffer) => {
    const file = path.join(scratch, name);
    fs.writeFileSync(file, body);
    return file;
  };

  beforeAll(async () => {
    token = (await signUpUser(t.app, 'audio-download')).token;
    const created = await inject(token, 'POST', '/api/v1/meetings', { title: 'Moon speech' });
    meetingId = (created.json() as { id: string }).id;
    // Stored as the recording flow stores it: a blob under a generated key, named on the meeting.
    const webm = browserStyleWebm();
    recordingKey = t.deps.blobs.newKey('webm');
    fs.mkdirSync(path.dirname(localBlobPath(t.config.dataDir, recordingKey)), { recursive: true });
    fs.writeFileSync(localBlobPath(t.config.dataDir, recordingKey), webm);
    await t.deps.database.db
      .updateTable('meetings')
      .set({ audio_key: recordingKey, audio_mime: 'audio/webm', audio_bytes: webm.length, status: 'ready' })
      .where('id', '=', meetingId)
      .execute();
  });

  it('the stored recording, like the browser makes it, does not say how long it is', async () => {
    const raw = await inject(token, 'GET', `/api/v1/meetings/${meetingId}/audio`);
    expect(raw.statusCode).toBe(200);
    expect(probe(saved('raw.webm', raw.rawPayload))).toMatchObject({ format: 'matroska,webm', seconds: null });
  });

  it('downloads as MP3 by default (Settings › Recording › Default File Format), with its duration', async () => {
    const response = await inject(token, 'GET', `/api/v1/meetings/${meetingId}/audio/download`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('audio/mpeg');
    expect(response.headers['content-disposition']).toBe('attachment; filename="Moon speech.mp3"');
    const file = probe(saved('default.mp3', response.rawPayload));
    expect(file).toMatchObject({ format: 'mp3', codec: 'mp3' });
    expect(file.seconds).toBeGreaterThan(10.5);
    expect(file.seconds).toBeLessThan(11.5);
  });

  it('follows the format chosen in Settings › Recording, and one asked for in the request', async () => {
    expect((await inject(token, 'PUT', '/api/v1/settings/recording', { format: 'wav' })).statusCode).toBe(200);
    const wav = await inject(token, 'GET', `/api/v1/meetings/${meetingId}/audio/download`);
    expect(wav.statusCode).toBe(200);
    expect(wav.headers['content-type']).toBe('audio/wav');
    expect(wav.headers['content-disposition']).toBe('attachment; filename="Moon speech.wav"');
    const wavFile = probe(saved('settings.wav', wav.rawPayload));
    expect(wavFile).toMatchObject({ format: 'wav', codec: 'pcm_s16le' });
    expect(wavFile.seconds).toBeCloseTo(11, 0);

    expect((await inject(token, 'PUT', '/api/v1/settings/recording', { format: 'aac' })).statusCode).toBe(200);
    const aac = await inject(token, 'GET', `/api/v1/meetings/${meetingId}/audio/download`);
    expect(aac.statusCode).toBe(200);
    expect(aac.headers['content-type']).toBe('audio/mp4');
    expect(aac.headers['content-disposition']).toBe('attachment; filename="Moon speech.m4a"');
    const aacFile = probe(saved('settings.m4a', aac.rawPayload));
    expect(aacFile.format).toContain('mp4');
    expect(aacFile.codec).toBe('aac');
    expect(aacFile.seconds).toBeCloseTo(11, 0);

    const asked = await inject(token, 'GET', `/api/v1/meetings/${meetingId}/audio/download?format=mp3`);
    expect(asked.headers['content-type']).toBe('audio/mpeg');
    expect(probe(saved('asked.mp3', asked.rawPayload)).format).toBe('mp3');
  });

  it('converts once: the file is kept beside the recording and served again with byte ranges', async () => {
    const mp3Key = t.deps.blobs.siblingKey(recordingKey, 'mp3');
    expect(await t.deps.blobs.exists(mp3Key)).toBe(true);
    const stored = fs.readFileSync(localBlobPath(t.config.dataDir, mp3Key));
    const first = fs.statSync(localBlobPath(t.config.dataDir, mp3Key)).mtimeMs;
    const whole = await inject(token, 'GET', `/api/v1/meetings/${meetingId}/audio/download?format=mp3`);
    expect(whole.rawPayload.equals(stored)).toBe(true);
    expect(fs.statSync(localBlobPath(t.config.dataDir, mp3Key)).mtimeMs).toBe(first);
    const part = await inject(token, 'GET', `/api/v1/meetings/${meetingId}/audio/download?format=mp3`, undefined, { range: 'bytes=100-199' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${stored.length}`);
    expect(part.rawPayload.equals(stored.subarray(100, 200))).toBe(true);
  });

  it("counts the files it converts against the owner's storage, and frees it when the meeting goes", async () => {
    const stats = async () => (await inject(token, 'GET', '/api/v1/meetings/stats')).json() as { storageBytes: number };
    // The recording itself was placed without the store's row (beforeAll): what is counted is the conversions.
    const converted = ['mp3', 'wav', 'm4a'].reduce(
      (sum, extension) => sum + fs.statSync(localBlobPath(t.config.dataDir, t.deps.blobs.siblingKey(recordingKey, extension))).size,
      0,
    );
    expect((await stats()).storageBytes).toBe(converted);
  });

  it("keeps the downloads through the orphan sweep while the recording's meeting exists", async () => {
    // Two hours on: every file is past the sweep's hour of grace.
    await t.deps.uploads.sweeper.sweepOrphans(new Date(Date.now() + 2 * 3_600_000));
    for (const extension of ['webm', 'mp3', 'wav', 'm4a'])
      expect(await t.deps.blobs.exists(t.deps.blobs.siblingKey(recordingKey, extension)), extension).toBe(true);
  });

  it('refuses another person, no sign-in and an unknown format; a meeting without audio says so', async () => {
    const stranger = (await signUpUser(t.app, 'audio-download')).token;
    const theirs = await inject(stranger, 'GET', `/api/v1/meetings/${meetingId}/audio/download`);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Meeting not found' } });
    expect((await inject(undefined, 'GET', `/api/v1/meetings/${meetingId}/audio/download`)).statusCode).toBe(401);
    const unknown = await inject(token, 'GET', `/api/v1/meetings/${meetingId}/audio/download?format=flac`);
    expect(unknown.statusCode).toBe(400);
    expect((unknown.json() as { error: { code: string } }).error.code).toBe('VALIDATION_FAILED');
    const silent = (await inject(token, 'POST', '/api/v1/meetings', { title: 'No audio' })).json() as { id: string };
    const none = await inject(token, 'GET', `/api/v1/meetings/${silent.id}/audio/download`);
    expect(none.statusCode).toBe(404);
    expect(none.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'This meeting has no audio recording' } });
  });

  it('deleting the meeting deletes the recording and every download made of it', async () => {
    expect((await inject(token, 'DELETE', `/api/v1/meetings/${meetingId}`)).statusCode).toBeLessThan(300);
    for (const extension of ['webm', 'mp3', 'wav', 'm4a'])
      expect(await t.deps.blobs.exists(t.deps.blobs.siblingKey(recordingKey, extension)), extension).toBe(false);
    expect(((await inject(token, 'GET', '/api/v1/meetings/stats')).json() as { storageBytes: number }).storageBytes).toBe(0);
  });
});
