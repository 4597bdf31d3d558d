import type { Sentence } from './split-sentences.ts';
import type { TermSpace } from './term-weights.ts';

/** A topic's stretch of the transcript: segment indexes, inclusive. */
export type SegmentSpan = { first: number; last: number };

/**
 * TextTiling (Hearst, 1997) over the meeting's content words: the words are cut into equal runs,
 * each gap between runs is scored by how much the words before it share with the words after it,
 * and the gaps at the bottom of the deepest valleys become topic boundaries. Turns are too uneven
 * in length (a "Yeah." beside a five-minute presentation) to be the units themselves.
 */
const TUNING = {
  /** Content words per run: about twenty seconds of talk. */
  runTerms: 20,
  /** How much more a gap counts where a speaker announced the next subject ("Next, the pricing."). */
  announcedWeight: 2,
  /** The shortest run a short meeting is cut into. */
  minRunTerms: 4,
  /** Runs compared on each side of a gap: about two minutes of talk. */
  windowRuns: 6,
  /** A topic spans at least this many runs. */
  minTopicRuns: 6,
  /** At most one topic for this much of the meeting (set on the QMSum meetings, whose topics last 5–30 minutes). */
  msPerTopic: 12 * 60_000,
  /** In a meeting shorter than two of those, one topic for this much of it. */
  shortTopicMs: 2 * 60_000,
} as const;

type Run = { terms: string[]; firstSegment: number; firstSentence: number };

/**
 * Runs of `size` content words. A run starts afresh where a speaker moves the meeting on ("Next, the
 * launch party."), so the boundary can fall on the words that announce it.
 */
function cutRuns(sentences: Sentence[], size: number): Run[] {
  const runs: Run[] = [];
  for (const sentence of sentences) {
    const announces = movesOn(sentence) && (runs.at(-1)?.terms.length ?? 0) >= size / 2;
    sentence.terms.forEach((term, i) => {
      const run = runs.at(-1);
      if (run && run.terms.length < size && !(i === 0 && announces)) run.terms.push(term);
      else runs.push({ terms: [term], firstSegment: sentence.segmentIndex, firstSentence: sentence.index });
    });
  }
  return runs;
}

/** Words that open a move to the next subject: "Next, the pricing.", "Moving on to…", "Last, the press." */
const MOVES_ON =
  /^(?:(?:okay|ok|so|and|right|good|great)[,.]?\s+)*(?:next|last(?:ly)?|finally|moving on|(?:the )?next (?:item|point|topic|thing)|let['’]s (?:talk|move|turn|go) (?:about|on|to))\b/i;
const movesOn = (sentence: Sentence) => MOVES_ON.test(sentence.said.trim());

/** How much the words before gap g (between run g-1 and run g) share with the words after it. */
function gapScores(runs: Run[], space: TermSpace): number[] {
  const scores: number[] = [];
  for (let g = 1; g < runs.length; g++) {
    const before = runs.slice(Math.max(0, g - TUNING.windowRuns), g).flatMap((r) => r.terms);
    const after = runs.slice(g, g + TUNING.windowRuns).flatMap((r) => r.terms);
    scores.push(space.cosine(space.bowOf(before), space.bowOf(after)));
  }
  // Smoothed over neighbouring gaps, so one odd run does not open a valley.
  return scores.map((_, i) => {
    const near = scores.slice(Math.max(0, i - 1), i + 2);
    return near.reduce((a, b) => a + b, 0) / near.length;
  });
}

/** Depth of each gap's valley: how far the score climbs on both sides before it falls again. */
function depthScores(scores: number[]): number[] {
  return scores.map((score, i) => {
    let left = score;
    for (let j = i - 1; j >= 0 && scores[j]! >= left; j--) left = scores[j]!;
    let right = score;
    for (let j = i + 1; j < scores.length && scores[j]! >= right; j++) right = scores[j]!;
    return left - score + (right - score);
  });
}

/**
 * The deepest valleys that stand out (deeper than the mean), far enough apart, at most `limit`; a
 * gap where a speaker announced the next subject counts twice, and stands out even when shallow.
 */
function pickBoundaries(depths: number[], limit: number, announced: readonly number[]): number[] {
  const mean = depths.reduce((a, b) => a + b, 0) / Math.max(1, depths.length);
  const gaps = depths
    .map((depth, i) => ({ depth: announced.includes(i + 1) ? depth * TUNING.announcedWeight + mean : depth, run: i + 1 }))
    .filter((g) => g.depth > mean && g.run >= TUNING.minTopicRuns && g.run <= depths.length + 1 - TUNING.minTopicRuns)
    .sort((a, b) => b.depth - a.depth || a.run - b.run);
  const picked: number[] = [];
  for (const gap of gaps) {
    if (picked.length >= limit) break;
    if (picked.every((run) => Math.abs(run - gap.run) >= TUNING.minTopicRuns)) picked.push(gap.run);
  }
  return picked.sort((a, b) => a - b);
}

/** The meeting cut where its subject changes: contiguous spans covering every segment, in order. */
export function findTopicSpans(sentences: Sentence[], segmentCount: number, meetingMs: number, space: TermSpace): SegmentSpan[] {
  if (segmentCount === 0) return [];
  // A topic starts at a segment: one segment, however long, is one topic.
  if (segmentCount === 1) return [{ first: 0, last: 0 }];
  // A short meeting has few words: shorter runs, so its turns of subject still show (twenty words in an hour-long one).
  const terms = sentences.reduce((n, s) => n + s.terms.length, 0);
  const runs = cutRuns(sentences, Math.max(TUNING.minRunTerms, Math.min(TUNING.runTerms, Math.floor(terms / (4 * TUNING.minTopicRuns)))));
  // A short meeting may still move through a few subjects: up to one boundary for every shortTopicMs, three at most.
  const limit = Math.max(Math.floor(meetingMs / TUNING.msPerTopic), Math.min(3, Math.floor(meetingMs / TUNING.shortTopicMs)));
  const announced = runs.flatMap((run, i) => (i > 0 && movesOn(sentences[run.firstSentence]!) ? [i] : []));
  const boundaries = runs.length >= 2 * TUNING.minTopicRuns ? pickBoundaries(depthScores(gapScores(runs, space)), limit, announced) : [];
  const starts = [...new Set([0, ...boundaries.map((run) => runs[run]!.firstSegment)])].sort((a, b) => a - b);
  return starts.map((first, i) => ({ first, last: (starts[i + 1] ?? segmentCount) - 1 }));
}
