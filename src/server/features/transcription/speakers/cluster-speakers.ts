import { agnes } from 'ml-hclust';
import { CholeskyDecomposition, covariance } from 'ml-matrix';
import type { Pcm16k } from '#server/lib/ffmpeg.ts';
import type { SpeechSpan } from '../models/silero-vad.ts';
import { FRAME_MS, frameEnergy, runsOf, speechFrames, speechMfcc } from './speaker-features.ts';
import { keepConfirmedRuns } from './voice-activity.ts';

/**
 * Who spoke when on one mixed track, by clustering: speech (energy, confirmed by Silero VAD where
 * it loads) cut into 1.5 s windows, each described by the mean and spread of its MFCCs; Ward
 * agglomerative clustering of the windows; the number of speakers chosen by silhouette, then
 * raised while the tree's next split parts two voices (see splitsVoices); short turns smoothed
 * away. Pure computation, minutes of it on a long meeting: the server runs it in a host process
 * (clustering-host.ts), never on its event loop.
 */
export const MAX_SPEAKERS = 8;
const WINDOW_FRAMES = Math.round(1500 / FRAME_MS);
const WINDOW_HOP = Math.round(750 / FRAME_MS);
/** Below this silhouette, two "speakers" are one voice varying: label everything Speaker 1. */
const MIN_SILHOUETTE = 0.2;
const MIN_TURN_FRAMES = Math.round(1000 / FRAME_MS);

/**
 * Agglomerative clustering costs time cubic in the windows (about 15 s for 1,600, 20 minutes of
 * speech), so a longer recording is clustered on this many windows spread evenly over it, and
 * every window then joins the cluster whose centre is nearest.
 */
export const MAX_CLUSTERED_WINDOWS = 500;

/**
 * Silhouette undercounts on long meetings: with minutes of talk, two similar voices (two men) sit
 * closer together than the spread of what each says, and k = 2 scores best although the tree's
 * third cluster is exactly the third voice. A split is taken as two voices when the Gaussian
 * likelihood gain of modelling its sides' frames apart (the ΔBIC of speaker-change detection,
 * without its penalty) is at least this per frame: on the 3- and 10-minute three-voice meetings
 * a real voice split gains 1.4 to 2.5, one voice split by what it says 0.2 to 0.5.
 */
const MIN_VOICE_GAIN_PER_FRAME = 0.75;
/**
 * Each side of such a split needs this many frames of its own (8 s of speech) for a covariance to
 * mean anything; short recordings therefore keep silhouette's choice.
 */
const MIN_SPLIT_FRAMES = 500;

/**
 * A speaker index per 16 ms frame (-1 where nobody speaks). `speech`: Silero's spans, which
 * confirm or drop the energy detector's runs.
 */
export function diarizeFrames(pcm: Pcm16k, options: { signal?: AbortSignal; speech?: SpeechSpan[] } = {}): Int16Array {
  const frames = frameEnergy(pcm);
  const energy = speechFrames(frames.rms);
  const speech = options.speech ? keepConfirmedRuns(energy, options.speech) : energy;
  const labels = new Int16Array(frames.rms.length).fill(-1);
  const windows = speechWindows(speech);
  if (windows.length === 0) return labels;
  const mfcc = speechMfcc(frames, speech);
  options.signal?.throwIfAborted();
  const features = normalise(windows.map(([start, end]) => windowFeature(mfcc, speech, start, end)));
  // The frames each window describes alone (overlapping windows share their second half).
  const ownFrames = windows.map(([start, end]) => {
    const own: Float32Array[] = [];
    for (let f = start; f < Math.min(end, start + WINDOW_HOP); f++) if (speech[f]) own.push(mfcc[f]!);
    return own;
  });
  const assignment = cluster(features, ownFrames);
  options.signal?.throwIfAborted();

  // Each speech frame votes with the windows that cover it; ties go to the earlier window.
  const votes = new Map<number, Map<number, number>>();
  windows.forEach(([start, end], w) => {
    for (let f = start; f < end; f++) {
      if (!speech[f]) continue;
      const tally = votes.get(f) ?? new Map<number, number>();
      tally.set(assignment[w]!, (tally.get(assignment[w]!) ?? 0) + 1);
      votes.set(f, tally);
    }
  });
  for (const [frame, tally] of votes) labels[frame] = [...tally.entries()].sort((a, b) => b[1] - a[1])[0]![0];
  smoothTurns(labels);
  return labels;
}

/** Windows of speech frames: contiguous speech cut into overlapping 1.5 s windows (a short run is one window). */
function speechWindows(speech: boolean[]): Array<[number, number]> {
  const windows: Array<[number, number]> = [];
  for (const [start, end] of runsOf(speech)) {
    const length = end - start;
    if (length < Math.round(300 / FRAME_MS)) continue;
    if (length <= WINDOW_FRAMES) windows.push([start, end]);
    else for (let w = start; w < end; w += WINDOW_HOP) windows.push([w, Math.min(end, w + WINDOW_FRAMES)]);
  }
  return windows;
}

function windowFeature(mfcc: Float32Array[], speech: boolean[], start: number, end: number): number[] {
  const dims = (mfcc[0]?.length ?? 13) - 1; // c0 is loudness, not voice
  const mean = new Array<number>(dims).fill(0);
  const square = new Array<number>(dims).fill(0);
  let n = 0;
  for (let f = start; f < end; f++) {
    if (!speech[f]) continue;
    n++;
    for (let d = 0; d < dims; d++) {
      const v = mfcc[f]![d + 1]!;
      mean[d]! += v;
      square[d]! += v * v;
    }
  }
  n = Math.max(1, n);
  return [...mean.map((m) => m / n), ...square.map((s, d) => Math.sqrt(Math.max(0, s / n - (mean[d]! / n) ** 2)))];
}

/** Each dimension to zero mean and unit variance across windows, so no coefficient dominates. */
function normalise(rows: number[][]): number[][] {
  const dims = rows[0]?.length ?? 0;
  const mean = new Array<number>(dims).fill(0);
  const spread = new Array<number>(dims).fill(0);
  for (const row of rows) row.forEach((v, d) => (mean[d]! += v / rows.length));
  for (const row of rows) row.forEach((v, d) => (spread[d]! += (v - mean[d]!) ** 2 / rows.length));
  return rows.map((row) => row.map((v, d) => (v - mean[d]!) / (Math.sqrt(spread[d]!) || 1)));
}

const distance = (a: number[], b: number[]) => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i]! - b[i]!) ** 2;
  return Math.sqrt(sum);
};

/** Cluster index per window; a long recording is clustered on a sample (see MAX_CLUSTERED_WINDOWS). */
function cluster(features: number[][], ownFrames: Float32Array[][]): number[] {
  const n = features.length;
  if (n <= MAX_CLUSTERED_WINDOWS) return clusterAll(features, ownFrames);
  const sample = Array.from({ length: MAX_CLUSTERED_WINDOWS }, (_, i) => Math.floor((i * n) / MAX_CLUSTERED_WINDOWS));
  const sampleLabels = clusterAll(
    sample.map((i) => features[i]!),
    sample.map((i) => ownFrames[i]!),
  );
  const k = Math.max(...sampleLabels) + 1;
  const dims = features[0]!.length;
  const centres = Array.from({ length: k }, () => new Array<number>(dims).fill(0));
  const sizes = new Array<number>(k).fill(0);
  sample.forEach((window, s) => {
    const c = sampleLabels[s]!;
    sizes[c]!++;
    features[window]!.forEach((v, d) => (centres[c]![d]! += v));
  });
  centres.forEach((centre, c) => centre.forEach((_, d) => (centre[d]! /= sizes[c]!)));
  return features.map((f) => {
    let best = 0;
    for (let c = 1; c < k; c++) if (distance(f, centres[c]!) < distance(f, centres[best]!)) best = c;
    return best;
  });
}

/** Ward-linkage clustering; k (1..MAX_SPEAKERS) by mean silhouette, then raised while the next split parts two voices. */
function clusterAll(features: number[][], ownFrames: Float32Array[][]): number[] {
  const n = features.length;
  if (n < 4) return new Array<number>(n).fill(0);
  const matrix = features.map((a) => features.map((b) => distance(a, b)));
  const tree = agnes(matrix, { method: 'ward', isDistanceMatrix: true });
  const labelsAt = (k: number) => {
    const labels = new Array<number>(n).fill(0);
    if (k > 1) tree.group(k).children.forEach((child, c) => child.indices().forEach((i) => (labels[i] = c)));
    return labels;
  };
  const maxK = Math.min(MAX_SPEAKERS, n - 1);
  let best = { k: 1, score: MIN_SILHOUETTE };
  for (let k = 2; k <= maxK; k++) {
    const score = silhouette(matrix, labelsAt(k), k);
    if (score > best.score) best = { k, score };
  }
  let k = best.k;
  while (k < maxK && splitsVoices(labelsAt(k), labelsAt(k + 1), ownFrames)) k++;
  return labelsAt(k);
}

function silhouette(matrix: number[][], labels: number[], k: number): number {
  let total = 0;
  for (let i = 0; i < labels.length; i++) {
    const sums = new Array<number>(k).fill(0);
    const counts = new Array<number>(k).fill(0);
    for (let j = 0; j < labels.length; j++) {
      if (i === j) continue;
      sums[labels[j]!]! += matrix[i]![j]!;
      counts[labels[j]!]!++;
    }
    const own = labels[i]!;
    if (counts[own] === 0) continue; // a singleton scores 0
    const a = sums[own]! / counts[own]!;
    let b = Infinity;
    for (let c = 0; c < k; c++) if (c !== own && counts[c]! > 0) b = Math.min(b, sums[c]! / counts[c]!);
    total += (b - a) / Math.max(a, b);
  }
  return total / labels.length;
}

/**
 * Whether going from the tree's k clusters to k + 1 (one cluster split in two) parts two voices:
 * both sides hold enough frames and modelling them apart gains enough per frame
 * (MIN_VOICE_GAIN_PER_FRAME).
 */
function splitsVoices(before: number[], after: number[], ownFrames: Float32Array[][]): boolean {
  // The two clusters of `after` whose windows were one cluster of `before`.
  const parentOf = new Map<number, number>();
  after.forEach((c, i) => parentOf.set(c, before[i]!));
  const children = new Map<number, number[]>();
  for (const [child, parent] of parentOf) children.set(parent, [...(children.get(parent) ?? []), child]);
  const split = [...children.values()].find((cs) => cs.length === 2);
  if (!split) return false;
  const sides = split.map((c) => after.flatMap((label, i) => (label === c ? ownFrames[i]! : [])));
  if (sides.some((side) => side.length < MIN_SPLIT_FRAMES)) return false;
  const whole = [...sides[0]!, ...sides[1]!];
  const gain = 0.5 * (whole.length * logDetCovariance(whole) - sides.reduce((sum, side) => sum + side.length * logDetCovariance(side), 0));
  return gain / whole.length >= MIN_VOICE_GAIN_PER_FRAME;
}

/** log |Σ| of the frames' voice coefficients (c1…, not c0, the loudness), by Cholesky. */
function logDetCovariance(frames: Float32Array[]): number {
  const rows = frames.map((frame) => Array.from(frame.subarray(1)));
  const sigma = covariance(rows);
  // A tiny ridge keeps a degenerate covariance (a pure tone) decomposable.
  for (let d = 0; d < sigma.rows; d++) sigma.set(d, d, sigma.get(d, d) + 1e-6);
  const lower = new CholeskyDecomposition(sigma).lowerTriangularMatrix;
  let sum = 0;
  for (let d = 0; d < lower.rows; d++) sum += Math.log(Math.max(lower.get(d, d), 1e-12));
  return 2 * sum;
}

/** A turn shorter than a second between two turns of one speaker belongs to that speaker. */
function smoothTurns(labels: Int16Array): void {
  const turns: Array<{ start: number; end: number; speaker: number }> = [];
  for (let f = 0; f < labels.length; f++) {
    if (labels[f] === -1) continue;
    const last = turns.at(-1);
    if (last && last.speaker === labels[f] && f - last.end < MIN_TURN_FRAMES) last.end = f + 1;
    else turns.push({ start: f, end: f + 1, speaker: labels[f]! });
  }
  for (let t = 1; t < turns.length - 1; t++) {
    const [before, turn, after] = [turns[t - 1]!, turns[t]!, turns[t + 1]!];
    if (turn.end - turn.start < MIN_TURN_FRAMES && before.speaker === after.speaker) {
      for (let f = turn.start; f < turn.end; f++) if (labels[f] !== -1) labels[f] = before.speaker;
      turn.speaker = before.speaker;
    }
  }
}
