import type { Sentence } from './split-sentences.ts';
import type { TermSpace } from './term-weights.ts';
import { compilePatterns, matchAny, wordsOf, type Word } from './words.ts';

/**
 * Decisions: what the meeting settled ("we decided…", "we agreed…", "let's go with…", "we're going
 * with…", "the decision is…"). Proposals ("maybe we should…", "what about…", "we could go with…"),
 * questions and negations ("we haven't decided") are not: the patterns leave them out, or a hedge
 * said before the decision does.
 */
const DECIDED = compilePatterns([
  ['we', "have|'ve?", 'finally|just|all|now|already|both?', 'decided|agreed|chosen|settled|concluded'],
  ['we', 'all|both?', 'agree', 'on|that|to'],
  ['we', "'re|are", 'all|both?', 'agreed'],
  ['so', 'we', "'ll|will", 'use|have|make|take|keep'],
  ['it|that', "'s|is|was", 'decided|agreed|settled'],
  ['let', "'s|us", 'go|stick|settle', 'with|for|on'],
  ['we', "'re|are", 'going', 'with|for'],
  ['we', "'ll|will", 'go|stick', 'with|for'],
  ['the|our', 'final?', 'decision|conclusion', 'is|was'],
  ['decision|decided|agreed', ':'],
]);
/** Said before the decision, these make it a proposal or a condition: "maybe let's go with…", "if we agree…". */
const HEDGES: ReadonlySet<string> = new Set(['maybe', 'perhaps', 'might', 'could', 'probably', 'possibly', 'if', 'whether', 'suggest', 'propose', 'unless']);
const NEAR_DUPLICATE = 0.6;

function decisionStart(words: Word[]): number {
  for (let at = 0; at < words.length; at++) if (matchAny(words, at, DECIDED) >= 0) return at;
  return -1;
}

function isDecision(sentence: Sentence): boolean {
  // "We all agree on that." settles something said before it; alone it tells the reader nothing.
  if (sentence.isQuestion || new Set(sentence.terms).size < 2) return false;
  const words = wordsOf(sentence.tokens);
  const at = decisionStart(words);
  if (at < 0) return false;
  // "So we'll have to…" is a duty, not a choice made.
  const end = matchAny(words, at, DECIDED);
  if (words[end - 1]?.w === 'have' && words[end]?.w === 'to') return false;
  return !words.slice(0, at).some((w) => HEDGES.has(w.w));
}

/** The sentences that state a decision, each decision once: of two in one turn, the one that says more. */
export function decisionSentences(sentences: Sentence[], space: TermSpace): Sentence[] {
  const kept: Array<{ sentence: Sentence; bow: ReturnType<TermSpace['bowOf']> }> = [];
  for (const sentence of sentences) {
    if (!isDecision(sentence)) continue;
    const bow = space.bowOf(sentence.terms);
    if (kept.some((k) => space.cosine(k.bow, bow) >= NEAR_DUPLICATE)) continue;
    const sameTurn = kept.findIndex((k) => k.sentence.segmentId === sentence.segmentId);
    if (sameTurn >= 0) {
      if (new Set(sentence.terms).size > new Set(kept[sameTurn]!.sentence.terms).size) kept[sameTurn] = { sentence, bow };
      continue;
    }
    kept.push({ sentence, bow });
  }
  return kept.map((k) => k.sentence);
}
