import { agnes } from 'ml-hclust';
import type { Pcm16k } from '#server/lib/ffmpeg.ts';
import type { RecognizedSegment, RecognizedWord } from '../engines/engine.ts';
import type { SpeechSpan } from '../models/silero-vad.ts';
import { PermanentJobError } from '../pipeline.ts';
import type { AttributedSegment, IdentifySpeakers, SpeakerIdentification } from '../pipeline-types.ts';
import type { Turn } from './diarization-error-rate.ts';
import { createSherpaDiarizer, type SherpaDiarizer } from './sherpa-diarization.ts';
import { FRAME_MS, frameEnergy, speechFrames, speechMfcc } from './speaker-features.ts';
import { createSpeechDetector, keepConfirmedRuns, type SpeechDetector } from './voice-activity.ts';

/**
 * Who spoke when, on one mixed track. Two methods:
 * - clustering (always there): voice activity (energy, checked by Silero VAD where it loads),
 *   1.5 s windows over speech described by the mean and spread of their MFCCs, agglomerative
 *   clustering with the number of speakers chosen by silhouette, short turns smoothed away;
 * - sherpa-onnx (once its pyannote segmentation and speaker-embedding models are fetched): neural
 *   segmentation and voice embeddings, see sherpa-diarization.ts.
 * Either way each recognised word then takes the speaker of its time and segments are split where
 * the speaker changes; speakers are numbered in order of first appearance.
 */
export const MAX_SPEAKERS = 8;
const WINDOW_FRAMES = Math.round(1500 / FRAME_MS);
const WINDOW_HOP = Math.round(750 / FRAME_MS);
/** Below this silhouette, two "speakers" are one voice varying: label everything Speaker 1. */
const MIN_SILHOUETTE = 0.2;
const MIN_TURN_FRAMES = Math.round(1000 / FRAME_MS);

/** TRANSCRIBE_SPEAKERS: `auto` prefers sherpa-onnx when its models are installed and load. */
export type SpeakerMethodSetting = 'auto' | 'clustering' | 'sherpa-onnx';
export type SpeakerMethod = 'clustering' | 'sherpa-onnx';

export type SpeakerIdentifierOptions = {
  method?: SpeakerMethodSetting;
  /** $DATA_DIR/models: sherpa-onnx's diarization models and an installed Silero VAD. */
  modelsDir?: string;
  /** sherpa-onnx's clustering threshold (see sherpa-diarization.ts). */
  sherpaThreshold?: number;
  /** Told when `auto` meant sherpa-onnx but it failed on this recording and clustering answered. */
  onFallback?: (reason: string) => void;
};

export type SpeakerIdentifierStatus = {
  method: SpeakerMethod;
  /** What clustering hears speech with. */
  voiceActivity: 'silero' | 'energy';
  /** Why sherpa-onnx is not used, and why Silero is not, where they are not. */
  reasons: string[];
};

export type SpeakerIdentifier = {
  identify: IdentifySpeakers;
  /** The method identify() uses now, for the start-up log and the status page. */
  status(): Promise<SpeakerIdentifierStatus>;
  /** Stops sherpa-onnx's host process. */
  close(): Promise<void>;
};

/** Speaker identification as configured: sherpa-onnx diarization where chosen and available, clustering otherwise. */
export function createSpeakerIdentifier(options: SpeakerIdentifierOptions = {}): SpeakerIdentifier {
  const setting = options.method ?? 'auto';
  const sherpa: SherpaDiarizer | undefined =
    setting !== 'clustering' && options.modelsDir ? createSherpaDiarizer({ modelsDir: options.modelsDir, threshold: options.sherpaThreshold }) : undefined;
  let speech: { detector: SpeechDetector; reason?: string } | undefined;
  // Silero is loaded on first use, not at start: a server that never transcribes never pays for it.
  const detector = () => (speech ??= createSpeechDetector({ modelsDir: options.modelsDir }));

  const cluster = async (pcm: Pcm16k, segments: RecognizedSegment[], signal?: AbortSignal) => {
    const spans = await detector().detector.detect(pcm, signal);
    return attributeSegments(segments, diarizeFrames(pcm, { signal, speech: spans }));
  };

  const status = async (): Promise<SpeakerIdentifierStatus> => {
    const reasons: string[] = [];
    let method: SpeakerMethod = 'clustering';
    if (setting === 'clustering') reasons.push('sherpa-onnx diarization: not chosen (TRANSCRIBE_SPEAKERS=clustering)');
    else if (!sherpa) reasons.push('sherpa-onnx diarization: no models folder');
    else {
      const availability = await sherpa.checkAvailability();
      if (availability.available) method = 'sherpa-onnx';
      else reasons.push(availability.reason);
    }
    const { detector: vad, reason } = detector();
    if (reason) reasons.push(reason);
    return { method, voiceActivity: vad.name, reasons };
  };

  const identify: IdentifySpeakers = async (pcm, segments, identifyOptions = {}) => {
    const signal = identifyOptions.signal;
    if (!sherpa) {
      if (setting === 'sherpa-onnx') throw new PermanentJobError('Speaker identification is set to sherpa-onnx (TRANSCRIBE_SPEAKERS) but no models folder is configured.');
      return cluster(pcm, segments, signal);
    }
    const availability = await sherpa.checkAvailability();
    if (!availability.available) {
      // Chosen outright, sherpa-onnx missing is the installation's to fix, not something a retry mends.
      if (setting === 'sherpa-onnx') throw new PermanentJobError(`Speakers could not be told apart: ${availability.reason}`);
      return cluster(pcm, segments, signal);
    }
    try {
      return attributeSegments(segments, framesFromTurns(await sherpa.diarize(pcm, { signal }), pcm));
    } catch (error) {
      // A cancelled job stays cancelled; with sherpa-onnx chosen outright its failure is the job's.
      if (signal?.aborted || setting === 'sherpa-onnx') throw error;
      options.onFallback?.(error instanceof Error ? error.message : String(error));
      return cluster(pcm, segments, signal);
    }
  };

  return { identify, status, close: async () => sherpa?.close() };
}

let fallbackIdentifier: SpeakerIdentifier | undefined;

/** Clustering (with the bundled Silero VAD where it loads), for callers without an installation's settings. */
export const identifySpeakers: IdentifySpeakers = (pcm, segments, options) => (fallbackIdentifier ??= createSpeakerIdentifier({ method: 'clustering' })).identify(pcm, segments, options);

/**
 * A speaker index per 16 ms frame (-1 where nobody speaks), by clustering. `speech`: Silero's
 * spans, which confirm or drop the energy detector's runs. Exported for the diarization error rate.
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
  const assignment = cluster(features);
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

/** Turns (from sherpa-onnx) as per-frame labels; where two speakers overlap, the later turn's speaker. */
export function framesFromTurns(turns: Turn[], pcm: Pcm16k): Int16Array {
  const labels = new Int16Array(Math.ceil(pcm.length / 2 / ((FRAME_MS * 16_000) / 1000))).fill(-1);
  const ids = [...new Set(turns.map((t) => t.speaker))];
  for (const turn of turns) {
    const speaker = ids.indexOf(turn.speaker);
    for (let f = Math.max(0, Math.floor(turn.startMs / FRAME_MS)); f < Math.min(labels.length, Math.ceil(turn.endMs / FRAME_MS)); f++) labels[f] = speaker;
  }
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

/**
 * Agglomerative clustering costs time cubic in the windows (about 15 s for 1,600, 20 minutes of
 * speech), so a longer recording is clustered on this many windows spread evenly over it, and
 * every window then joins the cluster whose centre is nearest.
 */
export const MAX_CLUSTERED_WINDOWS = 500;

/** Cluster index per window: Ward-linkage clustering, k (1..MAX_SPEAKERS) by mean silhouette. */
function cluster(features: number[][]): number[] {
  const n = features.length;
  if (n <= MAX_CLUSTERED_WINDOWS) return clusterAll(features);
  const sample = Array.from({ length: MAX_CLUSTERED_WINDOWS }, (_, i) => Math.floor((i * n) / MAX_CLUSTERED_WINDOWS));
  const sampleLabels = clusterAll(sample.map((i) => features[i]!));
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

function clusterAll(features: number[][]): number[] {
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
