import type { Bow } from 'wink-nlp';
// wink-nlp has no exports map: Node's ESM loader needs the file's extension.
import bm25Vectorizer from 'wink-nlp/utilities/bm25-vectorizer.js';
import type { Sentence } from './split-sentences.ts';

/**
 * How much each content word says about this meeting: wink's BM25 weights learnt with each sentence
 * as a document, so words said everywhere ("remote", "think") weigh less than the ones that mark a
 * part of the meeting. The engine compares sentences and stretches of the meeting through these.
 */
export type TermSpace = {
  /** The BM25 bag of words of any run of terms (a sentence, a window, the whole meeting). */
  bowOf: (terms: string[]) => Bow;
  cosine: (a: Bow, b: Bow) => number;
};

export function learnTermSpace(sentences: Sentence[]): TermSpace {
  const learnt = sentences.filter((s) => s.terms.length > 0);
  if (learnt.length === 0) return { bowOf: () => ({}), cosine: () => 0 };
  const vectorizer = bm25Vectorizer();
  for (const sentence of learnt) vectorizer.learn(sentence.terms);
  return {
    bowOf: (terms) => (terms.length === 0 ? {} : vectorizer.bowOf(terms)),
    cosine,
  };
}

/** Each bag's size and norm, worked out once: the whole meeting's bag is compared with every sentence. */
const shapes = new WeakMap<Bow, { size: number; norm: number }>();

function shapeOf(bow: Bow): { size: number; norm: number } {
  let shape = shapes.get(bow);
  if (!shape) {
    const weights = Object.values(bow);
    shape = { size: weights.length, norm: Math.sqrt(weights.reduce((sum, w) => sum + w * w, 0)) };
    shapes.set(bow, shape);
  }
  return shape;
}

/**
 * Cosine similarity of two bags. wink's own (utilities/similarity) copies both bags on every call;
 * the engine compares each sentence with the whole meeting's bag, so this one walks the smaller bag
 * and keeps each bag's norm.
 */
function cosine(a: Bow, b: Bow): number {
  const [shapeA, shapeB] = [shapeOf(a), shapeOf(b)];
  const [small, large] = shapeA.size <= shapeB.size ? [a, b] : [b, a];
  let dot = 0;
  for (const term in small) dot += small[term]! * (large[term] ?? 0);
  const norm = shapeA.norm * shapeB.norm;
  return norm === 0 ? 0 : dot / norm;
}
