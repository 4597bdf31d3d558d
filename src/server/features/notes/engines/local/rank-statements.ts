import type { Bow } from 'wink-nlp';
import type { Sentence } from './split-sentences.ts';
import type { TermSpace } from './term-weights.ts';

/** A sentence that states something, and its rank: how close it is to what the whole meeting is about, and how well it reads as a note. */
export type Statement = { sentence: Sentence; bow: Bow; score: number };

/** Fewer words than this is an answer or an aside ("That's fine."), not a statement worth a note. */
const MIN_STATEMENT_WORDS = 6;
const MIN_STATEMENT_TERMS = 3;

/** Words that open a subordinate clause: without a comma to a main clause after it, the sentence is a fragment. */
const SUBORDINATORS: ReadonlySet<string> = new Set('if because cause when whereas although though since unless whether while as with like'.split(' '));

/** A complete thought: a clause with a verb, not a question, a fragment or an aside ("That's fine."). */
export function isStatement(sentence: Sentence): boolean {
  const { tokens } = sentence;
  if (sentence.isQuestion || sentence.wordCount < MIN_STATEMENT_WORDS || new Set(sentence.terms).size < MIN_STATEMENT_TERMS) return false;
  if (!tokens.some((t) => t.pos === 'VERB' || t.pos === 'AUX')) return false;
  return !SUBORDINATORS.has(tokens[0]?.lower ?? '') || tokens.some((t) => t.text === ',');
}

/**
 * How much a sentence's traits raise or lower its rank, set on the QMSum meetings: cue words for what a
 * meeting is for, "we" (the group's view rather than one person's), and run-on length.
 */
const WEIGHTS = { cue: 1.5, group: 1.2, long: 0.8 } as const;
const LONG_WORDS = 40;
/** Words that mark what a meeting is for: its agenda, its aims and what it settled (lemmas). */
const CUES: ReadonlySet<string> = new Set(
  'decide agree meeting agenda goal aim discuss present presentation conclusion requirement budget cost price project plan'.split(' '),
);

/** How well a sentence reads as a note, beside what it is about. */
function notability(sentence: Sentence): number {
  let weight = 1;
  if (sentence.tokens.some((t) => CUES.has(t.lemma))) weight *= WEIGHTS.cue;
  if (sentence.tokens.some((t) => t.lower === 'we')) weight *= WEIGHTS.group;
  if (sentence.wordCount > LONG_WORDS) weight *= WEIGHTS.long;
  return weight;
}

/**
 * The meeting's statements, most central first: centroid summarisation, where a sentence's score is
 * its similarity to the BM25 bag of the whole meeting's words, weighed by how well it reads as a note.
 */
export function rankStatements(sentences: Sentence[], space: TermSpace): Statement[] {
  const centroid = space.bowOf(sentences.flatMap((s) => s.terms));
  return sentences
    .filter(isStatement)
    .map((sentence) => {
      const bow = space.bowOf(sentence.terms);
      return { sentence, bow, score: space.cosine(bow, centroid) * notability(sentence) };
    })
    .sort((a, b) => b.score - a.score || a.sentence.index - b.sentence.index);
}

export type DiversityOptions = {
  /** At most this many statements. */
  limit: number;
  /** Stop before the words picked would pass this. */
  maxWords?: number;
  /** Two statements at least this similar say the same thing; the later-ranked one is skipped. */
  maxSimilarity: number;
};

/**
 * Maximal marginal relevance: walks the ranking and keeps each statement that is not too close to
 * one already kept, so the picks cover the meeting instead of repeating its most common point.
 */
export function pickDiverse(ranked: Statement[], space: TermSpace, options: DiversityOptions): Statement[] {
  const picked: Statement[] = [];
  let words = 0;
  for (const candidate of ranked) {
    if (picked.length >= options.limit) break;
    if (options.maxWords !== undefined && words + candidate.sentence.wordCount > options.maxWords) continue;
    if (picked.some((p) => space.cosine(p.bow, candidate.bow) >= options.maxSimilarity)) continue;
    picked.push(candidate);
    words += candidate.sentence.wordCount;
  }
  return picked;
}
