import { describe, expect, it } from 'vitest';
import { normalizeWords, wordErrorRate } from './word-error-rate.ts';

describe('wordErrorRate', () => {
  it('is 0 for the same words whatever the case and punctuation', () => {
    expect(wordErrorRate('Go forward, ten meters.', 'go forward ten meters')).toBe(0);
  });

  it('counts substitutions, deletions and insertions against the reference length', () => {
    expect(wordErrorRate('a b c d', 'a x c d')).toBe(0.25);
    expect(wordErrorRate('a b c d', 'a c d')).toBe(0.25);
    expect(wordErrorRate('a b c d', 'a b c d e f')).toBe(0.5);
  });

  it('handles empty texts', () => {
    expect(wordErrorRate('', '')).toBe(0);
    expect(wordErrorRate('', 'noise')).toBe(1);
    expect(wordErrorRate('something said', '')).toBe(1);
  });

  it('treats abbreviations and contractions as their spelled-out words', () => {
    expect(normalizeWords("Mr. Quilter, we're glad")).toEqual(['mister', 'quilter', 'we', 'are', 'glad']);
    expect(wordErrorRate('Mister Quilter', 'mr quilter')).toBe(0);
  });
});
