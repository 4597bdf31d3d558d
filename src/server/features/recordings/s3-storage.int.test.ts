import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MeetingDetail } from '#shared/contracts/meetings.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { createFakeSpeakerIdentifier, createFakeSpeechEngine } from '#tests/support/fake-speech.ts';
import { useTestS3, type TestS3 } from '#tests/support/s3.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';

// The whole app with STORAGE_URL naming a bucket on a real S3 server (Swift s3api): a recording
// uploaded with tus in pieces (one interrupted and resumed) lands in the bucket and nowhere on disk,
// is transcribed, played back by range, converted for download, and deleted with its meeting.

let t: TestApp | undefined;
let s3: TestS3 | { skipped: string };
let bucket: S3Client;
beforeAll(async () => {
  s3 = await useTestS3();
  if ('skipped' in s3) return;
  const settings = s3.settings;
  t = await buildTestApp({
    listen: true,
    env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false', ...settings, STORAGE_URL: `${settings.STORAGE_URL}/${s3.prefix}` },
    deps: { speech: { engine: createFakeSpeechEngine(), speakers: createFakeSpeakerIdentifier() } },
  });
  bucket = new S3Client({
    endpoint: settings.S3_ENDPOINT,
    region: settings.S3_REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: settings.S3_ACCESS_KEY_ID, secretAccessKey: settings.S3_SECRET_ACCESS_KEY },
  });
});
afterAll(async () => {
  bucket?.destroy();
  await t?.close();
  if (s3 && !('skipped' in s3)) await s3.release();
});

const CLIP = path.join(sharedAudioDir(), 'goforward.wav');

/** The keys in the test's part of the bucket. */
async function objects(): Promise<string[]> {
  if (!s3 || 'skipped' in s3) return [];
  const { prefix } = s3;
  const page = await bucket.send(new ListObjectsV2Command({ Bucket: 'parley-test', Prefix: prefix }));
  return (page.Contents ?? []).map((object) => object.Key!.slice(prefix.length)).sort();
}

function send(token: string, data: Buffer, options: Partial<tus.UploadOptions>): Promise<{ url: string; error?: Error }> {
  return new Promise((resolve) => {
    const upload: tus.Upload = new tus.Upload(data, {
      endpoint: `${t!.baseUrl}/uploads`,
      headers: { authorization: `Bearer ${token}` },
      retryDelays: [],
      onSuccess: () => resolve({ url: upload.url ?? '' }),
      onError: (error) => resolve({ url: upload.url ?? '', error }),
      ...options,
    });
    upload.start();
  });
}

/** Sends the first `chunkSize` bytes of an upload, then gives the connection up; answers the upload's URL. */
function sendFirstPiece(auth: Record<string, string>, data: Buffer, metadata: Record<string, string>, chunkSize: number): Promise<string> {
  return new Promise<string>((resolve) => {
    const upload: tus.Upload = new tus.Upload(data, {
      endpoint: `${t!.baseUrl}/uploads`,
      headers: auth,
      metadata,
      chunkSize,
      retryDelays: [],
      onChunkComplete: () => {
        void upload.abort().then(() => resolve(upload.url ?? ''));
      },
    });
    upload.start();
  });
}

async function newMeeting(auth: Record<string, string>): Promise<string> {
  const created = await fetch(`${t!.baseUrl}/api/v1/meetings`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'On S3', source: 'upload' }),
  });
  return ((await created.json()) as MeetingDetail).id;
}

/**
 * An upload whose every byte arrived and was moved into the bucket, as a process killed during the
 * hand-over (decoding, before its meeting took it) left it. Answers its URL and where it moved.
 */
async function movedButNotHandedOver(auth: Record<string, string>, userId: string, meetingId: string) {
  const app = t!;
  const data = fs.readFileSync(CLIP);
  const b64 = (value: string) => Buffer.from(value).toString('base64');
  const created = await fetch(`${app.baseUrl}/uploads`, {
    method: 'POST',
    headers: {
      ...auth,
      'tus-resumable': '1.0.0',
      'upload-length': String(data.length),
      'upload-metadata': `meetingId ${b64(meetingId)},filetype ${b64('audio/wav')}`,
    },
  });
  const url = new URL(created.headers.get('location')!, app.baseUrl).toString();
  const uploadId = url.split('/').pop()!;
  await app.deps.uploads.store.write(Readable.from([data]), uploadId, 0);
  const key = await app.deps.uploads.store.moveInto(app.deps.blobs, uploadId, 'wav', { ownerId: userId, kind: 'recording' });
  return { url, uploadId, key, bytes: data.length };
}

describe('storage on S3', () => {
  it('uploads, transcribes, plays back by range, converts and deletes a recording, all in the bucket', async (context) => {
    if ('skipped' in s3) return context.skip(s3.skipped);
    const app = t!;
    const { token } = await signUpUser(app.app, 's3');
    const auth = { authorization: `Bearer ${token}` };
    const id = await newMeeting(auth);
    const data = fs.readFileSync(CLIP);
    const metadata = { meetingId: id, filetype: 'audio/wav', filename: 'goforward.wav' };
    const chunkSize = Math.ceil(data.length / 3);

    // The first piece arrives, then the connection is given up; the upload resumes where it was acknowledged.
    const first = await sendFirstPiece(auth, data, metadata, chunkSize);
    const head = await fetch(first, { method: 'HEAD', headers: { ...auth, 'tus-resumable': '1.0.0' } });
    expect(head.headers.get('upload-offset')).toBe(String(chunkSize));
    const uploadId = first.split('/').pop()!;
    expect((await objects()).filter((key) => key.startsWith(`uploads/${uploadId}/`))).toHaveLength(1);

    const resumed = await send(token, data, { metadata, chunkSize, uploadUrl: first });
    expect(resumed.error).toBeUndefined();
    await app.app.transcription.idle();
    const meeting = (await (await fetch(`${app.baseUrl}/api/v1/meetings/${id}`, { headers: auth })).json()) as MeetingDetail;
    expect(meeting.status).toBe('ready');
    expect(meeting.durationSeconds).toBe(3);
    expect(meeting.segments.map((s) => s.text)).toEqual(['Line 1 of the recording.']);

    // The recording is one object in the bucket; the upload's pieces are gone, its finished marker stays until it expires.
    const row = await app.deps.database.db.selectFrom('meetings').select(['audio_key']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(await objects()).toEqual([row.audio_key, `uploads/${uploadId}.info`].sort());
    expect(fs.existsSync(path.join(app.config.dataDir, 'blobs'))).toBe(false);

    const ranged = await fetch(`${app.baseUrl}/api/v1/meetings/${id}/audio`, { headers: { ...auth, range: 'bytes=100-199' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 100-199/${data.length}`);
    expect(Buffer.from(await ranged.arrayBuffer())).toEqual(data.subarray(100, 200));
    const whole = await fetch(`${app.baseUrl}/api/v1/meetings/${id}/audio`, { headers: auth });
    expect(Buffer.from(await whole.arrayBuffer())).toEqual(data);

    const peaks = await fetch(`${app.baseUrl}/api/v1/meetings/${id}/audio/peaks`, { headers: auth });
    expect(peaks.status).toBe(200);
    const mp3 = await fetch(`${app.baseUrl}/api/v1/meetings/${id}/audio/download?format=mp3`, { headers: auth });
    expect(mp3.status).toBe(200);
    expect(mp3.headers.get('content-type')).toBe('audio/mpeg');
    expect((await mp3.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    const mp3Key = row.audio_key!.replace(/\.wav$/, '.mp3');
    expect(await objects()).toContain(mp3Key);

    const deleted = await fetch(`${app.baseUrl}/api/v1/meetings/${id}`, { method: 'DELETE', headers: auth });
    expect(deleted.status).toBe(200);
    await expect.poll(async () => (await objects()).filter((key) => !key.startsWith('uploads/'))).toEqual([]);
  }, 120_000);

  it('expires an upload left unfinished: its pieces leave the bucket and its meeting fails with the reason', async (context) => {
    if ('skipped' in s3) return context.skip(s3.skipped);
    const app = t!;
    const { token } = await signUpUser(app.app, 's3');
    const auth = { authorization: `Bearer ${token}` };
    const id = await newMeeting(auth);
    const data = fs.readFileSync(CLIP);
    const url = await sendFirstPiece(auth, data, { meetingId: id, filetype: 'audio/wav' }, Math.ceil(data.length / 2));
    const uploadId = url.split('/').pop()!;
    expect((await objects()).filter((key) => key.startsWith(`uploads/${uploadId}`))).toEqual([`uploads/${uploadId}.info`, `uploads/${uploadId}/000000`]);

    const later = new Date(Date.now() + app.config.uploads.expiryMs + 60_000);
    expect((await app.deps.uploads.sweeper.runOnce(later)).expired).toBe(1);
    expect((await objects()).filter((key) => key.startsWith('uploads/'))).toEqual([]);
    const meeting = (await (await fetch(`${app.baseUrl}/api/v1/meetings/${id}`, { headers: auth })).json()) as MeetingDetail;
    expect(meeting.status).toBe('failed');
    expect(meeting.failureReason).toBe('The recording never finished uploading.');
    expect((await fetch(url, { method: 'HEAD', headers: { ...auth, 'tus-resumable': '1.0.0' } })).status).toBe(404);
  });

  it('hands an upload whose pieces had moved into the bucket to its meeting on the next HEAD', async (context) => {
    if ('skipped' in s3) return context.skip(s3.skipped);
    const app = t!;
    const { token, userId } = await signUpUser(app.app, 's3');
    const auth = { authorization: `Bearer ${token}` };
    const id = await newMeeting(auth);
    const { url, uploadId, key, bytes } = await movedButNotHandedOver(auth, userId, id);

    const head = await fetch(url, { method: 'HEAD', headers: { ...auth, 'tus-resumable': '1.0.0' } });
    expect([head.status, head.headers.get('upload-offset')]).toEqual([200, String(bytes)]);
    await app.app.transcription.idle();
    const meeting = (await (await fetch(`${app.baseUrl}/api/v1/meetings/${id}`, { headers: auth })).json()) as MeetingDetail;
    expect(meeting).toMatchObject({ status: 'ready', hasAudio: true });
    expect((await objects()).filter((object) => object === key || object.startsWith(`uploads/${uploadId}`))).toEqual([key, `uploads/${uploadId}.info`].sort());
  });

  it('hands an expired upload whose pieces had moved into the bucket to its meeting, rather than failing it', async (context) => {
    if ('skipped' in s3) return context.skip(s3.skipped);
    const app = t!;
    const { token, userId } = await signUpUser(app.app, 's3');
    const auth = { authorization: `Bearer ${token}` };
    const id = await newMeeting(auth);
    const { uploadId, key } = await movedButNotHandedOver(auth, userId, id);

    await app.deps.uploads.sweeper.runOnce(new Date(Date.now() + app.config.uploads.expiryMs + 60_000));
    await app.app.transcription.idle();
    const meeting = (await (await fetch(`${app.baseUrl}/api/v1/meetings/${id}`, { headers: auth })).json()) as MeetingDetail;
    expect(meeting).toMatchObject({ status: 'ready', hasAudio: true });
    expect(await objects()).toContain(key);
    expect((await objects()).filter((object) => object.startsWith(`uploads/${uploadId}`))).toEqual([]);
  });
});
