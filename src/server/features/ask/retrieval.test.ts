import { describe, expect, it } from 'vitest';
import { parseAnswer } from './llm-answer.ts';
import { createTopN, questionWords, reciprocalRankFusion } from './retrieval.ts';

describe("Ask's retrieval pieces", () => {
  it('reads a question as its content words: no stop words, no question verbs, never query syntax', () => {
    expect(questionWords('What did the group discuss about the "design goal" of the remote control?')).toEqual([
      'group',
      'design',
      'goal',
      'remote',
      'control',
    ]);
    expect(questionWords('price* OR NEAR(cost) -budget')).toEqual(['price', 'near', 'cost', 'budget']);
    // A question of stop words only keeps them: a search for something beats none.
    expect(questionWords('What is it?')).toEqual(['what', 'is', 'it']);
  });

  it('fuses rankings by reciprocal rank (k = 60): agreement wins, then rank', () => {
    expect(
      reciprocalRankFusion([
        ['a', 'b', 'c'],
        ['c', 'd'],
      ]),
    ).toEqual(['c', 'a', 'b', 'd']);
    expect(reciprocalRankFusion([['a', 'b'], []])).toEqual(['a', 'b']);
  });

  it('keeps only the best n offered, best first', () => {
    const top = createTopN<string>(2);
    for (const [item, score] of [
      ['x', 0.1],
      ['y', 0.9],
      ['z', 0.5],
      ['w', 0.2],
    ] as const)
      top.offer(item, score);
    expect(top.best()).toEqual(['y', 'z']);
  });

  it("reads the model's lines as sentences with their references", () => {
    expect(parseAnswer('- The launch slipped a week [S2].\n2. Priya tells the press on Friday [S3, s4]\nNo citation here.')).toEqual([
      { text: 'The launch slipped a week.', refs: ['S2'] },
      { text: 'Priya tells the press on Friday', refs: ['S3', 'S4'] },
      { text: 'No citation here.', refs: [] },
    ]);
    expect(parseAnswer('NO ANSWER')).toEqual([]);
  });
});
