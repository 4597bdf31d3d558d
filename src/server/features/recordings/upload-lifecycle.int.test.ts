import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MeetingDetail, MeetingStats } from '#shared/contracts/meetings.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { createFakeSpeakerIdentifier, createFakeSpeechEngine } from '#tests/support/fake-speech.ts';
import { longSilentOpusArgs } from '#tests/support/process-memory.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';
import { localBlobPath } from '#server/lib/blob-store.ts';
import { buildApp } from '#server/app.ts';
import { createDeps } from '#server/deps.ts';
import { finalizeRecording } from './finalize-recording.ts';

// What an upload leaves behind and how long it may live (issue 12): one upload per meeting, a deleted
// meeting's upload cancelled, expiry, the storage quota, orphan files, and a finished upload that
// still answers a client whose answer was lost. Real HTTP against the real server, real files.

const QUOTA = 1024 ** 3; // STORAGE_QUOTA_GB=1, the smallest quota

let t: TestApp;
beforeAll(async () => {
  // The words are not the subject here: a fake engine transcribes what is uploaded.
  t = await buildTestApp({
    listen: true,
    env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false', STORAGE_QUOTA_GB: '1' },
    deps: { speech: { engine: createFakeSpeechEngine(), speakers: createFakeSpeakerIdentifier() } },
  });
});
afterAll(() => t.close());

const CLIP = path.join(sharedAudioDir(), 'goforward.wav');
const HOUR = 60 * 60 * 1000;
const uploadsDir = () => path.join(t.config.dataDir, 'uploads');
const blobsDir = () => path.join(t.config.dataDir, 'blobs');
const b64 = (value: string) => Buffer.from(value).toString('base64');

async function newMeeting(token: string): Promise<string> {
  const response = await fetch(`${t.baseUrl}/api/v1/meetings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Lifecycle test', source: 'upload' }),
  });
  return ((await response.json()) as MeetingDetail).id;
}

async function meeting(token: string, id: string): Promise<MeetingDetail> {
  return (await (await fetch(`${t.baseUrl}/api/v1/meetings/${id}`, { headers: { authorization: `Bearer ${token}` } })).json()) as MeetingDetail;
}

/** POST /uploads as tus-js-client sends it: a known length, or a deferred one for a live recording. */
async function create(token: string, meetingId: string, length: number | 'deferred', baseUrl = t.baseUrl) {
  return fetch(`${baseUrl}/uploads`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'tus-resumable': '1.0.0',
      ...(length === 'deferred' ? { 'upload-defer-length': '1' } : { 'upload-length': String(length) }),
      'upload-metadata': `meetingId ${b64(meetingId)},filetype ${b64('audio/wav')}`,
    },
  });
}

const locationOf = (response: Response) => new URL(response.headers.get('location')!, t.baseUrl).toString();

async function patch(token: string, url: string, offset: number, body: Buffer, extra: Record<string, string> = {}) {
  return fetch(url, {
    method: 'PATCH',
    headers: {
      authorization: `Bearer ${token}`,
      'tus-resumable': '1.0.0',
      'upload-offset': String(offset),
      'content-type': 'application/offset+octet-stream',
      ...extra,
    },
    body,
  });
}

const head = (token: string, url: string) => fetch(url, { method: 'HEAD', headers: { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0' } });
const messageOf = async (response: Response) => ((await response.json()) as { error: { message: string } }).error.message;
const filesIn = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()) : []);

/**
 * An upload whose every byte arrived and was moved into the blob store, as a process killed during
 * the hand-over (decoding, before its meeting took it) left it. Answers its URL and where it moved.
 */
async function movedButNotHandedOver(token: string, userId: string, meetingId: string) {
  const data = fs.readFileSync(CLIP);
  const url = locationOf(await create(token, meetingId, data.length));
  const uploadId = url.split('/').pop()!;
  await t.deps.uploads.store.write(Readable.from([data]), uploadId, 0);
  const key = await t.deps.uploads.store.moveInto(t.deps.blobs, uploadId, 'wav', { ownerId: userId, kind: 'recording' });
  expect(await t.deps.uploads.store.bytesOf(uploadId)).toBe(0);
  return { url, uploadId, key, bytes: data.length };
}

describe('one upload per meeting', () => {
  it('refuses a second upload with 409 while the first holds bytes, and stores nothing of it', async () => {
    const { token } = await signUpUser(t.app, 'second');
    const id = await newMeeting(token);
    const first = await create(token, id, 1000);
    expect(first.status).toBe(201);
    expect((await patch(token, locationOf(first), 0, Buffer.alloc(100))).status).toBe(204);
    const before = fs.readdirSync(uploadsDir()).sort();

    const second = await create(token, id, 1000);
    expect(second.status).toBe(409);
    expect(await messageOf(second)).toBe('This meeting’s audio is already being uploaded.');
    expect(fs.readdirSync(uploadsDir()).sort()).toEqual(before);
    // The first goes on as it was.
    expect(Number((await head(token, locationOf(first))).headers.get('upload-offset'))).toBe(100);
  });

  it('lets a new upload replace one that received nothing (the answer to its creation was lost)', async () => {
    const { token } = await signUpUser(t.app, 'replace');
    const id = await newMeeting(token);
    const lost = await create(token, id, 1000);
    const again = await create(token, id, 1000);
    expect(again.status).toBe(201);
    expect((await head(token, locationOf(lost))).status).toBe(404);
    expect((await head(token, locationOf(again))).status).toBe(200);
  });

  it('hands over, rather than replaces, an upload whose every byte arrived when the client begins again', async () => {
    const { token, userId } = await signUpUser(t.app, 'again-moved');
    const id = await newMeeting(token);
    await movedButNotHandedOver(token, userId, id);

    const again = await create(token, id, 1000);
    expect(again.status).toBe(409);
    expect(await messageOf(again)).toBe('This meeting already has its audio.');
    await t.app.transcription.idle();
    expect(await meeting(token, id)).toMatchObject({ status: 'ready', hasAudio: true });
  });
});

describe('deleting a meeting', () => {
  it('cancels its upload in progress and deletes its bytes, so the rest can never land', async () => {
    const { token } = await signUpUser(t.app, 'delete');
    const id = await newMeeting(token);
    const data = fs.readFileSync(CLIP);
    const created = await create(token, id, data.length);
    const url = locationOf(created);
    const uploadId = new URL(url).pathname.split('/').pop()!;
    expect((await patch(token, url, 0, data.subarray(0, 16_384))).status).toBe(204);

    const deleted = await fetch(`${t.baseUrl}/api/v1/meetings/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
    expect(deleted.status).toBe(200);

    expect((await head(token, url)).status).toBe(404);
    expect((await patch(token, url, 16_384, data.subarray(16_384))).status).toBe(404);
    expect(fs.readdirSync(uploadsDir()).filter((name) => name.startsWith(uploadId))).toEqual([]);
  });

  it('stops a PATCH still bringing its bytes: it is answered without the rest, and nothing stays', async () => {
    const { token } = await signUpUser(t.app, 'delete-midway');
    const id = await newMeeting(token);
    const url = new URL(locationOf(await create(token, id, 100_000)));
    const uploadId = url.pathname.split('/').pop()!;
    // A slow client: 16 KiB of the 100 KB this PATCH promises, then nothing more.
    let sent!: () => void;
    const started = new Promise<void>((resolve) => (sent = resolve));
    const answered = new Promise<number>((resolve, reject) => {
      const request = http.request(url, {
        method: 'PATCH',
        headers: {
          authorization: `Bearer ${token}`,
          'tus-resumable': '1.0.0',
          'upload-offset': '0',
          'content-type': 'application/offset+octet-stream',
          'content-length': '100000',
        },
      });
      request.on('response', (response) => {
        response.resume();
        // The rest of the promised body will never come: let the connection go.
        request.destroy();
        resolve(response.statusCode ?? 0);
      });
      // The server may answer and close before the body is complete: that is the answer this test waits for.
      request.on('error', (error) => (error.message.includes('socket hang up') || 'code' in error ? resolve(0) : reject(error)));
      request.write(Buffer.alloc(16_384), () => sent());
    });
    await started;
    await expect.poll(() => fs.statSync(path.join(uploadsDir(), uploadId)).size).toBe(16_384);

    const deleted = await fetch(`${t.baseUrl}/api/v1/meetings/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
    expect(deleted.status).toBe(200);
    // Answered without the 83 KB it never sent (tus stops the write and answers with what it has), then forgotten.
    await answered;
    expect(fs.readdirSync(uploadsDir()).filter((name) => name.startsWith(uploadId))).toEqual([]);
    expect((await head(token, url.toString())).status).toBe(404);
  });

  it('keeps no recording when the meeting went while its last bytes were being stored', async () => {
    const source = path.join(t.config.dataDir, 'late-upload.wav');
    fs.copyFileSync(CLIP, source);
    const blobsBefore = filesIn(blobsDir()).length;
    const result = await finalizeRecording(
      { meetings: t.deps.services.meetings, blobs: t.deps.blobs, maxRecordingHours: t.config.transcription.maxRecordingHours },
      {
        meetingId: crypto.randomUUID(),
        mimeType: 'audio/wav',
        bytes: fs.statSync(CLIP).size,
        store: (extension, owner) => t.deps.blobs.adopt(source, extension, owner),
      },
    );
    expect(result).toMatchObject({ ok: false, status: 409 });
    expect(filesIn(blobsDir()).length).toBe(blobsBefore);
  });
});

describe('the recording length cap (MAX_RECORDING_HOURS) at the end of an upload', () => {
  it('fails the meeting with the reason when the container declares too long, before any work is queued', { timeout: 60_000 }, async () => {
    const scratch = fs.mkdtempSync(path.join(t.config.dataDir, 'long-'));
    const long = path.join(scratch, 'long.ogg');
    const args = longSilentOpusArgs(path.join(scratch, 'minute.ogg'), 9.5 * 3600, long);
    execFileSync('ffmpeg', args.minute);
    execFileSync('ffmpeg', args.whole);
    const { token } = await signUpUser(t.app, 'overlong');
    const id = await newMeeting(token);
    const data = fs.readFileSync(long);
    const url = locationOf(await create(token, id, data.length));
    const last = await patch(token, url, 0, data);
    expect(last.status).toBe(422);
    // Refused from its header: only the container's word gives the length (decoding is stopped at
    // the cap, and then the reason says only that it is longer than 8 hours).
    const reason = 'The recording is 9.5 hours long; this server transcribes up to 8 hours (MAX_RECORDING_HOURS).';
    expect(await messageOf(last)).toBe(reason);
    expect(await meeting(token, id)).toMatchObject({ status: 'failed', failureReason: reason });
    expect(await t.deps.services.transcription.jobOf(id)).toBeUndefined();
    fs.rmSync(scratch, { recursive: true, force: true });
  });
});

describe('abandoned uploads', () => {
  it('expire UPLOAD_EXPIRY_HOURS after they began: files removed, the meeting failed with the reason', async () => {
    const { token } = await signUpUser(t.app, 'expire');
    const id = await newMeeting(token);
    const created = await create(token, id, 'deferred');
    expect(created.status).toBe(201);
    // The tus expiration extension: the client is told when the upload will be forgotten.
    const expires = Date.parse(created.headers.get('upload-expires') ?? '');
    expect(expires - Date.now()).toBeGreaterThan(23 * HOUR);
    expect(expires - Date.now()).toBeLessThanOrEqual(24 * HOUR);
    const url = locationOf(created);
    const uploadId = new URL(url).pathname.split('/').pop()!;
    expect((await patch(token, url, 0, Buffer.alloc(500))).status).toBe(204);

    // An hour in, nothing is touched.
    await t.deps.uploads.sweeper.runOnce(new Date(Date.now() + HOUR));
    expect((await meeting(token, id)).status).toBe('recording');

    const swept = await t.deps.uploads.sweeper.runOnce(new Date(Date.now() + 25 * HOUR));
    expect(swept.expired).toBeGreaterThanOrEqual(1);
    const failed = await meeting(token, id);
    expect(failed.status).toBe('failed');
    expect(failed.failureReason).toBe('The recording never finished uploading.');
    expect(fs.readdirSync(uploadsDir()).filter((name) => name.startsWith(uploadId))).toEqual([]);
    expect((await head(token, url)).status).toBe(404);
  });

  it('marks a meeting failed when nothing at all arrived for UPLOAD_EXPIRY_HOURS', async () => {
    const { token } = await signUpUser(t.app, 'idle');
    const id = await newMeeting(token);
    await t.deps.uploads.sweeper.runOnce(new Date(Date.now() + 23 * HOUR));
    expect((await meeting(token, id)).status).toBe('recording');
    await t.deps.uploads.sweeper.runOnce(new Date(Date.now() + 25 * HOUR));
    const failed = await meeting(token, id);
    expect(failed.status).toBe('failed');
    expect(failed.failureReason).toBe('The recording never finished uploading.');
    // An abandoned meeting takes no audio later (a client resuming an expired upload starts a new one: it hears why).
    const late = await create(token, id, 1000);
    expect(late.status).toBe(409);
    expect(await messageOf(late)).toBe('This meeting takes no more audio. The recording never finished uploading.');
  });

  it('marks a meeting failed once UPLOAD_EXPIRY_HOURS passed when the files of its upload are gone', async () => {
    const { token } = await signUpUser(t.app, 'vanished');
    const id = await newMeeting(token);
    const uploadId = new URL(locationOf(await create(token, id, 1000))).pathname.split('/').pop()!;
    for (const name of [uploadId, `${uploadId}.json`]) fs.rmSync(path.join(uploadsDir(), name));
    await t.deps.uploads.sweeper.runOnce(new Date(Date.now() + 23 * HOUR));
    expect((await meeting(token, id)).status).toBe('recording');
    await t.deps.uploads.sweeper.runOnce(new Date(Date.now() + 25 * HOUR));
    expect(await meeting(token, id)).toMatchObject({ status: 'failed', failureReason: 'The recording never finished uploading.' });
  });
  it('hands an expired upload to its meeting, rather than failing it, when its bytes had moved into the blob store', async () => {
    const { token, userId } = await signUpUser(t.app, 'expire-moved');
    const id = await newMeeting(token);
    const { uploadId, key } = await movedButNotHandedOver(token, userId, id);

    await t.deps.uploads.sweeper.runOnce(new Date(Date.now() + 25 * HOUR));
    await t.app.transcription.idle();
    expect(await meeting(token, id)).toMatchObject({ status: 'ready', hasAudio: true });
    expect(await t.deps.blobs.exists(key)).toBe(true);
    expect(fs.readdirSync(uploadsDir()).filter((name) => name.startsWith(uploadId))).toEqual([]);
  });
});

describe('storage quota (STORAGE_QUOTA_GB)', () => {
  /** Gives the account stored audio up to `room` bytes short of the quota (the blob store's row of a recording of theirs). */
  async function fillStorage(userId: string, room: number) {
    await t.deps.database.db
      .insertInto('blobs')
      .values({ key: t.deps.blobs.newKey('webm'), owner_id: userId, kind: 'recording', bytes: QUOTA - room, created_at: new Date().toISOString() })
      .execute();
  }

  it('counts what the dashboard shows as storage used against the quota', async () => {
    const { token, userId } = await signUpUser(t.app, 'stats');
    await fillStorage(userId, QUOTA / 2);
    const stats = (await (await fetch(`${t.baseUrl}/api/v1/meetings/stats`, { headers: { authorization: `Bearer ${token}` } })).json()) as MeetingStats;
    expect(stats.storageBytes).toBe(QUOTA / 2);
    expect(stats.storagePercent).toBe(50);
  });

  it('refuses with 413 at creation an upload whose length does not fit', async () => {
    const { token, userId } = await signUpUser(t.app, 'quota');
    await fillStorage(userId, 1000);
    const id = await newMeeting(token);
    const refused = await create(token, id, 2000);
    expect(refused.status).toBe(413);
    expect(await messageOf(refused)).toBe(
      'This recording does not fit in your 1 GB of storage. Delete meetings you no longer need to make room, then try again.',
    );
    expect((await create(token, id, 900)).status).toBe(201);
  });

  it('refuses with 413 the bytes of a live recording that go past the quota', async () => {
    const { token, userId } = await signUpUser(t.app, 'quota-live');
    await fillStorage(userId, 1000);
    const id = await newMeeting(token);
    const url = locationOf(await create(token, id, 'deferred'));
    expect((await patch(token, url, 0, Buffer.alloc(600))).status).toBe(204);
    const over = await patch(token, url, 600, Buffer.alloc(600));
    expect(over.status).toBe(413);
    expect(await messageOf(over)).toContain('does not fit in your 1 GB of storage');
    // Nothing of the refused chunk was kept.
    expect(Number((await head(token, url)).headers.get('upload-offset'))).toBe(600);
  });

  it('counts uploads under way: two created at once cannot pass the quota together', async () => {
    const { token, userId } = await signUpUser(t.app, 'quota-parallel');
    await fillStorage(userId, 1000);
    const meetings = [await newMeeting(token), await newMeeting(token)];
    const answers = await Promise.all(meetings.map((id) => create(token, id, 600)));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 413]);
    const refused = answers.find((r) => r.status === 413)!;
    expect(await messageOf(refused)).toContain('does not fit in your 1 GB of storage');
    // The admitted upload's 600 bytes stay taken while it is under way: 400 are left, not 1000.
    const other = meetings[answers.indexOf(refused)]!;
    expect((await create(token, other, 401)).status).toBe(413);
    expect((await create(token, other, 400)).status).toBe(201);
  });

  it('counts live recordings under way: two PATCHes at once cannot pass the quota together', async () => {
    const { token, userId } = await signUpUser(t.app, 'quota-parallel-live');
    await fillStorage(userId, 1000);
    const urls = [locationOf(await create(token, await newMeeting(token), 'deferred')), locationOf(await create(token, await newMeeting(token), 'deferred'))];
    const answers = await Promise.all(urls.map((url) => patch(token, url, 0, Buffer.alloc(600))));
    expect(answers.map((r) => r.status).sort()).toEqual([204, 413]);
    const offsets = await Promise.all(urls.map(async (url) => Number((await head(token, url)).headers.get('upload-offset'))));
    expect(offsets.sort()).toEqual([0, 600]);
  });

  it('counts a live recording under way in another web process: its PATCH and one here cannot pass the quota together', async () => {
    const { token, userId } = await signUpUser(t.app, 'quota-two-processes');
    await fillStorage(userId, 1000);
    // A second web process: its own app and wiring over the same database and data folder.
    const otherDeps = await createDeps(t.config, { database: t.database });
    const otherApp = await buildApp(otherDeps);
    await otherApp.listen({ port: 0, host: '127.0.0.1' });
    let request: http.ClientRequest | undefined;
    try {
      const address = otherApp.server.address();
      const otherUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      const here = locationOf(await create(token, await newMeeting(token), 'deferred'));
      const there = new URL(new URL(locationOf(await create(token, await newMeeting(token), 'deferred', otherUrl))).pathname, otherUrl).toString();
      const thereId = new URL(there).pathname.split('/').pop()!;
      // There: a PATCH that promises 600 bytes and has sent 100 of them so far.
      request = http.request(there, {
        method: 'PATCH',
        headers: {
          authorization: `Bearer ${token}`,
          'tus-resumable': '1.0.0',
          'upload-offset': '0',
          'content-type': 'application/offset+octet-stream',
          'content-length': '600',
        },
      });
      const held = request;
      const answered = new Promise<number>((resolve, reject) => {
        held.on('response', (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        });
        held.on('error', reject);
      });
      held.write(Buffer.alloc(100));
      await expect.poll(() => fs.statSync(path.join(uploadsDir(), thereId)).size).toBe(100);
      // Here: 600 more would pass the quota with the 600 promised there, of which only 100 arrived yet.
      const over = await patch(token, here, 0, Buffer.alloc(600));
      expect(over.status).toBe(413);
      expect(await messageOf(over)).toContain('does not fit in your 1 GB of storage');
      held.end(Buffer.alloc(500));
      expect(await answered).toBe(204);
      expect(Number((await head(token, here)).headers.get('upload-offset'))).toBe(0);
    } finally {
      // A request left open (a failed assertion) would keep the other server from closing.
      if (request && !request.writableEnded) request.destroy();
      await otherApp.close();
      await otherDeps.close();
    }
  });

  it("keeps a PATCH's claim while it brings its bytes, whatever a stranger sends to the same upload", async () => {
    const { token, userId } = await signUpUser(t.app, 'quota-claim-held');
    const stranger = await signUpUser(t.app, 'quota-claim-stranger');
    await fillStorage(userId, 1000);
    const first = locationOf(await create(token, await newMeeting(token), 'deferred'));
    const second = locationOf(await create(token, await newMeeting(token), 'deferred'));
    const firstId = new URL(first).pathname.split('/').pop()!;
    const request = http.request(first, {
      method: 'PATCH',
      headers: {
        authorization: `Bearer ${token}`,
        'tus-resumable': '1.0.0',
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
        'content-length': '600',
      },
    });
    try {
      const answered = new Promise<number>((resolve, reject) => {
        request.on('response', (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        });
        request.on('error', reject);
      });
      request.write(Buffer.alloc(100));
      await expect.poll(() => fs.statSync(path.join(uploadsDir(), firstId)).size).toBe(100);
      // Someone else's PATCH to it is refused as if it did not exist, and changes nothing of its claim.
      expect((await patch(stranger.token, first, 100, Buffer.alloc(10))).status).toBe(404);
      expect((await patch(token, second, 0, Buffer.alloc(600))).status).toBe(413);
      request.end(Buffer.alloc(500));
      expect(await answered).toBe(204);
    } finally {
      if (!request.writableEnded) request.destroy();
    }
  });

  it('refuses with 413 a live recording when the account has no room left at all', async () => {
    const { token, userId } = await signUpUser(t.app, 'quota-full');
    await fillStorage(userId, 0);
    const refused = await create(token, await newMeeting(token), 'deferred');
    expect(refused.status).toBe(413);
    expect(await messageOf(refused)).toContain('does not fit in your 1 GB of storage');
  });
});

describe('a finished upload whose last answer was lost', () => {
  it('answers HEAD and a repeated final PATCH with its whole length, and tus-js-client resumes to success', async () => {
    const { token } = await signUpUser(t.app, 'lost');
    const stranger = (await signUpUser(t.app, 'lost-stranger')).token;
    const id = await newMeeting(token);
    const data = fs.readFileSync(CLIP);
    const url = locationOf(await create(token, id, data.length));
    // The final PATCH: the server stores the audio; the client never hears the answer.
    expect((await patch(token, url, 0, data)).status).toBe(204);

    // What tus-js-client does on retry: HEAD for the offset.
    const offset = await head(token, url);
    expect(offset.status).toBe(200);
    expect(offset.headers.get('upload-offset')).toBe(String(data.length));
    expect(offset.headers.get('upload-length')).toBe(String(data.length));
    // A client that repeats the PATCH instead hears the same.
    const repeated = await patch(token, url, 0, data);
    expect(repeated.ok).toBe(true);
    expect(repeated.headers.get('upload-offset')).toBe(String(data.length));
    // Still nobody else's.
    expect((await head(stranger, url)).status).toBe(404);
    expect((await patch(stranger, url, 0, data)).status).toBe(404);

    const resumed = await new Promise<{ ok: boolean; error?: string }>((resolve) => {
      const u = new tus.Upload(data, {
        endpoint: `${t.baseUrl}/uploads`,
        uploadUrl: url,
        headers: { authorization: `Bearer ${token}` },
        metadata: { meetingId: id, filetype: 'audio/wav' },
        retryDelays: [],
        onSuccess: () => resolve({ ok: true }),
        onError: (error) => resolve({ ok: false, error: error.message }),
      });
      u.start();
    });
    expect(resumed).toEqual({ ok: true });

    await t.app.transcription.idle();
    const stored = await meeting(token, id);
    expect(stored.status).toBe('ready');
    expect(stored.hasAudio).toBe(true);

    // Until it expires: then it is forgotten like any other.
    await t.deps.uploads.sweeper.runOnce(new Date(Date.now() + 25 * HOUR));
    expect((await head(token, url)).status).toBe(404);
    expect((await meeting(token, id)).status).toBe('ready');
  });
});

describe('an upload whose every byte arrived but whose process ended before handing it over', () => {
  it('is handed to its meeting on the next HEAD, which tus-js-client takes for success', async () => {
    const { token } = await signUpUser(t.app, 'left-over');
    const id = await newMeeting(token);
    const data = fs.readFileSync(CLIP);
    const url = locationOf(await create(token, id, data.length));
    // A PATCH's bytes written by the store, as a process killed before tus called onUploadFinish left them.
    await t.deps.uploads.store.write(Readable.from([data]), url.split('/').pop()!, 0);
    expect((await meeting(token, id)).status).toBe('recording');

    const offset = await head(token, url);
    expect([offset.status, offset.headers.get('upload-offset')]).toEqual([200, String(data.length)]);
    await t.app.transcription.idle();
    expect(await meeting(token, id)).toMatchObject({ status: 'ready', hasAudio: true });
    // Once: the next HEAD finds it finished.
    expect((await head(token, url)).headers.get('upload-offset')).toBe(String(data.length));
    expect(fs.readdirSync(uploadsDir()).filter((f) => f === url.split('/').pop())).toEqual([]);
  });

  it('is handed to its meeting on the next HEAD when its bytes had already moved into the blob store', async () => {
    const { token, userId } = await signUpUser(t.app, 'left-moved');
    const id = await newMeeting(token);
    const { url, bytes } = await movedButNotHandedOver(token, userId, id);
    expect((await meeting(token, id)).status).toBe('recording');

    const offset = await head(token, url);
    expect([offset.status, offset.headers.get('upload-offset')]).toEqual([200, String(bytes)]);
    await t.app.transcription.idle();
    expect(await meeting(token, id)).toMatchObject({ status: 'ready', hasAudio: true, durationSeconds: 3 });
    expect((await head(token, url)).headers.get('upload-offset')).toBe(String(bytes));
  });
});

describe('the start-up sweep of orphan files', () => {
  it('removes upload files no meeting waits on and recordings no meeting owns, and keeps the rest', async () => {
    const { token } = await signUpUser(t.app, 'orphans');
    const id = await newMeeting(token);
    const live = locationOf(await create(token, id, 1000));
    expect((await patch(token, live, 0, Buffer.alloc(10))).status).toBe(204);
    const liveId = new URL(live).pathname.split('/').pop()!;

    const strayUpload = crypto.randomBytes(16).toString('hex');
    const freshUpload = crypto.randomBytes(16).toString('hex');
    for (const id of [strayUpload, freshUpload]) fs.writeFileSync(path.join(uploadsDir(), id), Buffer.alloc(100));
    const strayKey = t.deps.blobs.newKey('wav');
    const freshKey = t.deps.blobs.newKey('wav');
    for (const key of [strayKey, freshKey]) {
      fs.mkdirSync(path.dirname(localBlobPath(t.config.dataDir, key)), { recursive: true });
      fs.writeFileSync(localBlobPath(t.config.dataDir, key), Buffer.alloc(100));
    }
    // Old enough not to be a file a finishing upload has just moved in.
    const twoHoursAgo = new Date(Date.now() - 2 * HOUR);
    fs.utimesSync(localBlobPath(t.config.dataDir, strayKey), twoHoursAgo, twoHoursAgo);
    fs.utimesSync(path.join(uploadsDir(), strayUpload), twoHoursAgo, twoHoursAgo);
    fs.utimesSync(path.join(uploadsDir(), liveId), twoHoursAgo, twoHoursAgo);
    const owned = filesIn(blobsDir())
      .map((e) => path.relative(blobsDir(), path.join(e.parentPath, e.name)))
      .filter((key) => key !== strayKey && key !== freshKey);

    const swept = await t.deps.uploads.sweeper.sweepOrphans();
    expect(swept.uploads).toBeGreaterThanOrEqual(1);
    expect(swept.recordings).toBeGreaterThanOrEqual(1);
    expect(fs.existsSync(path.join(uploadsDir(), strayUpload))).toBe(false);
    // A file younger than an hour may be an upload another process is creating this moment.
    expect(fs.existsSync(path.join(uploadsDir(), freshUpload))).toBe(true);
    expect(await t.deps.blobs.exists(strayKey)).toBe(false);
    expect(await t.deps.blobs.exists(freshKey)).toBe(true);
    for (const key of owned) expect(await t.deps.blobs.exists(key)).toBe(true);
    expect(fs.existsSync(path.join(uploadsDir(), liveId))).toBe(true);
    expect(Number((await head(token, live)).headers.get('upload-offset'))).toBe(10);
  });

  it('keeps, however old, the blob an upload its meeting waits on had moved into, for the hand-over', async () => {
    const { token, userId } = await signUpUser(t.app, 'orphans-moved');
    const id = await newMeeting(token);
    const { url, key } = await movedButNotHandedOver(token, userId, id);
    const twoHoursAgo = new Date(Date.now() - 2 * HOUR);
    fs.utimesSync(localBlobPath(t.config.dataDir, key), twoHoursAgo, twoHoursAgo);

    await t.deps.uploads.sweeper.sweepOrphans();
    expect(await t.deps.blobs.exists(key)).toBe(true);
    expect((await head(token, url)).status).toBe(200);
    await t.app.transcription.idle();
    expect(await meeting(token, id)).toMatchObject({ status: 'ready', hasAudio: true });
  });

  it("counts a download converted before blobs were counted as its recording's owner's, and keeps it", async () => {
    const { token, userId } = await signUpUser(t.app, 'older-download');
    const id = await newMeeting(token);
    const recordingKey = t.deps.blobs.newKey('webm');
    await t.deps.blobs.put(recordingKey, Buffer.alloc(1000, 1), { ownerId: userId, kind: 'recording' });
    await t.deps.database.db
      .updateTable('meetings')
      .set({ audio_key: recordingKey, audio_mime: 'audio/webm', audio_bytes: 1000 })
      .where('id', '=', id)
      .execute();
    // A WAV converted by an earlier version: the file alone, no row.
    const wavKey = t.deps.blobs.siblingKey(recordingKey, 'wav');
    fs.writeFileSync(localBlobPath(t.config.dataDir, wavKey), Buffer.alloc(5000, 1));
    const twoHoursAgo = new Date(Date.now() - 2 * HOUR);
    for (const key of [recordingKey, wavKey]) fs.utimesSync(localBlobPath(t.config.dataDir, key), twoHoursAgo, twoHoursAgo);
    expect(await t.deps.blobs.usage(userId)).toBe(1000);

    await t.deps.uploads.sweeper.sweepOrphans();
    expect(await t.deps.blobs.exists(wavKey)).toBe(true);
    expect(await t.deps.blobs.usage(userId)).toBe(6000);
    // Counted once: a second sweep adds nothing.
    await t.deps.uploads.sweeper.sweepOrphans();
    expect(await t.deps.blobs.usage(userId)).toBe(6000);
  });
});
