import { describe, expect, it } from 'vitest';
import { correctLine, correctSegments, editDistance, soundKey } from './vocabulary-corrections.ts';

const TERMS = ['Quilter', 'Anika Okafor', 'Okafor', 'Parley', 'Kubernetes', 'Jira', 'gRPC'];

describe('correctLine', () => {
  it('corrects a term heard as two words, keeping what was heard', () => {
    expect(correctLine('mister quilt her is the apostle', TERMS)).toEqual({
      text: 'mister Quilter is the apostle',
      corrections: [{ position: 7, original: 'quilt her', corrected: 'Quilter' }],
    });
  });

  it('corrects a longer term heard the same way though spelled further off', () => {
    expect(correctLine('mr coulter is the apostle', TERMS).text).toBe('mr Quilter is the apostle');
  });

  it('prefers the longer term when both match as closely', () => {
    expect(correctLine('ask anica okay for about it', TERMS)).toEqual({
      text: 'ask Anika Okafor about it',
      corrections: [{ position: 4, original: 'anica okay for', corrected: 'Anika Okafor' }],
    });
  });

  it('corrects a one-letter slip and writes a name with its capitals', () => {
    expect(correctLine('we moved the parlay notes', TERMS).text).toBe('we moved the Parley notes');
    expect(correctLine('we use parley daily', TERMS).corrections).toEqual([{ position: 7, original: 'parley', corrected: 'Parley' }]);
  });

  it('leaves words that only look or sound a little alike', () => {
    for (const line of ['barely there', 'party time', 'a pearl on the table', 'the quilt is warm', 'open a jeera ticket', 'mark the date'])
      expect(correctLine(line, TERMS).corrections).toEqual([]);
  });

  it('never takes in a function word around the term', () => {
    expect(correctLine('the parley', TERMS).corrections).toEqual([{ position: 4, original: 'parley', corrected: 'Parley' }]);
  });

  it('never corrects across punctuation', () => {
    expect(correctLine('a quilt. Her name', TERMS).corrections).toEqual([]);
  });

  it('never matches short terms fuzzily, and leaves a lone lower-case term as written', () => {
    expect(correctLine('the grpc call and the jura file', ['gRPC', 'Jira']).text).toBe('the gRPC call and the jura file');
    expect(correctLine('Kick off the retro', ['retro']).corrections).toEqual([]);
  });

  it('keeps positions right with several corrections in a line', () => {
    const { text, corrections } = correctLine('parlay and quilt her, then parlay', TERMS);
    expect(text).toBe('Parley and Quilter, then Parley');
    for (const c of corrections) expect(text.slice(c.position, c.position + c.corrected.length)).toBe(c.corrected);
    expect(corrections.map((c) => c.original)).toEqual(['parlay', 'quilt her', 'parlay']);
  });

  it('changes nothing without terms', () => {
    expect(correctLine('quilt her', [])).toEqual({ text: 'quilt her', corrections: [] });
  });
});

describe('correctSegments', () => {
  it('corrects each line and keeps its other fields', () => {
    expect(correctSegments([{ text: 'the parlay app', startMs: 5 }], ['Parley'])).toEqual([
      { text: 'the Parley app', startMs: 5, corrections: [{ position: 4, original: 'parlay', corrected: 'Parley' }] },
    ]);
  });
});

describe('the keys', () => {
  it('hear a run of words as one', () => {
    expect(soundKey('quilt her')).toBe(soundKey('Quilter'));
    expect(soundKey('okay for')).toBe(soundKey('Okafor'));
    expect(soundKey('phone')).toBe(soundKey('fone'));
  });

  it('count edits', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });
});
