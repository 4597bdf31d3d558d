import { describe, expect, it } from 'vitest';
import { findTranscriptMatches } from './transcript-search.ts';

const lines = [
  { id: 'a', text: 'The API migration is blocked. The api keys are late.' },
  { id: 'b', text: 'Nothing here.' },
  { id: 'c', text: 'Été: an (API) review, price $5.00?' },
];

describe('finding words in a transcript', () => {
  it('finds every occurrence in order, ignoring case, with where each one is in its line', () => {
    expect(findTranscriptMatches(lines, 'api')).toEqual([
      { segmentId: 'a', start: 4, end: 7 },
      { segmentId: 'a', start: 34, end: 37 },
      { segmentId: 'c', start: 9, end: 12 },
    ]);
    expect(findTranscriptMatches(lines, 'ÉTÉ')).toEqual([{ segmentId: 'c', start: 0, end: 3 }]);
  });

  it('reads the query as text, not as a pattern, and lets spaces stand for any white space', () => {
    expect(findTranscriptMatches(lines, '(API)')).toEqual([{ segmentId: 'c', start: 8, end: 13 }]);
    expect(findTranscriptMatches(lines, '$5.00?')).toEqual([{ segmentId: 'c', start: 28, end: 34 }]);
    expect(findTranscriptMatches(lines, '.*')).toEqual([]);
    expect(findTranscriptMatches(lines, '  api   migration ')).toEqual([{ segmentId: 'a', start: 4, end: 17 }]);
  });

  it('finds nothing for an empty or blank query', () => {
    expect(findTranscriptMatches(lines, '')).toEqual([]);
    expect(findTranscriptMatches(lines, '   ')).toEqual([]);
  });
});
