import type { Pcm16k } from '#server/lib/ffmpeg.ts';
import { COEFFICIENTS, FRAME_MS, frameEnergy, speechFrames, speechMfcc } from './speaker-features.ts';

/**
 * A voice's description from the built-in features, comparable across recordings: the mean and
 * spread of the speech frames' MFCCs c1…c12 (c0 is loudness, not voice) over the given turns. No
 * audio is kept: 24 numbers per speaker. Weaker than a neural speaker embedding (sherpa-onnx's
 * models): the microphone and the room move these numbers too, so matching across meetings must be
 * conservative (the voice-profiles feature's thresholds; the voices bench measures them).
 */
export const VOICE_EMBEDDING_DIMS = 2 * (COEFFICIENTS - 1);
/** Below this much speech a speaker's numbers describe a few words, not a voice. */
export const MIN_EMBEDDING_SPEECH_MS = 3000;

export function voiceEmbedding(pcm: Pcm16k, turns: ReadonlyArray<{ startMs: number; endMs: number }>): Float32Array | undefined {
  const frames = frameEnergy(pcm);
  const speech = speechFrames(frames.rms);
  const inTurns = new Array<boolean>(speech.length).fill(false);
  for (const turn of turns) {
    for (let f = Math.max(0, Math.floor(turn.startMs / FRAME_MS)); f < Math.min(speech.length, Math.ceil(turn.endMs / FRAME_MS)); f++) inTurns[f] = speech[f]!;
  }
  const count = inTurns.filter(Boolean).length;
  if (count * FRAME_MS < MIN_EMBEDDING_SPEECH_MS) return undefined;
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
