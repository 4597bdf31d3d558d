import { describe, expect, it } from 'vitest';
import { hotwordsFromTokens, hotwordsFromWords, parseTokens } from './sherpa-hotwords.ts';

describe('sherpa-onnx hotwords', () => {
  const lower = parseTokens(['<blk> 0', '▁qu 1', 'il 2', 'ter 3', '▁an 4', 'ika 5', '▁ok 6', 'af 7', 'or 8', '▁ 9', 'q 10', 'u 11'].join('\n'));

  it('cut each term into the longest tokens of the model, a phrase per term', () => {
    expect(hotwordsFromTokens(['Quilter', 'Anika Okafor'], lower)).toBe('▁qu il ter/▁an ika ▁ok af or');
  });

  it('follow the case of the tokens and leave out a term the tokens cannot spell', () => {
    const upper = parseTokens(['▁QU 1', 'IL 2', 'TER 3', 'A 4'].join('\n'));
    expect(hotwordsFromTokens(['quilter', 'Zed'], upper)).toBe('▁QU IL TER');
    expect(hotwordsFromTokens(['Zed'], upper)).toBeUndefined();
  });

  it('are the words themselves with a BPE vocabulary, without the separators', () => {
    expect(hotwordsFromWords(['Anika Okafor', 'A/B'], true)).toBe('ANIKA OKAFOR/A B');
    expect(hotwordsFromWords([], false)).toBeUndefined();
  });
});
