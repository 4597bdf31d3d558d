import type { Pcm16k } from '#server/lib/ffmpeg.ts';
import { COEFFICIENTS, FRAME_MS, frameEnergy, speechFrames, speechMfcc } from './speaker-features.ts';

/**
 * A voice's description from the built-in features, comparable across recordings: the mean and
 * spread of the speech frames' MFCCs c1…c12 (c0 is loudness, not voice) over the given turns. No
 * audio is kept: 24 numbers per speaker. Weaker than a neural speaker embedding (sherpa-onnx's
 * models): the microphone and the room move these numbers too, so matching across meetings must be
 * conservative (the voice-profiles feature's thresholds; the voices bench measures them).
 *
 * The speech is first brought to one level: Meyda's log(1 + energy) flattens the quiet bands of a
 * quiet recording, so without it the same voice recorded 12 dB quieter gets other spreads.
 */
export const VOICE_EMBEDDING_DIMS = 2 * (COEFFICIENTS - 1);
/** Below this much speech a speaker's numbers describe a few words, not a voice. */
export const MIN_EMBEDDING_SPEECH_MS = 3000;
/**
 * Which description these numbers are (the voice-profiles feature stores it with each one): a new
 * key whenever the way they are made changes, so numbers made differently are never compared.
 */
export const BUILT_IN_VOICE_KEY = 'built-in:2';
/** The speech's level the numbers are made at: full scale, so log(1 + energy) is the log of the energy for all but near-silent bands. */
const SPEECH_RMS = 1;

export function voiceEmbedding(pcm: Pcm16k, turns: ReadonlyArray<{ startMs: number; endMs: number }>): Float32Array | undefined {
  const frames = frameEnergy(pcm);
  const speech = speechFrames(frames.rms);
  const inTurns = new Array<boolean>(speech.length).fill(false);
  for (const turn of turns) {
    for (let f = Math.max(0, Math.floor(turn.startMs / FRAME_MS)); f < Math.min(speech.length, Math.ceil(turn.endMs / FRAME_MS)); f++) inTurns[f] = speech[f]!;
  }
  let count = 0;
  let power = 0;
  for (let f = 0; f < inTurns.length; f++) {
    if (!inTurns[f]) continue;
    count++;
    power += frames.rms[f]! * frames.rms[f]!;
  }
  if (count * FRAME_MS < MIN_EMBEDDING_SPEECH_MS || power === 0) return undefined;
  const gain = SPEECH_RMS / Math.sqrt(power / count);
  for (let i = 0; i < frames.samples.length; i++) frames.samples[i]! *= gain;
  const mfcc = speechMfcc(frames, inTurns);
  const dims = COEFFICIENTS - 1;
  const mean = new Float64Array(dims);
  const square = new Float64Array(dims);
  for (let f = 0; f < inTurns.length; f++) {
    if (!inTurns[f]) continue;
    for (let d = 0; d < dims; d++) {
      const v = mfcc[f]![d + 1]!;
      mean[d]! += v;
      square[d]! += v * v;
    }
  }
  const out = new Float32Array(VOICE_EMBEDDING_DIMS);
  for (let d = 0; d < dims; d++) {
    const m = mean[d]! / count;
    out[d] = m;
    out[dims + d] = Math.sqrt(Math.max(0, square[d]! / count - m * m));
  }
  return out;
}

/** No spread is narrower than this (a constant coefficient would make any difference infinitely far). */
const MIN_SPREAD = 1e-3;

/**
 * How alike two built-in descriptions are: the Bhattacharyya coefficient of the two voices' MFCCs
 * taken as Gaussians (each coefficient independent, with its mean and spread), 1 for the same
 * numbers, towards 0 as they part. Unlike the cosine of the 24 numbers it weighs a difference of
 * means by how much the voices vary on that coefficient, and a difference of spreads too.
 */
export function voiceSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== VOICE_EMBEDDING_DIMS || b.length !== VOICE_EMBEDDING_DIMS) return 0;
  const dims = VOICE_EMBEDDING_DIMS / 2;
  let distance = 0;
  for (let d = 0; d < dims; d++) {
    const va = Math.max(MIN_SPREAD, a[dims + d]!) ** 2;
    const vb = Math.max(MIN_SPREAD, b[dims + d]!) ** 2;
    const v = (va + vb) / 2;
    distance += (a[d]! - b[d]!) ** 2 / (8 * v) + 0.5 * Math.log(v / Math.sqrt(va * vb));
  }
  return Math.exp(-distance);
}

/**
 * One description of a voice from several (a profile's meetings): the Gaussian of all their frames
 * together, each description weighing the same: the mean of the means, and the spread around it.
 */
export function pooledVoice(voices: ReadonlyArray<ArrayLike<number>>): number[] | undefined {
  if (voices.length === 0 || voices.some((v) => v.length !== VOICE_EMBEDDING_DIMS)) return undefined;
  const dims = VOICE_EMBEDDING_DIMS / 2;
  const out = new Array<number>(VOICE_EMBEDDING_DIMS).fill(0);
  for (let d = 0; d < dims; d++) {
    let mean = 0;
    let square = 0;
    for (const v of voices) {
      mean += v[d]! / voices.length;
      square += (v[d]! ** 2 + v[dims + d]! ** 2) / voices.length;
    }
    out[d] = mean;
    out[dims + d] = Math.sqrt(Math.max(0, square - mean * mean));
  }
  return out;
}
