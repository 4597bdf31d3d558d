import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setImmediate as yieldNow } from 'node:timers/promises';
import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app.ts';
import { createDeps, type Deps } from '#server/deps.ts';
import { localBlobPath } from '#server/lib/blob-store.ts';
import type { MeetingDetail } from '#shared/contracts/meetings.ts';
import { buildTestApp, findFreePort, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { createFakeSpeakerIdentifier, createFakeSpeechEngine } from '#tests/support/fake-speech.ts';
import { testRedisUrl } from '#tests/support/redis-server.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';
import { TEST_JOB_TIMINGS } from '#tests/support/test-job-timings.ts';

// Two web processes of one installation behind a load balancer (one database, one data folder, one
// Redis with REDIS_URL), as `npm run cluster` runs them: a client whose PATCHes for one upload reach
// both at once (a retry sent while the first request still runs) never has two of them writing the
// upload together, and the recording arrives whole. The upload locks live in Redis, so each process
// waits for the other's request.

const speech = { engine: createFakeSpeechEngine(), speakers: createFakeSpeakerIdentifier() };
/** A request gives up waiting for an upload's lock after 2 s here (20 s in production), so the 423 below comes soon. */
const uploadLockTimings = { acquireTimeoutMs: 2_000, leaseMs: 10_000, retryMs: 20 };
let webA: TestApp;
let webB: { app: FastifyInstance; deps: Deps; baseUrl: string };

beforeAll(async () => {
  webA = await buildTestApp({
    listen: true,
    env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false', REDIS_URL: testRedisUrl(), REDIS_KEY_PREFIX: `test-${crypto.randomUUID()}` },
    deps: { speech, uploadLockTimings },
  });
  // The second web process: the same configuration, database and data folder; its own Redis connection and locks.
  const deps = await createDeps(webA.config, { database: webA.database, role: 'web', jobTimings: TEST_JOB_TIMINGS, speech, uploadLockTimings });
  const app = await buildApp(deps);
  const port = await findFreePort();
  await app.listen({ port, host: '127.0.0.1' });
  await deps.start();
  webB = { app, deps, baseUrl: `http://127.0.0.1:${port}` };
});
afterAll(async () => {
  await webB?.app.close();
  await webB?.deps.close();
  await webA?.close();
});

/** Counts the writes into each upload under way in either process, and the most at once. */
function watchWrites(stores: Deps['uploads']['store'][]) {
  const writing = new Map<string, number>();
  let most = 0;
  for (const store of stores) {
    const write = store.write.bind(store);
    store.write = async (readable: Readable, id: string, offset: number) => {
      writing.set(id, (writing.get(id) ?? 0) + 1);
      most = Math.max(most, writing.get(id)!);
      try {
        return await write(readable, id, offset);
      } finally {
        writing.set(id, writing.get(id)! - 1);
      }
    };
  }
  return { most: () => most };
}

/** A body sent in small pieces, yielding between them, as a slow network delivers it: two such requests overlap. */
const trickle = (bytes: Buffer) =>
  ReadableStream.from(
    (async function* () {
      for (let at = 0; at < bytes.length; at += 4096) {
        yield bytes.subarray(at, at + 4096);
        await yieldNow();
      }
    })(),
  );

const b64 = (value: string) => Buffer.from(value).toString('base64');
const sha = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');

describe('one upload, PATCHed through two web processes at once', () => {
  it('never has both writing it, and stores the recording intact', { timeout: 60_000 }, async () => {
    const writes = watchWrites([webA.deps.uploads.store, webB.deps.uploads.store]);
    const { token } = await signUpUser(webA.app, 'across');
    const auth = { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0' };
    const created = await fetch(`${webA.baseUrl}/api/v1/meetings`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Across processes', source: 'upload' }),
    });
    const meetingId = ((await created.json()) as MeetingDetail).id;
    const data = fs.readFileSync(path.join(sharedAudioDir(), 'jfk.wav'));
    const post = await fetch(`${webA.baseUrl}/uploads`, {
      method: 'POST',
      headers: { ...auth, 'upload-length': String(data.length), 'upload-metadata': `meetingId ${b64(meetingId)},filetype ${b64('audio/wav')}` },
    });
    expect(post.status).toBe(201);
    const uploadPath = post.headers.get('location')!;

    const patch = (baseUrl: string, offset: number, bytes: number) =>
      fetch(`${baseUrl}${uploadPath}`, {
        method: 'PATCH',
        headers: { ...auth, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
        body: trickle(data.subarray(offset, offset + bytes)),
        duplex: 'half',
      } as RequestInit);

    // Each round the client learns the offset, then sends the next bytes through both processes at
    // once (different amounts). One request writes; the other, once it has the lock, finds the
    // offset moved (409) or was told to wait (423). The client carries on from the new offset.
    let offset = 0;
    const answers = new Set<number>();
    for (let round = 0; offset < data.length && round < 40; round++) {
      const [a, b] = await Promise.all([patch(webA.baseUrl, offset, 48 * 1024), patch(webB.baseUrl, offset, 80 * 1024)]);
      for (const answer of [a, b]) {
        answers.add(answer.status);
        await answer.arrayBuffer();
      }
      const headed = await fetch(`${round % 2 ? webA.baseUrl : webB.baseUrl}${uploadPath}`, { method: 'HEAD', headers: auth });
      offset = Number(headed.headers.get('upload-offset'));
    }
    expect(offset).toBe(data.length);
    expect([...answers].filter((status) => ![204, 409, 423].includes(status))).toEqual([]);
    expect(writes.most()).toBe(1);

    const row = await webA.deps.database.db
      .selectFrom('meetings')
      .select(['audio_key', 'audio_bytes', 'status'])
      .where('id', '=', meetingId)
      .executeTakeFirstOrThrow();
    expect(Number(row.audio_bytes)).toBe(data.length);
    expect(sha(fs.readFileSync(localBlobPath(webA.config.dataDir, row.audio_key!)))).toBe(sha(data));
  });

  it('answers 423, with what to do, a PATCH that waited its time for an upload the other process keeps working on; the next one goes on', async () => {
    const { token } = await signUpUser(webA.app, 'busy');
    const auth = { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0' };
    const created = await fetch(`${webA.baseUrl}/api/v1/meetings`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Busy upload', source: 'upload' }),
    });
    const meetingId = ((await created.json()) as MeetingDetail).id;
    const post = await fetch(`${webA.baseUrl}/uploads`, {
      method: 'POST',
      headers: { ...auth, 'upload-length': '1000', 'upload-metadata': `meetingId ${b64(meetingId)},filetype ${b64('audio/wav')}` },
    });
    const uploadPath = post.headers.get('location')!;
    const patch = () =>
      fetch(`${webA.baseUrl}${uploadPath}`, {
        method: 'PATCH',
        headers: { ...auth, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
        body: Buffer.alloc(100),
      });

    // A request on web B holds the upload and never lets go (a stuck write).
    const held = webB.deps.uploads.store.locker.newLock(uploadPath.split('/').pop()!);
    await held.lock(new AbortController().signal, () => {});
    const refused = await patch();
    expect(refused.status).toBe(423);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
      'Another request is still working on this upload. Try again in a moment: it resumes from the last saved byte.',
    );
    await held.unlock();
    const accepted = await patch();
    expect(accepted.status).toBe(204);
    expect(accepted.headers.get('upload-offset')).toBe('100');
  });
});
