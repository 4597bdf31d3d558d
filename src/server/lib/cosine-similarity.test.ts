import { describe, expect, it } from 'vitest';
import { cosineSimilarity } from './cosine-similarity.ts';

describe('cosine similarity of two vectors', () => {
  it('is 1 for the same direction, 0 at right angles, −1 opposite, whatever the lengths', () => {
    expect(cosineSimilarity([1, 2, 3], [2, 4, 6])).toBeCloseTo(1);
    expect(cosineSimilarity([1, 0], [0, 5])).toBe(0);
    expect(cosineSimilarity([1, 1], [-1, -1])).toBeCloseTo(-1);
  });

  it('is 0 for numbers of another kind (lengths differ) or an empty voice, never NaN', () => {
    expect(cosineSimilarity([1, 2], [1, 2, 3])).toBe(0);
    expect(cosineSimilarity([0, 0], [1, 2])).toBe(0);
  });
});
