import type { Pcm16k } from '#server/lib/ffmpeg.ts';
import { loadSileroVad, SileroVadUnavailableError, type SileroVad, type SpeechSpan } from '../models/silero-vad.ts';
import { FRAME_MS, runsOf } from './speaker-features.ts';

/**
 * Which frames of a recording are speech, for telling speakers apart. The energy detector
 * (speaker-features.ts) finds where someone talks with the exact edges the clustering was tuned
 * on, but also takes a door, a cough or a hum for speech, and each such noise can become a
 * "speaker" of its own. Silero VAD (a neural detector, run through sherpa-onnx, no download)
 * knows speech from noise, so where it loads, each energy run that Silero does not hear as speech
 * is dropped; the edges of the runs kept stay the energy detector's.
 */

/** Silero's settings here: short pauses still split turns, short words still count. */
const SILERO = { threshold: 0.5, minSilenceMs: 150, minSpeechMs: 250 } as const;
/** An energy run is kept when at least this share of its frames is Silero speech. */
const MIN_SPEECH_SHARE = 0.5;

export type SpeechDetector = {
  readonly name: 'silero' | 'energy';
  /** Speech spans, or undefined where only the energy detector decides. */
  detect(pcm: Pcm16k, signal?: AbortSignal): Promise<SpeechSpan[] | undefined>;
};

const energyOnly: SpeechDetector = { name: 'energy', detect: async () => undefined };

/**
 * Silero VAD where sherpa-onnx and the model load (an installed `silero-vad` model under
 * modelsDir, else the bundled one); the energy detector alone otherwise, with the reason.
 */
export function createSpeechDetector(options: { modelsDir?: string } = {}): { detector: SpeechDetector; reason?: string } {
  let vad: SileroVad;
  try {
    vad = loadSileroVad({ modelsDir: options.modelsDir });
  } catch (error) {
    if (error instanceof SileroVadUnavailableError) return { detector: energyOnly, reason: error.message };
    throw error;
  }
  return { detector: { name: 'silero', detect: (pcm, signal) => vad.detectSpeech(pcm, { ...SILERO, signal }) } };
}

/** Energy speech frames without the runs that Silero's spans do not confirm. */
export function keepConfirmedRuns(energy: boolean[], spans: SpeechSpan[]): boolean[] {
  const confirmed = new Array<boolean>(energy.length).fill(false);
  for (const span of spans) {
    for (let f = Math.max(0, Math.floor(span.startMs / FRAME_MS)); f < Math.min(energy.length, Math.ceil(span.endMs / FRAME_MS)); f++) confirmed[f] = true;
  }
  const kept = [...energy];
  for (const [start, end] of runsOf(energy)) {
    let speech = 0;
    for (let f = start; f < end; f++) if (confirmed[f]) speech++;
    if (speech < (end - start) * MIN_SPEECH_SHARE) kept.fill(false, start, end);
  }
  return kept;
}
