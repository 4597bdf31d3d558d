import { stemmer } from 'stemmer';
import { contentStems, shareFound } from '../content-words.ts';

/**
 * Whether a later decision is on the same subject as an earlier one, so it may supersede it. The
 * subject is a decision's content stems without the words that phrase a decision ("we decided",
 * "let's go with", "moves to") and without bare numbers (what changes between the two: "March 3"
 * becomes "March 10"). Overlap is the harmonic mean of each side's share found in the other (the
 * Dice coefficient), so a long decision does not match a short one on a word or two.
 *
 * Threshold measured on the hand-written pairs in supersede-match.test.ts: same-subject pairs
 * score 0.62–1.0 (one, "the beta opens in June" → "we push the beta back to September", shares
 * only "beta" and scores 0.33: missed); different-subject pairs score 0–0.44. 0.55 sits between.
 */
export const SAME_SUBJECT = 0.55;
/** One shared word ("database", "March") is never a subject. */
export const MIN_SHARED_STEMS = 2;

const DECISION_PHRASING = new Set(
  [
    'decide',
    'decided',
    'decision',
    'agree',
    'agreed',
    'final',
    'settle',
    'go',
    'goes',
    'going',
    'use',
    'move',
    'moves',
    'moving',
    'switch',
    'stay',
    'stays',
    'keep',
    'change',
    'push',
    'back',
    'raise',
    'instead',
  ].map((word) => stemmer(word)),
);
const NUMBER = /^\d+(?:[.,]\d+)?$/;

/** A decision's subject: its content stems less decision phrasing and numbers. */
export function subjectStems(text: string): Set<string> {
  return new Set([...contentStems(text)].filter((stem) => !DECISION_PHRASING.has(stem) && !NUMBER.test(stem)));
}

/** Dice overlap of two subjects (0..1), with how many stems they share. */
export function subjectOverlap(a: Set<string>, b: Set<string>): { overlap: number; shared: number } {
  const ab = shareFound(a, b);
  const ba = shareFound(b, a);
  const overlap = ab + ba === 0 ? 0 : (2 * ab * ba) / (ab + ba);
  return { overlap, shared: [...a].filter((stem) => b.has(stem)).length };
}

export const isSameSubject = (score: { overlap: number; shared: number }): boolean => score.overlap >= SAME_SUBJECT && score.shared >= MIN_SHARED_STEMS;

export type DecisionText = { id: string; text: string };
/** An earlier decision, with when its meeting started (newer wins a tie). */
export type EarlierDecision = DecisionText & { startedAt: string };
export type SupersedeSuggestion = { earlierId: string; laterId: string };

/**
 * For each later decision, the earlier decision it most likely replaces: the best overlap on the
 * same subject, the newer of equals (a chain of changes supersedes its latest step). One each, so
 * a decision that shares a subject with many is not buried in suggestions.
 */
export function findSupersedes(later: DecisionText[], earlier: EarlierDecision[]): SupersedeSuggestion[] {
  const candidates = earlier.map((decision) => ({ decision, stems: subjectStems(decision.text) }));
  const suggestions: SupersedeSuggestion[] = [];
  for (const decision of later) {
    const stems = subjectStems(decision.text);
    let best: { decision: EarlierDecision; overlap: number } | undefined;
    for (const candidate of candidates) {
      const score = subjectOverlap(stems, candidate.stems);
      if (!isSameSubject(score)) continue;
      const better = !best || score.overlap > best.overlap || (score.overlap === best.overlap && candidate.decision.startedAt > best.decision.startedAt);
      if (better) best = { decision: candidate.decision, overlap: score.overlap };
    }
    if (best) suggestions.push({ earlierId: best.decision.id, laterId: decision.id });
  }
  return suggestions;
}
