import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { MeetingDetailSchema } from '#shared/contracts/meetings.ts';
import { StatusResponseSchema } from '#shared/contracts/status.ts';
import { loadConfig } from '#server/config.ts';
import { finalizeRecording } from '#server/features/recordings/finalize-recording.ts';
import { decodeToPcm16k } from '#server/lib/ffmpeg.ts';
import { installTestAsrModel } from '#tests/support/asr-test-model.ts';
import { buildTestApp, signUpUser } from '#tests/support/build-test-app.ts';
import { watchEventLoop } from '#tests/support/event-loop-watch.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';
import { MODEL_CATALOG, type AsrLoader } from '../models/catalog.ts';
import { writeManifest } from '../models/model-store.ts';
import { locateSileroVad } from '../models/silero-vad.ts';
import { createEngineRegistry } from './select-engine.ts';
import { createSherpaOnnxEngine, type SherpaOnnxEngine } from './sherpa-onnx.ts';

/**
 * The sherpa-onnx engine. No real speech model can be downloaded here, so: no model, a model whose
 * files are garbage, a model whose files are valid ONNX of the wrong kind (sherpa ends the process
 * that loads it), and a model with a file gone must each leave the engine unavailable with a
 * reason people can act on and the test process (the server) running; and a tiny transducer built
 * in the test (tests/support/asr-test-model.ts: it says "speech" once per stretch of speech) runs
 * through the engine's whole path on real clips.
 */
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-sherpa-test-'));
const engines: SherpaOnnxEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.close()));
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const parakeet = MODEL_CATALOG.find((e) => e.name === 'parakeet-tdt-110m-en')!;
const loader = (parakeet.kind === 'asr' ? parakeet.asr : undefined) as AsrLoader;

function install(modelsDir: string, name: string, contents: Record<string, Buffer | string>): string {
  const dir = path.join(modelsDir, name);
  fs.mkdirSync(dir, { recursive: true });
  const files = Object.entries(contents).map(([file, data]) => {
    fs.writeFileSync(path.join(dir, file), data);
    return { path: file, bytes: Buffer.byteLength(data), sha256: crypto.createHash('sha256').update(data).digest('hex') };
  });
  writeManifest(dir, {
    name,
    kind: 'asr',
    source: 'test',
    sha256: files[0]!.sha256,
    bytes: files[0]!.bytes,
    checksum: 'pinned',
    installedAt: new Date().toISOString(),
    files,
    asr: loader,
  });
  return dir;
}

const onnxOfTheWrongKind = () => fs.readFileSync(locateSileroVad().modelPath);
const tokens = '<blk> 0\n<unk> 1\na 2\n';

function engine(modelsDir: string, model?: string): SherpaOnnxEngine {
  const created = createSherpaOnnxEngine({ modelsDir, model, numThreads: 1 });
  engines.push(created);
  return created;
}

describe('sherpa-onnx engine availability', () => {
  it('without a model says what to fetch', async () => {
    const modelsDir = path.join(work, 'empty');
    expect(await engine(modelsDir).checkAvailability()).toEqual({
      available: false,
      reason: 'sherpa-onnx: no speech model installed — run "npm run models -- fetch parakeet-tdt-110m-en"',
    });
    expect(await engine(modelsDir, 'whisper-tiny.en').checkAvailability()).toEqual({
      available: false,
      reason: 'sherpa-onnx: model whisper-tiny.en (TRANSCRIBE_SHERPA_MODEL) is not installed — run "npm run models -- fetch whisper-tiny.en"',
    });
  });

  it('with files that are not ONNX reports the parse error', async () => {
    const modelsDir = path.join(work, 'garbage');
    const junk = crypto.randomBytes(4096);
    install(modelsDir, 'parakeet-tdt-110m-en', { 'encoder.int8.onnx': junk, 'decoder.int8.onnx': junk, 'joiner.int8.onnx': junk, 'tokens.txt': tokens });
    const availability = await engine(modelsDir).checkAvailability();
    expect(availability.available).toBe(false);
    expect(!availability.available && availability.reason).toMatch(
      /^sherpa-onnx: model parakeet-tdt-110m-en could not be loaded: Load model from .*encoder\.int8\.onnx failed:.*Protobuf parsing failed/,
    );
  });

  it('with valid ONNX files of the wrong kind (sherpa exits the process that loads them) reports why, and the server lives on', async () => {
    const modelsDir = path.join(work, 'wrong-kind');
    const onnx = onnxOfTheWrongKind();
    install(modelsDir, 'parakeet-tdt-110m-en', { 'encoder.int8.onnx': onnx, 'decoder.int8.onnx': onnx, 'joiner.int8.onnx': onnx, 'tokens.txt': tokens });
    const sherpa = engine(modelsDir);
    expect(await sherpa.checkAvailability()).toEqual({
      available: false,
      reason: "sherpa-onnx: model parakeet-tdt-110m-en could not be loaded: 'vocab_size' does not exist in the metadata",
    });
    // The verdict is kept: the next check (every job makes one) does not start another process.
    const started = Date.now();
    expect((await sherpa.checkAvailability()).available).toBe(false);
    expect(Date.now() - started).toBeLessThan(500); // starting a process and loading the model takes seconds
    const pcm = await decodeToPcm16k(path.join(sharedAudioDir(), 'goforward.wav'));
    await expect(sherpa.transcribe(pcm)).rejects.toThrow("'vocab_size' does not exist in the metadata");
  });

  it('with a file gone since installation says the model is damaged', async () => {
    const modelsDir = path.join(work, 'damaged');
    const onnx = onnxOfTheWrongKind();
    const dir = install(modelsDir, 'parakeet-tdt-110m-en', {
      'encoder.int8.onnx': onnx,
      'decoder.int8.onnx': onnx,
      'joiner.int8.onnx': onnx,
      'tokens.txt': tokens,
    });
    fs.rmSync(path.join(dir, 'joiner.int8.onnx'));
    expect(await engine(modelsDir).checkAvailability()).toEqual({
      available: false,
      reason:
        'sherpa-onnx: model parakeet-tdt-110m-en is damaged (joiner.int8.onnx is missing) — run "npm run models -- remove parakeet-tdt-110m-en" and fetch it again',
    });
  });
});

describe('engine registry', () => {
  const config = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'test', DATA_DIR: path.join(work, `data-${crypto.randomUUID()}`), ...env });

  it('auto uses pocketsphinx when no speech model is installed', async () => {
    const registry = createEngineRegistry(config({}));
    const { engine: chosen, availability } = await registry.resolve();
    expect(chosen.name).toBe('pocketsphinx');
    expect(availability).toEqual({ available: true });
    expect(registry.engine.name).toBe('pocketsphinx');
    expect(registry.engines.map((e) => e.name)).toEqual(['sherpa-onnx', 'pocketsphinx']);
    await registry.close();
  });

  it('auto falls back to pocketsphinx past a model that does not load; sherpa-onnx chosen outright reports it unavailable', async () => {
    const cfg = config({});
    const onnx = onnxOfTheWrongKind();
    install(cfg.models.dir, 'whisper-tiny.en', { 'tiny.en-encoder.int8.onnx': onnx, 'tiny.en-decoder.int8.onnx': onnx, 'tiny.en-tokens.txt': tokens });
    const auto = createEngineRegistry(cfg);
    // Before it checks, auto names the engine the installed model suggests.
    expect(auto.engine.name).toBe('sherpa-onnx');
    expect(await auto.engine.checkAvailability()).toEqual({ available: true });
    expect(auto.engine.name).toBe('pocketsphinx');
    await auto.close();

    const fixed = createEngineRegistry(config({ DATA_DIR: cfg.dataDir, TRANSCRIBE_ENGINE: 'sherpa-onnx' }));
    const availability = await fixed.engine.checkAvailability();
    expect(fixed.engine.name).toBe('sherpa-onnx');
    expect(availability.available).toBe(false);
    expect(!availability.available && availability.reason).toMatch(/^sherpa-onnx: model whisper-tiny\.en could not be loaded: /);
    await fixed.close();
  });

  it('auto prefers a configured OpenAI-compatible service', async () => {
    const registry = createEngineRegistry(config({ TRANSCRIBE_OPENAI_URL: 'http://127.0.0.1:9/v1' }));
    expect((await registry.resolve()).engine.name).toBe('openai-compatible');
    expect(registry.engines.map((e) => e.name)).toEqual(['openai-compatible', 'sherpa-onnx', 'pocketsphinx']);
    await registry.close();
  });
});

const clip = (name: string) => decodeToPcm16k(path.join(sharedAudioDir(), name));

describe('sherpa-onnx engine transcribing (with the test model)', () => {
  it('recognises each stretch of speech the VAD finds, at its time, reporting progress', async () => {
    const modelsDir = path.join(work, 'working');
    installTestAsrModel(modelsDir);
    const sherpa = engine(modelsDir);
    expect(await sherpa.checkAvailability()).toEqual({ available: true });

    const progress: number[] = [];
    const segments = await sherpa.transcribe(await clip('librivox_ss_5utt.wav'), { onProgress: (f) => progress.push(f) });
    // The five utterances arrive as the stretches the VAD finds (3 to 6 of them), each said "speech" once.
    expect(segments.length).toBeGreaterThanOrEqual(3);
    expect(segments.length).toBeLessThanOrEqual(6);
    for (const segment of segments) {
      expect(segment.text).toBe('speech');
      expect(segment.words).toHaveLength(1);
      expect(segment.words[0]!.confidence).toBeGreaterThan(0);
      expect(segment.words[0]!.confidence).toBeLessThanOrEqual(1);
    }
    expect(segments[0]!.startMs).toBeGreaterThan(100);
    expect(segments[0]!.startMs).toBeLessThan(600);
    for (let i = 1; i < segments.length; i += 1) expect(segments[i]!.startMs).toBeGreaterThan(segments[i - 1]!.endMs);
    expect(segments.at(-1)!.startMs).toBeGreaterThan(20_000);
    expect(progress.length).toBe(segments.length);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBeGreaterThan(0.95);

    expect(await sherpa.transcribe(Buffer.alloc(16_000 * 2 * 4))).toEqual([]);
  });

  it('gives the custom vocabulary to the recogniser as hotwords: a term it barely preferred less is what it hears', async () => {
    // A model that hears "noise" a little less likely than "speech" in each stretch (a close second,
    // as a name is to a common word): the vocabulary's bonus in the beam search puts it first.
    const modelsDir = path.join(work, 'hotwords');
    installTestAsrModel(modelsDir, { noiseGap: 0.5 });
    const sherpa = engine(modelsDir);
    const pcm = await clip('goforward.wav');
    expect((await sherpa.transcribe(pcm)).map((s) => s.text)).toEqual(['speech']);
    expect((await sherpa.transcribe(pcm, { vocabulary: ['Noise'] })).map((s) => s.text)).toEqual(['noise']);
    // A term spelled with letters the model has no tokens for biases nothing, and keeps no other term from counting.
    expect((await sherpa.transcribe(pcm, { vocabulary: ['Zürich'] })).map((s) => s.text)).toEqual(['speech']);
    expect((await sherpa.transcribe(pcm, { vocabulary: ['Zürich', 'noise'] })).map((s) => s.text)).toEqual(['noise']);
  });

  it('keeps the event loop free while it works', async () => {
    const modelsDir = path.join(work, 'event-loop');
    installTestAsrModel(modelsDir);
    const sherpa = engine(modelsDir);
    await sherpa.checkAvailability();
    const long = await clip('librivox_ss_5utt.wav');
    const audio = Buffer.concat(Array.from({ length: 12 }, () => long)); // about 5 minutes
    const loop = watchEventLoop();
    const started = performance.now();
    const segments = await sherpa.transcribe(audio);
    const elapsed = performance.now() - started;
    const longestGap = loop.stop();
    expect(segments.length).toBeGreaterThanOrEqual(36);
    // Copying five minutes of PCM to the host is the only work on this thread: recognition here
    // would show as one gap about as long as the run. The figure (goal: under 100 ms) is `npm run bench`'s.
    expect(longestGap).toBeLessThan(elapsed / 3);
    console.log(
      `sherpa-onnx test model: ${(audio.length / 32_000).toFixed(0)} s of audio in ${elapsed.toFixed(0)} ms, longest event-loop gap ${longestGap.toFixed(1)} ms`,
    );
  });

  it('stops when the job is cancelled, and starts its host again after letting it go when idle', async () => {
    const modelsDir = path.join(work, 'lifecycle');
    installTestAsrModel(modelsDir);
    const sherpa = createSherpaOnnxEngine({ modelsDir, numThreads: 1, idleMs: 200 });
    engines.push(sherpa);
    const pcm = await clip('goforward.wav');
    const first = await sherpa.transcribe(pcm);
    expect(first.map((s) => s.text)).toEqual(['speech']);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await sherpa.transcribe(pcm)).map((s) => s.text)).toEqual(['speech']);

    const long = await clip('librivox_ss_5utt.wav');
    const abort = new AbortController();
    const pending = sherpa.transcribe(Buffer.concat(Array.from({ length: 20 }, () => long)), { signal: abort.signal, onProgress: () => abort.abort() });
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    // The host is still there for the next job.
    expect((await sherpa.transcribe(pcm)).map((s) => s.text)).toEqual(['speech']);
  });

  it('is what auto transcribes an uploaded recording with once the model is installed, without a restart', async () => {
    const t = await buildTestApp({ env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' } });
    try {
      const headers = { authorization: `Bearer ${(await signUpUser(t.app, 'sherpa')).token}` };
      const inUse = async () => StatusResponseSchema.parse((await t.app.inject({ method: 'GET', url: '/api/v1/status', headers })).json()).transcription.inUse;
      expect(await inUse()).toBe('pocketsphinx');

      installTestAsrModel(t.config.models.dir);
      expect(await inUse()).toBe('sherpa-onnx');

      const created = await t.app.inject({ method: 'POST', url: '/api/v1/meetings', headers, payload: { title: 'Go forward', source: 'upload', options: {} } });
      const { id } = created.json() as { id: string };
      const upload = path.join(work, `${crypto.randomUUID()}.wav`);
      fs.copyFileSync(path.join(sharedAudioDir(), 'goforward.wav'), upload);
      await finalizeRecording(
        { meetings: t.deps.services.meetings, blobs: t.deps.blobs, maxRecordingHours: t.config.transcription.maxRecordingHours },
        { meetingId: id, mimeType: 'audio/wav', bytes: fs.statSync(upload).size, store: (extension, owner) => t.deps.blobs.adopt(upload, extension, owner) },
      );
      await t.app.transcription.enqueue(id);
      await t.app.transcription.idle();

      const meeting = MeetingDetailSchema.parse((await t.app.inject({ method: 'GET', url: `/api/v1/meetings/${id}`, headers })).json());
      expect(meeting.status).toBe('ready');
      expect(meeting.segments).toHaveLength(1);
      expect(meeting.segments[0]!.text).toMatch(/^speech\.?$/i);
      // Within the spoken words (0.5 s to 2.2 s); the job denoises first, so the test model's
      // energy threshold is crossed a little later than on the raw clip.
      expect(meeting.segments[0]!.startMs).toBeGreaterThan(300);
      expect(meeting.segments[0]!.startMs).toBeLessThan(2_200);
    } finally {
      await t.close();
    }
  });
});
