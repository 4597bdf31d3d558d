import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { StatusResponseSchema, type StatusResponse } from '#shared/contracts/status.ts';
import { installTestAsrModel } from '#tests/support/asr-test-model.ts';
import { buildTestApp, findFreePort, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { embeddingModel, segmentationModel } from '#tests/support/diarization-test-models.ts';
import { createAutoModels } from './auto-models.ts';
import { MODEL_CATALOG, SUGGESTED_ASR_MODEL, SUGGESTED_SPEAKER_MODELS, type CatalogEntry } from './catalog.ts';
import { readInstalledModel } from './model-store.ts';

/**
 * The first start's download of the recommended models, against a real HTTP server on loopback
 * (as the `npm run models` tests use) serving stand-ins under the real catalog names: the tiny
 * transducer sherpa-onnx loads as a speech model (tests/support/asr-test-model.ts) packed as a
 * tar.bz2 with Debian's tar, and the diarization stand-ins as .onnx files.
 */
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-auto-models-'));
const sha256 = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');

function asrArchive(): Buffer {
  const dir = fs.mkdtempSync(path.join(work, 'asr-'));
  installTestAsrModel(dir, { name: 'sherpa-onnx-test-asr' });
  fs.rmSync(path.join(dir, 'sherpa-onnx-test-asr', 'manifest.json'));
  const archive = path.join(dir, 'test-asr.tar.bz2');
  const result = spawnSync('tar', ['-cjf', archive, '-C', dir, 'sherpa-onnx-test-asr']);
  if (result.status !== 0) throw new Error(`tar failed: ${result.stderr.toString()}`);
  return fs.readFileSync(archive);
}

const served = new Map<string, Buffer>([
  ['/asr-models/test-asr.tar.bz2', asrArchive()],
  ['/speaker-segmentation-models/test-segmentation.onnx', Buffer.from(segmentationModel())],
  ['/speaker-recongition-models/test-embedding.onnx', Buffer.from(embeddingModel())],
]);

/** The real catalog with its recommended entries pointing at the stand-ins (same names, same kinds). */
const catalog: CatalogEntry[] = MODEL_CATALOG.map((entry): CatalogEntry => {
  const pinned = (file: string) => ({ path: file.slice(1), bytes: served.get(file)!.length, sha256: sha256(served.get(file)!) });
  if (entry.name === SUGGESTED_ASR_MODEL) {
    return {
      ...entry,
      ...pinned('/asr-models/test-asr.tar.bz2'),
      kind: 'asr',
      format: 'tar.bz2',
      files: ['encoder.onnx', 'decoder.onnx', 'joiner.onnx', 'tokens.txt'],
      asr: { type: 'transducer', encoder: 'encoder.onnx', decoder: 'decoder.onnx', joiner: 'joiner.onnx', tokens: 'tokens.txt' },
    };
  }
  if (entry.name === SUGGESTED_SPEAKER_MODELS['speaker-segmentation']) {
    return { ...entry, ...pinned('/speaker-segmentation-models/test-segmentation.onnx'), kind: 'speaker-segmentation', format: 'onnx', files: ['model.onnx'] };
  }
  if (entry.name === SUGGESTED_SPEAKER_MODELS['speaker-embedding']) {
    return { ...entry, ...pinned('/speaker-recongition-models/test-embedding.onnx'), kind: 'speaker-embedding', format: 'onnx', files: ['embedding.onnx'] };
  }
  return entry;
});
const RECOMMENDED = [SUGGESTED_ASR_MODEL, SUGGESTED_SPEAKER_MODELS['speaker-segmentation'], SUGGESTED_SPEAKER_MODELS['speaker-embedding']];

let server: http.Server;
let baseUrl: string;
const requests: { method: string; url: string; range: string | undefined }[] = [];
/** The next GET of this path sends this many bytes, then the connection drops. */
const breakOff = new Map<string, number>();
/** Between two pieces of a file (tenths of it). */
const pieceDelayMs = 30;
/** The next GET of this path sends half the file, then waits for this before sending the rest. */
const holdHalfway = new Map<string, Promise<void>>();

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const url = request.url ?? '';
    requests.push({ method: request.method ?? '', url, range: request.headers.range });
    const body = served.get(url);
    if (!body) return void response.writeHead(404).end('Not Found');
    const from = Number(/^bytes=(\d+)-$/.exec(request.headers.range ?? '')?.[1] ?? 0);
    const headers = { 'content-type': 'application/octet-stream', 'accept-ranges': 'bytes', 'content-length': body.length - from };
    if (from > 0) response.writeHead(206, { ...headers, 'content-range': `bytes ${from}-${body.length - 1}/${body.length}` });
    else response.writeHead(200, headers);
    if (request.method === 'HEAD') return void response.end();
    const cut = breakOff.get(url);
    breakOff.delete(url);
    const hold = holdHalfway.get(url);
    holdHalfway.delete(url);
    let held = false;
    // In pieces a little apart, as a real download arrives, so /status has progress to show.
    const rest = body.subarray(from);
    const step = Math.ceil(rest.length / 10);
    let offset = 0;
    const next = () => {
      if (cut !== undefined && from + offset >= cut) return void response.destroy();
      if (offset >= rest.length) return void response.end();
      if (hold && !held && offset >= rest.length / 2) {
        held = true;
        return void hold.then(next);
      }
      const piece = rest.subarray(offset, offset + step);
      offset += step;
      response.write(piece, () => setTimeout(next, pieceDelayMs));
    };
    next();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(work, { recursive: true, force: true });
});

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
  requests.length = 0;
});

async function statusOf(app: TestApp, token: string): Promise<StatusResponse['transcription']> {
  const response = await app.app.inject({ method: 'GET', url: '/api/v1/status', headers: { authorization: `Bearer ${token}` } });
  expect(response.statusCode).toBe(200);
  return StatusResponseSchema.parse(response.json()).transcription;
}

/** /status, read until `done` holds. */
async function statusUntil(app: TestApp, token: string, done: (s: StatusResponse['transcription']) => boolean) {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const status = await statusOf(app, token);
    if (done(status)) return status;
    if (Date.now() > deadline) throw new Error(`/status never got there; last: ${JSON.stringify(status.autoModels)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('good transcripts by default', () => {
  it('is off in the test suite unless a test turns it on: nothing is fetched and /status says so', async () => {
    t = await buildTestApp({ env: { AUTH_AUTOCONFIRM: 'true', PARLEY_MODELS_BASE_URL: baseUrl }, deps: { modelCatalog: catalog } });
    const { token } = await signUpUser(t.app, 'auto-models');
    const status = await statusOf(t, token);
    expect(status.autoModels).toEqual({ state: 'off', message: null, downloads: [] });
    expect(status.inUse).toBe('pocketsphinx');
    expect(status.betterTranscripts).toBe(RECOMMENDED.map((name) => `npm run models -- fetch ${name}`).join(' && '));
    expect(requests).toEqual([]);
  });

  it('at first start fetches the recommended speech and speaker models in the background, with progress on /status, and switches to them', async () => {
    // The speech model's file stops half way until /status has shown it so.
    let release = () => {};
    holdHalfway.set('/asr-models/test-asr.tar.bz2', new Promise<void>((resolve) => (release = resolve)));
    t = await buildTestApp({
      env: { AUTH_AUTOCONFIRM: 'true', PARLEY_AUTO_MODELS: 'true', PARLEY_MODELS_BASE_URL: baseUrl },
      deps: { modelCatalog: catalog },
    });
    const { token } = await signUpUser(t.app, 'auto-models');
    const halfway = await statusUntil(t, token, (s) => s.autoModels.downloads.some((d) => d.receivedBytes > 0 && !d.done));
    release();
    expect(halfway.autoModels.state).toBe('downloading');
    expect(halfway.autoModels.message).toBe(`Fetching ${SUGGESTED_ASR_MODEL} (1 of 3).`);
    const partWay = halfway.autoModels.downloads[0]!;
    expect(partWay).toMatchObject({ name: SUGGESTED_ASR_MODEL, kind: 'asr', done: false, totalBytes: served.get('/asr-models/test-asr.tar.bz2')!.length });
    expect(partWay.receivedBytes).toBeLessThan(partWay.totalBytes!);
    expect(halfway.inUse).toBe('pocketsphinx');
    const status = await statusUntil(t, token, (s) => s.autoModels.state === 'installed' || s.autoModels.state === 'failed');

    expect(status.autoModels.state).toBe('installed');
    expect(status.autoModels.message).toMatch(
      new RegExp(
        `^Installed ${RECOMMENDED.join(', ')} \\(.+\\)\\. Transcripts now use sherpa-onnx \\(model ${SUGGESTED_ASR_MODEL}\\); speakers are told apart by sherpa-onnx\\.$`,
      ),
    );
    expect(status.autoModels.downloads.map((d) => [d.name, d.done, d.receivedBytes === d.totalBytes])).toEqual(RECOMMENDED.map((name) => [name, true, true]));
    expect(status.inUse).toBe('sherpa-onnx');
    expect(status.engines.find((e) => e.inUse)).toMatchObject({ name: 'sherpa-onnx', detail: `offline, model ${SUGGESTED_ASR_MODEL}`, available: true });
    expect(status.models.map((m) => [m.name, m.checksum])).toEqual(expect.arrayContaining(RECOMMENDED.map((name) => [name, 'pinned'])));
    expect(status.betterTranscripts).toBeNull();
    // Each file once, checked against the catalog's size and SHA-256 (pinned above).
    expect(requests.filter((r) => r.method === 'GET').map((r) => r.url)).toEqual([...served.keys()]);
  });

  it('offline: keeps pocketsphinx and /status says why, and which command gets better transcripts', async () => {
    const closed = await findFreePort();
    t = await buildTestApp({
      env: { AUTH_AUTOCONFIRM: 'true', PARLEY_AUTO_MODELS: 'true', PARLEY_MODELS_BASE_URL: `http://127.0.0.1:${closed}` },
      deps: { modelCatalog: catalog },
    });
    const { token } = await signUpUser(t.app, 'auto-models');
    const status = await statusUntil(t, token, (s) => s.autoModels.state === 'offline');
    const command = RECOMMENDED.map((name) => `npm run models -- fetch ${name}`).join(' && ');
    expect(status.autoModels.message).toBe(
      `The models host 127.0.0.1:${closed} could not be reached (ECONNREFUSED): transcripts use the basic offline engine. For better transcripts run "${command}" on the server, or restart it with network access.`,
    );
    expect(status.inUse).toBe('pocketsphinx');
    expect(status.betterTranscripts).toBe(command);
  });

  it('resumes a download that broke off where it stopped, checks the whole file, and leaves the models alone once installed', async () => {
    const modelsDir = fs.mkdtempSync(path.join(work, 'models-'));
    const asr = catalog.find((e) => e.name === SUGGESTED_ASR_MODEL)!;
    const size = served.get('/asr-models/test-asr.tar.bz2')!.length;
    const half = Math.floor(size / 2);
    breakOff.set('/asr-models/test-asr.tar.bz2', half);
    const auto = () =>
      createAutoModels({
        modelsDir,
        baseUrl,
        enabled: true,
        wanted: () => (readInstalledModel(modelsDir, asr.name) ? [] : [asr]),
        switchEngines: async () => 'Transcripts now use sherpa-onnx.',
        log: pino({ level: 'silent' }),
        probeTimeoutMs: 5_000,
      });

    await auto().run();
    const failed = JSON.parse(fs.readFileSync(path.join(modelsDir, '.auto-models.json'), 'utf8')) as StatusResponse['transcription']['autoModels'];
    expect(failed.state).toBe('failed');
    expect(failed.message).toContain(
      `The download goes on from where it stopped at the next start; or run "npm run models -- fetch ${asr.name}" on the server.`,
    );
    const kept = fs.statSync(path.join(modelsDir, `.partial-${asr.name}.download`)).size;
    expect(kept).toBeGreaterThanOrEqual(half);
    expect(kept).toBeLessThan(size);
    expect(readInstalledModel(modelsDir, asr.name)).toBeUndefined();

    requests.length = 0;
    await auto().run();
    expect(requests.filter((r) => r.method === 'GET')).toEqual([{ method: 'GET', url: '/asr-models/test-asr.tar.bz2', range: `bytes=${kept}-` }]);
    expect(readInstalledModel(modelsDir, asr.name)?.manifest).toMatchObject({ sha256: asr.sha256, bytes: size, checksum: 'pinned' });
    expect(fs.existsSync(path.join(modelsDir, `.partial-${asr.name}.download`))).toBe(false);

    // Installed once: a later start fetches nothing, even after the operator removed the model.
    fs.rmSync(path.join(modelsDir, asr.name), { recursive: true });
    requests.length = 0;
    await auto().run();
    expect(requests).toEqual([]);
  });

  it('a host that answers without the model (a wrong mirror) is recorded as failed with the reason, nothing installed', async () => {
    const modelsDir = fs.mkdtempSync(path.join(work, 'models-'));
    const missing = { ...catalog.find((e) => e.name === SUGGESTED_ASR_MODEL)!, path: 'asr-models/not-there.tar.bz2' } as CatalogEntry;
    await createAutoModels({
      modelsDir,
      baseUrl,
      enabled: true,
      wanted: () => [missing],
      switchEngines: async () => 'unused',
      log: pino({ level: 'silent' }),
    }).run();
    const record = JSON.parse(fs.readFileSync(path.join(modelsDir, '.auto-models.json'), 'utf8')) as StatusResponse['transcription']['autoModels'];
    expect(record.state).toBe('failed');
    expect(record.message).toBe(
      `${baseUrl}/asr-models/not-there.tar.bz2 answered 404 Not Found: no such model file there (check PARLEY_MODELS_BASE_URL). The download goes on from where it stopped at the next start; or run "npm run models -- fetch ${SUGGESTED_ASR_MODEL}" on the server.`,
    );
    expect(readInstalledModel(modelsDir, SUGGESTED_ASR_MODEL)).toBeUndefined();
  });
});
