import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatusResponseSchema } from '#shared/contracts/status.ts';
import { BEST_EFFORTS, failedBestEffort } from '#server/lib/best-effort.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { createMeeting } from '../meetings/meetings.repository.ts';
import { MODEL_CATALOG } from '../transcription/models/catalog.ts';
import { writeManifest } from '../transcription/models/model-store.ts';
import { locateSileroVad } from '../transcription/models/silero-vad.ts';

let t: TestApp;
let token: string;
let userId: string;
beforeAll(async () => {
  // A web-only process: jobs it queues wait for a worker, so the test sees them queued.
  t = await buildTestApp({ env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' }, deps: { role: 'web' } });
  ({ token, userId } = await signUpUser(t.app, 'status', { samples: false }));
});
afterAll(() => t.close());

const getStatus = async (auth = `Bearer ${token}`) => {
  const response = await t.app.inject({ method: 'GET', url: '/api/v1/status', headers: { authorization: auth } });
  return { status: response.statusCode, body: response.json() as unknown };
};

describe('GET /api/v1/status', () => {
  it('needs a signed-in person', async () => {
    expect((await getStatus('Bearer nope')).status).toBe(401);
  });

  it('names the engine in use, why the others are unavailable, the bundled VAD and the queue', async () => {
    const { status, body } = await getStatus();
    expect(status).toBe(200);
    const { transcription } = StatusResponseSchema.parse(body);
    expect(transcription.setting).toBe('auto');
    expect(transcription.inUse).toBe('pocketsphinx');
    expect(transcription.engines).toEqual([
      {
        name: 'sherpa-onnx',
        detail: 'offline',
        available: false,
        reason: 'sherpa-onnx: no speech model installed — run "npm run models -- fetch parakeet-tdt-110m-en"',
        inUse: false,
      },
      { name: 'pocketsphinx', detail: 'offline', available: true, reason: null, inUse: true },
    ]);
    expect(transcription.models).toEqual([]);
    expect(transcription.voiceActivityDetection).toEqual({ available: true, source: 'bundled', reason: null });
    expect(transcription.queue).toEqual({ queued: 0, running: 0 });
  });

  it("reports the answering process's role, event-loop delay and memory", async () => {
    // A loop held for 200 ms shows in the delay the next status reads.
    const until = performance.now() + 200;
    while (performance.now() < until);
    await new Promise((resolve) => setTimeout(resolve, 30));
    const { process: health } = StatusResponseSchema.parse((await getStatus()).body);
    expect(health.role).toBe('web');
    expect(health.eventLoopDelayMs.max).toBeGreaterThanOrEqual(150);
    expect(health.eventLoopDelayMs.p50).toBeLessThan(health.eventLoopDelayMs.max);
    expect(health.rssBytes).toBeGreaterThan(10 * 1024 * 1024);
  });

  it("counts each named best effort's failures in this process, every name listed", async () => {
    const counts = () => getStatus().then(({ body }) => StatusResponseSchema.parse(body).bestEffortFailures);
    const before = await counts();
    expect(Object.keys(before)).toEqual(Object.keys(BEST_EFFORTS));
    failedBestEffort('upload-sweep', new Error('disk gone'), t.deps.log);
    expect(await counts()).toEqual({ ...before, 'upload-sweep': before['upload-sweep']! + 1 });
  });

  it('counts queued jobs and lists installed models, with the reason a model does not load', async () => {
    for (let i = 0; i < 2; i += 1) {
      const meetingId = await createMeeting(t.deps.database.db, {
        ownerId: userId,
        title: `Queued ${i}`,
        source: 'upload',
        status: 'processing',
        options: {},
        participants: [],
      });
      await t.deps.services.transcription.enqueue(meetingId);
    }
    // A speech model whose files are valid ONNX of the wrong kind: sherpa-onnx would end the process loading it.
    const dir = path.join(t.config.models.dir, 'parakeet-tdt-110m-en');
    fs.mkdirSync(dir, { recursive: true });
    const onnx = fs.readFileSync(locateSileroVad().modelPath);
    const contents: Record<string, Buffer> = {
      'encoder.int8.onnx': onnx,
      'decoder.int8.onnx': onnx,
      'joiner.int8.onnx': onnx,
      'tokens.txt': Buffer.from('<blk> 0\n'),
    };
    const files = Object.entries(contents).map(([file, data]) => {
      fs.writeFileSync(path.join(dir, file), data);
      return { path: file, bytes: data.length, sha256: crypto.createHash('sha256').update(data).digest('hex') };
    });
    const entry = MODEL_CATALOG.find((e) => e.name === 'parakeet-tdt-110m-en')!;
    writeManifest(dir, {
      name: entry.name,
      kind: 'asr',
      source: 'test',
      sha256: files[0]!.sha256,
      bytes: 1,
      checksum: 'pinned',
      installedAt: '2026-11-22T12:00:00.000Z',
      files,
      asr: entry.kind === 'asr' ? entry.asr : undefined,
    });

    // pg-boss counts its queues on each monitor pass (every second in tests).
    await expect
      .poll(async () => StatusResponseSchema.parse((await getStatus()).body).transcription.queue, { timeout: 10_000 })
      .toEqual({ queued: 2, running: 0 });
    const { status, body } = await getStatus();
    expect(status).toBe(200);
    const { transcription } = StatusResponseSchema.parse(body);
    expect(transcription.queue).toEqual({ queued: 2, running: 0 });
    expect(transcription.inUse).toBe('pocketsphinx');
    expect(transcription.engines[0]).toEqual({
      name: 'sherpa-onnx',
      detail: 'offline, model parakeet-tdt-110m-en',
      available: false,
      reason: "sherpa-onnx: model parakeet-tdt-110m-en could not be loaded: 'vocab_size' does not exist in the metadata",
      inUse: false,
    });
    expect(transcription.models).toEqual([
      {
        name: 'parakeet-tdt-110m-en',
        kind: 'asr',
        description: entry.description,
        bytes: onnx.length * 3 + 8,
        checksum: 'pinned',
        installedAt: '2026-11-22T12:00:00.000Z',
      },
    ]);
    // The server is fine: it answers the next request.
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(200);
  });
});
