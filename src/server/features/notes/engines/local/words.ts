import type { Token } from './speech-nlp.ts';

/**
 * A cleaned sentence as the words the action-item and decision rules match on. wink splits "I'll"
 * into "I" + "'ll" but now and then keeps a contraction whole ("I'm" after a comma); the rules see
 * both as the same two words, each pointing back at its token.
 */
export type Word = { w: string; token: number };

const CONTRACTION = /^(i|we|you|he|she|they|it|that|there|let)('ll|'m|'re|'s|'ve|'d)$/;

export function wordsOf(tokens: Token[]): Word[] {
  return tokens.flatMap((t, token): Word[] => {
    const lower = t.lower.replace(/’/g, "'");
    const whole = CONTRACTION.exec(lower);
    if (whole)
      return [
        { w: whole[1]!, token },
        { w: whole[2]!, token },
      ];
    return [{ w: lower, token }];
  });
}

/** A run of words to match: each step a set of words, some steps optional. */
export type Pattern = ReadonlyArray<{ choices: ReadonlySet<string>; optional: boolean }>;

/** A pattern written as steps of "a|b|c", optional steps ending in '?': ["i", "'ll|will", "just?"]. */
export function compilePattern(steps: ReadonlyArray<string>): Pattern {
  return steps.map((step) => {
    const optional = step.endsWith('?');
    return { choices: new Set((optional ? step.slice(0, -1) : step).split('|')), optional };
  });
}

export const compilePatterns = (patterns: ReadonlyArray<ReadonlyArray<string>>): Pattern[] => patterns.map(compilePattern);

/** Where `pattern` matches the words from `at`: the index just past the match, or -1. */
export function matchAt(words: Word[], at: number, pattern: Pattern): number {
  let i = at;
  for (const step of pattern) {
    if (i < words.length && step.choices.has(words[i]!.w)) i++;
    else if (!step.optional) return -1;
  }
  return i;
}

/** The first of `patterns` that matches at `at`, as the index past it; -1 when none does. */
export function matchAny(words: Word[], at: number, patterns: ReadonlyArray<Pattern>): number {
  for (const pattern of patterns) {
    const end = matchAt(words, at, pattern);
    if (end >= 0) return end;
  }
  return -1;
}
