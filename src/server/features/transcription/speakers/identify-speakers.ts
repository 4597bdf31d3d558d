import { agnes } from 'ml-hclust';
import type { Pcm16k } from '#server/lib/ffmpeg.ts';
import type { RecognizedSegment, RecognizedWord } from '../engines/engine.ts';
import type { AttributedSegment, SpeakerIdentification } from '../pipeline-types.ts';
import { extractFrames, FRAME_MS, speechFrames } from './speaker-features.ts';

/**
 * Who spoke when, on one mixed track: energy voice activity, 1.5 s windows over speech described
 * by the mean and spread of their MFCCs, agglomerative clustering with the number of speakers
 * chosen by silhouette, short turns smoothed away; then each recognised word takes the speaker of
 * its frames and segments are split where the speaker changes.
 */
export const MAX_SPEAKERS = 8;
const WINDOW_FRAMES = Math.round(1500 / FRAME_MS);
const WINDOW_HOP = Math.round(750 / FRAME_MS);
/** Below this silhouette, two "speakers" are one voice varying: label everything Speaker 1. */
const MIN_SILHOUETTE = 0.2;
const MIN_TURN_FRAMES = Math.round(1000 / FRAME_MS);

export async function identifySpeakers(pcm: Pcm16k, segments: RecognizedSegment[], options: { signal?: AbortSignal } = {}): Promise<SpeakerIdentification> {
  const frameSpeakers = diarizeFrames(pcm, options.signal);
  return attributeSegments(segments, frameSpeakers);
}

/** A speaker index per frame (-1 where nobody speaks). Exported for the diarization error rate. */
export function diarizeFrames(pcm: Pcm16k, signal?: AbortSignal): Int16Array {
  const { mfcc, rms } = extractFrames(pcm);
  signal?.throwIfAborted();
  const speech = speechFrames(rms);
  const labels = new Int16Array(rms.length).fill(-1);
  const windows = speechWindows(speech);
  if (windows.length === 0) return labels;
  const features = normalise(windows.map(([start, end]) => windowFeature(mfcc, speech, start, end)));
  const assignment = cluster(features);
  signal?.throwIfAborted();

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
  let start = -1;
  for (let i = 0; i <= speech.length; i++) {
    if (i < speech.length && speech[i]) {
      if (start < 0) start = i;
      continue;
    }
    if (start >= 0) {
      const length = i - start;
      if (length >= Math.round(300 / FRAME_MS)) {
        if (length <= WINDOW_FRAMES) windows.push([start, i]);
        else for (let w = start; w < i; w += WINDOW_HOP) windows.push([w, Math.min(i, w + WINDOW_FRAMES)]);
      }
    }
    start = -1;
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

/** Cluster index per window: average-linkage clustering, k (1..MAX_SPEAKERS) by mean silhouette. */
function cluster(features: number[][]): number[] {
  const n = features.length;
  if (n < 4) return new Array<number>(n).fill(0);
  const matrix = features.map((a) => features.map((b) => distance(a, b)));
  const tree = agnes(matrix, { method: 'ward', isDistanceMatrix: true });
  let best = { score: MIN_SILHOUETTE, labels: new Array<number>(n).fill(0) };
  for (let k = 2; k <= Math.min(MAX_SPEAKERS, n - 1); k++) {
    const labels = new Array<number>(n).fill(0);
    tree.group(k).children.forEach((child, c) => child.indices().forEach((i) => (labels[i] = c)));
    const score = silhouette(matrix, labels, k);
    if (score > best.score) best = { score, labels };
  }
  return best.labels;
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

/** Speaker of a word: the most frequent label over its frames (nearest labelled frame if none). */
function speakerOfWord(word: Pick<RecognizedWord, 'startMs' | 'endMs'>, labels: Int16Array): number {
  const first = Math.max(0, Math.floor(word.startMs / FRAME_MS));
  const last = Math.min(labels.length - 1, Math.ceil(word.endMs / FRAME_MS));
  const tally = new Map<number, number>();
  for (let f = first; f <= last; f++) if (labels[f]! >= 0) tally.set(labels[f]!, (tally.get(labels[f]!) ?? 0) + 1);
  if (tally.size > 0) return [...tally.entries()].sort((a, b) => b[1] - a[1])[0]![0];
  for (let d = 1; d < labels.length; d++) {
    if (labels[first - d] !== undefined && labels[first - d]! >= 0) return labels[first - d]!;
    if (labels[last + d] !== undefined && labels[last + d]! >= 0) return labels[last + d]!;
  }
  return 0;
}

export function attributeSegments(segments: RecognizedSegment[], labels: Int16Array): SpeakerIdentification {
  const out: AttributedSegment[] = [];
  for (const segment of segments) {
    const words = segment.words.length > 0 ? segment.words : [{ text: segment.text, startMs: segment.startMs, endMs: segment.endMs, confidence: segment.confidence }];
    let current: { speaker: number; words: RecognizedWord[] } | undefined;
    const flush = () => {
      if (!current) return;
      const ws = current.words;
      const single = segment.words.length === 0;
      out.push({
        startMs: single ? segment.startMs : ws[0]!.startMs,
        endMs: single ? segment.endMs : ws.at(-1)!.endMs,
        text: single ? segment.text : ws.map((w) => w.text).join(' '),
        words: single ? [] : ws,
        confidence: single ? segment.confidence : ws.reduce((s, w) => s + w.confidence, 0) / ws.length,
        speaker: current.speaker,
      });
    };
    for (const word of words) {
      const speaker = speakerOfWord(word, labels);
      if (current?.speaker === speaker) current.words.push(word);
      else {
        flush();
        current = { speaker, words: [word] };
      }
    }
    flush();
  }
  // Speakers numbered in order of first appearance: "Speaker 1" speaks first.
  const order: number[] = [];
  for (const s of out) if (!order.includes(s.speaker)) order.push(s.speaker);
  return {
    speakers: order.map((_, i) => ({ label: `Speaker ${i + 1}` })),
    segments: out.map((s) => ({ ...s, speaker: order.indexOf(s.speaker) })),
  };
}
