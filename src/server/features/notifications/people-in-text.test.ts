import { describe, expect, it } from 'vitest';
import { findMentions, resolveOwner } from './people-in-text.ts';

const ada = { userId: 'u-ada', name: 'Ada Lovelace' };
const grace = { userId: 'u-grace', name: 'Grace Hopper' };
const adaB = { userId: 'u-ada-b', name: 'Ada Byron' };
const mono = { userId: 'u-mono', name: 'Cher' };

describe('mentions', () => {
  const segments = [
    { id: 's1', startMs: 0, text: 'Welcome. Adalovelace is not a name, nor is Ada alone.' },
    { id: 's2', startMs: 5_000, text: 'I spoke with ADA  lovelace yesterday about the budget.' },
    { id: 's3', startMs: 9_000, text: 'Grace Hoppers are birds? No: Grace Hopper, the admiral.' },
    { id: 's4', startMs: 12_000, text: 'Cher sang.' },
  ];
  it('finds a whole name as words, case and spacing aside, at its first line', () => {
    expect(findMentions(segments, [ada, grace, mono])).toEqual([
      { userId: 'u-ada', segmentId: 's2', startMs: 5_000, text: segments[1]!.text },
      { userId: 'u-grace', segmentId: 's3', startMs: 9_000, text: segments[2]!.text },
    ]);
  });
  it('never matches part of a word, a first name alone or a one-word name', () => {
    expect(findMentions([segments[0]!, segments[3]!], [ada, mono])).toEqual([]);
  });
});

describe('action item owners', () => {
  it('resolves a whole name or an unambiguous first name', () => {
    expect(resolveOwner('ada lovelace', [ada, grace])).toBe('u-ada');
    expect(resolveOwner('Grace', [ada, grace])).toBe('u-grace');
  });
  it('leaves an ambiguous, partial or missing owner unresolved', () => {
    expect(resolveOwner('Ada', [ada, adaB])).toBeUndefined();
    expect(resolveOwner('Lovelace', [ada])).toBeUndefined();
    expect(resolveOwner('Ada Smith', [ada])).toBeUndefined();
    expect(resolveOwner(null, [ada])).toBeUndefined();
    expect(resolveOwner('  ', [ada])).toBeUndefined();
  });
});
