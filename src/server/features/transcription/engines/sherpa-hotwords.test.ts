import { describe, expect, it } from 'vitest';
import { bpeVocabFromTokens, hotwordsFromWords, parseTokens } from './sherpa-hotwords.ts';

describe('sherpa-onnx hotwords', () => {
  const lower = parseTokens(['<blk> 0', '▁qu 1', 'il 2', 'ter 3', '▁an 4', 'ika 5', '▁ok 6', 'af 7', 'or 8', '▁ 9', 'q 10', 'u 11'].join('\n'));

  it('are the words themselves, in the case of the tokens, without the separators', () => {
    expect(hotwordsFromWords(['Quilter', 'Anika Okafor'], lower)).toBe('quilter/anika okafor');
    const upper = parseTokens(['▁QU 1', 'IL 2', 'TER 3', '▁A 4', '▁B 5'].join('\n'));
    expect(hotwordsFromWords(['quilter', 'A/B'], upper)).toBe('QUILTER/A B');
    expect(hotwordsFromWords([], lower)).toBeUndefined();
  });

  it('leave out a term the tokens cannot spell, so the others still count', () => {
    // sherpa-onnx drops every hotword of a stream when one of them cannot be encoded.
    expect(hotwordsFromWords(['Zürich', 'Quilter', 'Okafor Zed'], lower)).toBe('quilter');
    expect(hotwordsFromWords(['Zed'], lower)).toBeUndefined();
  });

  it('make a sentencepiece vocabulary from tokens.txt: pieces in order, each scored below the one before, no special tokens', () => {
    expect(bpeVocabFromTokens(['<blk> 0', '<unk> 1', '▁the 2', 's 3', '▁qu 4'].join('\n'))).toBe('▁the\t0\ns\t-1\n▁qu\t-2\n');
  });
});
