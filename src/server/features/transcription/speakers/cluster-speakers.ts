import { agnes } from 'ml-hclust';
import { CholeskyDecomposition, Matrix } from 'ml-matrix';
import type { Pcm16k } from '#server/lib/ffmpeg.ts';
import type { SpeechSpan } from '../models/silero-vad.ts';
import { COEFFICIENTS, FRAME_MS, frameEnergy, runsOf, speechFrames, speechMfcc } from './speaker-features.ts';
import { keepConfirmedRuns } from './voice-activity.ts';

/**
 * Who spoke when on one mixed track, by clustering: speech (energy, confirmed by Silero VAD where
 * it loads) cut into 1.5 s windows, each described by the mean and spread of its MFCCs; Ward
 * agglomerative clustering of the windows; the number of speakers chosen by silhouette, then
 * raised while the tree's next split parts two voices (see splitsVoices); tiny clusters merged
 * into their nearest voice (mergeTinyClusters); frames voted, then speakers left with too little
 * speech merged too (voicedSpeakers); short turns smoothed away and pauses within a turn given to
 * its speaker. Pure computation, minutes of it on a long meeting: the server runs it in a host
 * process (clustering-host.ts), never on its event loop.
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
 * What clustering keeps of a stretch of audio, to cluster later with the rest of the recording:
 * where the speech is and, per 1.5 s speech window, its voice features and the moments of its own
 * frames' MFCCs (not the frames: about 1 KB per 0.75 s of speech, where the PCM was 24 KB). A long
 * recording is described a decoding window at a time and clustered once over every window
 * (clusterFeatures), so no more than one window of its audio is ever held.
 */
export type SpeechFeatures = {
  /** How many 16 ms frames this describes. */
  frames: number;
  /** 1 where a frame is speech. */
  speech: Uint8Array;
  /** The speech windows, as [start, end) frame pairs one after another, in order of start. */
  windows: Int32Array;
  /** Per window, its FEATURE_DIMS features (mean and spread of its MFCCs), not yet normalised. */
  features: Float64Array;
  /** Per window, MOMENT_DIMS moments of its own frames' voice coefficients: count, sums, products (see moments()). */
  moments: Float64Array;
};

/** c1…c12: c0 is loudness, not voice. */
const VOICE_DIMS = COEFFICIENTS - 1;
const FEATURE_DIMS = 2 * VOICE_DIMS;
const MOMENT_DIMS = 1 + VOICE_DIMS + (VOICE_DIMS * (VOICE_DIMS + 1)) / 2;

/**
 * A speaker index per 16 ms frame (-1 where nobody speaks). `speech`: Silero's spans, which
 * confirm or drop the energy detector's runs.
 */
export function diarizeFrames(pcm: Pcm16k, options: { signal?: AbortSignal; speech?: SpeechSpan[]; maxSpeakers?: number } = {}): Int16Array {
  return clusterFeatures(speechFeatures(pcm, options), options.signal, options.maxSpeakers);
}

/**
 * The speech of a stretch of audio and its windows' features. The energy detector's noise floor
 * is this audio's own: on a long recording, that of its decoding window (ten minutes).
 */
export function speechFeatures(pcm: Pcm16k, options: { signal?: AbortSignal; speech?: SpeechSpan[] } = {}): SpeechFeatures {
  const frames = frameEnergy(pcm);
  const energy = speechFrames(frames.rms);
  const speech = options.speech ? keepConfirmedRuns(energy, options.speech) : energy;
  const windows = speechWindows(speech);
  const mfcc = windows.length > 0 ? speechMfcc(frames, speech) : [];
  options.signal?.throwIfAborted();
  const features = new Float64Array(windows.length * FEATURE_DIMS);
  const moments = new Float64Array(windows.length * MOMENT_DIMS);
  windows.forEach(([start, end], w) => {
    features.set(windowFeature(mfcc, speech, start, end), w * FEATURE_DIMS);
    // The frames each window describes alone (overlapping windows share their second half).
    const own: Float32Array[] = [];
    for (let f = start; f < Math.min(end, start + WINDOW_HOP); f++) if (speech[f]) own.push(mfcc[f]!);
    addMoments(moments.subarray(w * MOMENT_DIMS, (w + 1) * MOMENT_DIMS), own);
  });
  return { frames: frames.rms.length, speech: Uint8Array.from(speech, Number), windows: Int32Array.from(windows.flat()), features, moments };
}

/**
 * The part of a decoding window's features that is its own: its first `ownFrames` frames, and
 * the speech windows starting in them (those ending in the overlap after it were seen whole, with
 * the audio that follows; the overlap's own windows are the next decoding window's), numbered
 * from `firstFrame`, where the window starts in the recording.
 */
export function ownFeatures(all: SpeechFeatures, ownFrames: number, firstFrame: number): SpeechFeatures {
  const frames = Math.min(all.frames, ownFrames);
  let count = 0;
  while (count < all.windows.length / 2 && all.windows[count * 2]! < frames) count++;
  return {
    frames,
    speech: all.speech.slice(0, frames),
    windows: all.windows.slice(0, count * 2).map((f) => f + firstFrame),
    features: all.features.slice(0, count * FEATURE_DIMS),
    moments: all.moments.slice(0, count * MOMENT_DIMS),
  };
}

/** Consecutive decoding windows' own features as one recording's. */
export function joinFeatures(parts: SpeechFeatures[]): SpeechFeatures {
  const join = <T extends Uint8Array | Int32Array | Float64Array>(make: (n: number) => T, pick: (p: SpeechFeatures) => T): T => {
    const out = make(parts.reduce((sum, p) => sum + pick(p).length, 0));
    let offset = 0;
    for (const part of parts) {
      out.set(pick(part), offset);
      offset += pick(part).length;
    }
    return out;
  };
  return {
    frames: parts.reduce((sum, p) => sum + p.frames, 0),
    speech: join(
      (n) => new Uint8Array(n),
      (p) => p.speech,
    ),
    windows: join(
      (n) => new Int32Array(n),
      (p) => p.windows,
    ),
    features: join(
      (n) => new Float64Array(n),
      (p) => p.features,
    ),
    moments: join(
      (n) => new Float64Array(n),
      (p) => p.moments,
    ),
  };
}

/** Who spoke when over the frames `speech` describes: the windows clustered, each speech frame voted by the windows over it. */
export function clusterFeatures(speech: SpeechFeatures, signal?: AbortSignal, maxSpeakers?: number): Int16Array {
  const count = speech.windows.length / 2;
  if (count === 0) return new Int16Array(speech.frames).fill(-1);
  const features = normalise(Array.from({ length: count }, (_, w) => Array.from(speech.features.subarray(w * FEATURE_DIMS, (w + 1) * FEATURE_DIMS))));
  const moments = Array.from({ length: count }, (_, w) => speech.moments.subarray(w * MOMENT_DIMS, (w + 1) * MOMENT_DIMS));
  const windowSpeech = speechOfWindows(speech);
  let assignment = mergeTinyClusters(features, windowSpeech, cluster(features, moments));
  signal?.throwIfAborted();
  let labels = voteFrames(speech, assignment);
  const cap = Math.max(1, Math.min(MAX_SPEAKERS, maxSpeakers ?? MAX_SPEAKERS));
  const voiced = voicedSpeakers(labels);
  const speakers = voiced.size > 0 ? voiced : new Set(labels.filter((l) => l >= 0));
  if (speakers.size > cap || speakers.size < new Set(assignment).size) {
    // A cluster that won no frame, or too little speech to be a person, is no speaker: it joins its
    // nearest before any real voice is merged.
    assignment = capSpeakers(features, windowSpeech, assignment, Math.min(cap, speakers.size), speakers);
    labels = voteFrames(speech, assignment);
  }
  return labels;
}

/**
 * The speakers who won enough speech in the vote to be people, by the rule mergeTinyClusters
 * applies to clusters' windows: at least a second, and from 1 to 4 s only with 2 % of the speech.
 * A cluster's windows can hold enough speech while the windows of other voices over the same frames
 * outvote it nearly everywhere: what is left of it is a word or two at a turn's edge.
 */
export function voicedSpeakers(labels: Int16Array): Set<number> {
  const won = new Map<number, number>();
  for (const label of labels) if (label >= 0) won.set(label, (won.get(label) ?? 0) + 1);
  const total = [...won.values()].reduce((a, b) => a + b, 0);
  const least = leastVoiceFrames(total);
  return new Set([...won].filter(([, frames]) => frames >= least).map(([label]) => label));
}

/**
 * A speaker per frame: each speech frame votes with the windows that cover it; ties go to the
 * earlier window (the label that voted first at that frame); short turns smoothed away, pauses
 * within a turn filled (fillPauses).
 */
function voteFrames(speech: SpeechFeatures, assignment: number[]): Int16Array {
  const labels = new Int16Array(speech.frames).fill(-1);
  const count = speech.windows.length / 2;
  const k = Math.max(...assignment) + 1;
  const votes = new Uint16Array(speech.frames * k);
  const firstVote = new Uint32Array(speech.frames * k);
  for (let w = 0; w < count; w++) {
    const label = assignment[w]!;
    for (let f = speech.windows[w * 2]!; f < speech.windows[w * 2 + 1]!; f++) {
      if (!speech.speech[f]) continue;
      if (votes[f * k + label] === 0) firstVote[f * k + label] = w + 1;
      votes[f * k + label]! += 1;
    }
  }
  for (let f = 0; f < speech.frames; f++) {
    let best = -1;
    for (let c = 0; c < k; c++) {
      const v = votes[f * k + c]!;
      if (v === 0) continue;
      if (best < 0 || v > votes[f * k + best]! || (v === votes[f * k + best]! && firstVote[f * k + c]! < firstVote[f * k + best]!)) best = c;
    }
    labels[f] = best;
  }
  smoothTurns(labels);
  fillPauses(labels);
  return labels;
}

/**
 * A pause between a speaker's words is part of their turn, as people mark turns (and as reference
 * transcripts do): a gap of at most this long between two frames of one speaker gets that speaker.
 * Longer ones stay unlabelled, as between two turns of one person a few sentences apart.
 */
const MAX_PAUSE_FRAMES = Math.round(500 / FRAME_MS);

export function fillPauses(labels: Int16Array): void {
  let last = -1;
  for (let f = 0; f < labels.length; f++) {
    if (labels[f] === -1) continue;
    if (last >= 0 && f - last - 1 <= MAX_PAUSE_FRAMES && labels[last] === labels[f]) labels.fill(labels[f]!, last + 1, f);
    last = f;
  }
}

/**
 * The speech frames each window stands for alone: from its start to the next window's start in the
 * same run of speech (windows overlap by half), to its end for the last of a run.
 */
function speechOfWindows(speech: SpeechFeatures): number[] {
  const count = speech.windows.length / 2;
  return Array.from({ length: count }, (_, w) => {
    const start = speech.windows[w * 2]!;
    const end = speech.windows[w * 2 + 1]!;
    const next = w + 1 < count ? speech.windows[w * 2 + 2]! : end;
    let frames = 0;
    for (let f = start; f < (next > start && next < end ? next : end); f++) frames += speech.speech[f]!;
    return frames;
  });
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
  const dims = VOICE_DIMS;
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
function cluster(features: number[][], moments: Float64Array[]): number[] {
  const n = features.length;
  if (n <= MAX_CLUSTERED_WINDOWS) return clusterAll(features, moments);
  const sample = Array.from({ length: MAX_CLUSTERED_WINDOWS }, (_, i) => Math.floor((i * n) / MAX_CLUSTERED_WINDOWS));
  const sampleLabels = clusterAll(
    sample.map((i) => features[i]!),
    sample.map((i) => moments[i]!),
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

/**
 * Tiny clusters (see mergeTinyClusters) were most of the over-split speakers: silhouette on a
 * short recording's few windows happily makes a speaker of one phrase. The thresholds come from
 * the clips of ../shared/data/audio, imported and recorded through /record in chromium (bench
 * speakers-recording), clustered as the pipeline now hears them (not denoised):
 * - under 1 s of speech a cluster was always part of another voice (0.1 to 0.9 s: one word, a
 *   breath, the first syllables while the browser's gain control settles), while the shortest real
 *   voice there (leopard_3spk's first speaker) has 1.5 s: such a cluster always merges;
 * - from 1 to 4 s, one voice's phrases said differently formed clusters of 1.1 to 2.2 s, whose
 *   windows lay 1.9 to 2.24 spreads (MIN_DISTINCT's unit) from the nearest other voice; the real
 *   short voices lay 2.31 to 3.2 spreads away. The line sits between the two; the gap is narrow
 *   and more labelled clips would place it better;
 * - from 4 s of speech a cluster is kept as it is (long), as before: there the tree's own test of
 *   two voices (splitsVoices) and silhouette decide.
 */
const MIN_VOICE_FRAMES = Math.round(1000 / FRAME_MS);
const LONG_VOICE_FRAMES = Math.round(4000 / FRAME_MS);
/**
 * Minimum speech per speaker, as a share of the recording's: on a long meeting a "speaker" of a
 * few seconds among an hour of talk is one voice's cough or laugh far more often than a person.
 */
const MIN_VOICE_SHARE = 0.02;

/** The speech a speaker needs to be kept as a person, of `totalSpeech` frames: at least a second, and from 1 to 4 s only with its share. */
function leastVoiceFrames(totalSpeech: number): number {
  return Math.min(LONG_VOICE_FRAMES, Math.max(MIN_VOICE_FRAMES, MIN_VOICE_SHARE * totalSpeech));
}
/**
 * How far a short cluster's windows must lie, on average, from the nearest other cluster's centre
 * to stay a voice of its own, in spreads: the RMS distance of the other windows from their own
 * clusters' centres (how much one voice varies in this recording).
 */
const MIN_DISTINCT = 2.275;

/**
 * Tiny clusters merged into their nearest voice (by the mean distance of their windows' features
 * to its centre), unless they are long and distinct: the smallest first, centres and spread
 * measured again after each merge (a merged cluster's windows move its voice's centre), until
 * every cluster left is a voice. Runs on every window of the recording, whether the tree was
 * built on all of them or on a sample, so a long recording's stray clusters merge too.
 */
export function mergeTinyClusters(features: number[][], speechFrames: number[], assignment: number[]): number[] {
  const labels = [...assignment];
  const totalSpeech = speechFrames.reduce((a, b) => a + b, 0);
  for (;;) {
    const present = [...new Set(labels)];
    if (present.length < 2) break;
    const dims = features[0]!.length;
    const centres = new Map(present.map((c) => [c, new Array<number>(dims).fill(0)]));
    const windows = new Map(present.map((c) => [c, 0]));
    const speech = new Map(present.map((c) => [c, 0]));
    labels.forEach((c, w) => {
      windows.set(c, windows.get(c)! + 1);
      speech.set(c, speech.get(c)! + speechFrames[w]!);
      features[w]!.forEach((v, d) => (centres.get(c)![d]! += v));
    });
    for (const c of present) centres.get(c)!.forEach((_, d, centre) => (centre[d]! /= windows.get(c)!));
    /** The spread of a voice: windows' RMS distance to their own cluster's centre, over every cluster but `c`. */
    const spreadWithout = (c: number) => {
      let squares = 0;
      let n = 0;
      labels.forEach((l, w) => {
        if (l === c) return;
        squares += distance(features[w]!, centres.get(l)!) ** 2;
        n++;
      });
      return Math.sqrt(squares / Math.max(1, n)) || 1;
    };
    const nearestTo = (c: number) => {
      let best = { cluster: -1, distance: Infinity };
      for (const other of present) {
        if (other === c) continue;
        let sum = 0;
        labels.forEach((l, w) => l === c && (sum += distance(features[w]!, centres.get(other)!)));
        const mean = sum / windows.get(c)!;
        if (mean < best.distance) best = { cluster: other, distance: mean };
      }
      return best;
    };
    const candidates = present
      .filter((c) => speech.get(c)! < LONG_VOICE_FRAMES)
      .sort((a, b) => speech.get(a)! - speech.get(b)!)
      .map((c) => ({ c, ...nearestTo(c), unit: spreadWithout(c) }));
    const least = leastVoiceFrames(totalSpeech);
    const merge = candidates.find((x) => speech.get(x.c)! < least || x.distance / x.unit < MIN_DISTINCT);
    if (!merge) break;
    labels.forEach((l, w) => l === merge.c && (labels[w] = merge.cluster));
  }
  // Labels numbered 0… again, so the frames' votes count only clusters that are left.
  const renumber = new Map<number, number>();
  return labels.map((c) => renumber.get(c) ?? renumber.set(c, renumber.size).get(c)!);
}

/**
 * At most `max` speakers (the meeting's attendees, when known), applied after the tree and the
 * merges rather than by cutting the tree at `max`: silhouette over fewer cuts may fall below
 * MIN_SILHOUETTE and call a three-voice meeting one voice. While there are more, the cluster
 * with the least speech joins the cluster whose centre is nearest its windows. Labels numbered 0…
 */
export function capSpeakers(features: number[][], speechFrames: number[], assignment: number[], max: number, heard?: ReadonlySet<number>): number[] {
  const labels = [...assignment];
  const unheard = (c: number) => heard !== undefined && !heard.has(c);
  for (;;) {
    const present = [...new Set(labels)];
    if (present.length < 2 || (present.length <= Math.max(1, max) && !present.some(unheard))) break;
    const dims = features[0]!.length;
    const centres = new Map(present.map((c) => [c, new Array<number>(dims).fill(0)]));
    const windows = new Map(present.map((c) => [c, 0]));
    const speech = new Map(present.map((c) => [c, 0]));
    labels.forEach((c, w) => {
      windows.set(c, windows.get(c)! + 1);
      speech.set(c, speech.get(c)! + speechFrames[w]!);
      features[w]!.forEach((v, d) => (centres.get(c)![d]! += v));
    });
    for (const c of present) centres.get(c)!.forEach((_, d, centre) => (centre[d]! /= windows.get(c)!));
    const smallest = present.reduce((a, b) => (unheard(b) !== unheard(a) ? (unheard(b) ? b : a) : speech.get(b)! < speech.get(a)! ? b : a));
    let nearest = { cluster: -1, distance: Infinity };
    for (const other of present) {
      if (other === smallest || unheard(other)) continue;
      let sum = 0;
      labels.forEach((l, w) => l === smallest && (sum += distance(features[w]!, centres.get(other)!)));
      if (sum < nearest.distance) nearest = { cluster: other, distance: sum };
    }
    labels.forEach((l, w) => l === smallest && (labels[w] = nearest.cluster));
  }
  const renumber = new Map<number, number>();
  return labels.map((c) => renumber.get(c) ?? renumber.set(c, renumber.size).get(c)!);
}

/** Ward-linkage clustering; k (1..MAX_SPEAKERS) by mean silhouette, then raised while the next split parts two voices. */
function clusterAll(features: number[][], moments: Float64Array[]): number[] {
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
  while (k < maxK && splitsVoices(labelsAt(k), labelsAt(k + 1), moments)) k++;
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
function splitsVoices(before: number[], after: number[], moments: Float64Array[]): boolean {
  // The two clusters of `after` whose windows were one cluster of `before`.
  const parentOf = new Map<number, number>();
  after.forEach((c, i) => parentOf.set(c, before[i]!));
  const children = new Map<number, number[]>();
  for (const [child, parent] of parentOf) children.set(parent, [...(children.get(parent) ?? []), child]);
  const split = [...children.values()].find((cs) => cs.length === 2);
  if (!split) return false;
  const sides = split.map((c) => {
    const sum = new Float64Array(MOMENT_DIMS);
    after.forEach((label, i) => {
      if (label === c) for (let d = 0; d < MOMENT_DIMS; d++) sum[d]! += moments[i]![d]!;
    });
    return sum;
  });
  if (sides.some((side) => side[0]! < MIN_SPLIT_FRAMES)) return false;
  const whole = sides[0]!.map((v, d) => v + sides[1]![d]!);
  const gain = 0.5 * (whole[0]! * logDetCovariance(whole) - sides.reduce((sum, side) => sum + side[0]! * logDetCovariance(side), 0));
  return gain / whole[0]! >= MIN_VOICE_GAIN_PER_FRAME;
}

/**
 * Adds frames' voice coefficients (c1…) to `into`: their count, sums and pairwise products (upper
 * triangle, row by row): enough for their covariance, and summed over windows, that of a cluster's frames.
 */
function addMoments(into: Float64Array, frames: Float32Array[]): void {
  for (const frame of frames) {
    into[0]!++;
    let p = 1 + VOICE_DIMS;
    for (let i = 0; i < VOICE_DIMS; i++) {
      const a = frame[i + 1]!;
      into[1 + i]! += a;
      for (let j = i; j < VOICE_DIMS; j++) into[p++]! += a * frame[j + 1]!;
    }
  }
}

/** log |Σ| of the frames whose moments these are (the sample covariance, as ml-matrix's), by Cholesky. */
function logDetCovariance(moments: Float64Array): number {
  const n = moments[0]!;
  const sigma = new Matrix(VOICE_DIMS, VOICE_DIMS);
  let p = 1 + VOICE_DIMS;
  for (let i = 0; i < VOICE_DIMS; i++) {
    for (let j = i; j < VOICE_DIMS; j++) {
      const value = (moments[p++]! - (moments[1 + i]! * moments[1 + j]!) / n) / (n - 1);
      sigma.set(i, j, value);
      sigma.set(j, i, value);
    }
  }
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
