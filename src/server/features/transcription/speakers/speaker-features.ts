import Meyda from 'meyda';
import type { Pcm16k } from '#server/lib/ffmpeg.ts';

/**
 * Per-frame acoustic features for telling voices apart: MFCCs (the spectral envelope, which differs
 * between voices) and loudness for voice activity, over 32 ms frames every 16 ms.
 */
export const SAMPLE_RATE = 16_000;
export const FRAME = 512;
export const HOP = 256;
export const FRAME_MS = (HOP / SAMPLE_RATE) * 1000;
export const COEFFICIENTS = 13;

export type Frames = { samples: Float32Array; rms: Float32Array };

/** The recording as float samples and the loudness of each frame (cheap: no spectrum yet). */
export function frameEnergy(pcm: Pcm16k): Frames {
  const samples = new Float32Array(pcm.length / 2);
  for (let i = 0; i < samples.length; i++) samples[i] = pcm.readInt16LE(i * 2) / 32768;
  const count = Math.max(0, Math.floor((samples.length - FRAME) / HOP) + 1);
  const rms = new Float32Array(count);
  for (let f = 0; f < count; f++) {
    let energy = 0;
    for (let i = f * HOP; i < f * HOP + FRAME; i++) energy += samples[i]! * samples[i]!;
    rms[f] = Math.sqrt(energy / FRAME);
  }
  return { samples, rms };
}

/**
 * MFCCs of the frames that are speech (the only ones the speaker features use; the spectrum is
 * most of the cost, so silence is skipped). Other frames get an empty array.
 */
export function speechMfcc(frames: Frames, speech: boolean[]): Float32Array[] {
  Meyda.bufferSize = FRAME;
  Meyda.sampleRate = SAMPLE_RATE;
  Meyda.numberOfMFCCCoefficients = COEFFICIENTS;
  Meyda.windowingFunction = 'hamming';
  const empty = new Float32Array(COEFFICIENTS);
  return Array.from(frames.rms, (_, f) =>
    speech[f] ? Float32Array.from(Meyda.extract('mfcc', frames.samples.subarray(f * HOP, f * HOP + FRAME)) as unknown as number[]) : empty,
  );
}

/**
 * Energy voice activity: a frame is speech when clearly above the recording's noise floor (its
 * quiet 10th percentile). Gaps under 200 ms inside speech are bridged, blips under 150 ms dropped.
 */
export function speechFrames(rms: Float32Array): boolean[] {
  const sorted = Float32Array.from(rms).sort();
  const floor = sorted[Math.floor(sorted.length * 0.1)] ?? 0;
  const peak = sorted[Math.floor(sorted.length * 0.98)] ?? 0;
  const threshold = Math.max(floor * 3, floor + (peak - floor) * 0.08, 1e-3);
  const speech = Array.from(rms, (v) => v > threshold);
  fillRuns(speech, false, Math.round(200 / FRAME_MS), true);
  fillRuns(speech, true, Math.round(150 / FRAME_MS), false);
  return speech;
}

/** Sets runs of `value` shorter than `maxLength` (inside the track) to `replacement`. */
function fillRuns(flags: boolean[], value: boolean, maxLength: number, replacement: boolean): void {
  for (const [start, end] of runsOf(flags, value)) {
    if (end - start < maxLength && (value || (start > 0 && end < flags.length))) flags.fill(replacement, start, end);
  }
}

/** The runs of consecutive `value` frames, as [start, end) pairs in order. */
export function runsOf(flags: boolean[], value = true): Array<[start: number, end: number]> {
  const runs: Array<[number, number]> = [];
  let start = -1;
  for (let i = 0; i <= flags.length; i++) {
    if (i < flags.length && flags[i] === value) {
      if (start < 0) start = i;
      continue;
    }
    if (start >= 0) runs.push([start, i]);
    start = -1;
  }
  return runs;
}
