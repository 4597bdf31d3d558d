import { describe, expect, it } from 'vitest';
import { parsePocketsphinxOutput } from './pocketsphinx-output.ts';

// Captured from Debian's pocketsphinx_continuous -time yes on jfk.wav (two utterances).
const OUTPUT = `and not
<s> 3.170 3.280 0.999600
and(2) 3.290 3.820 0.980491
<sil> 3.830 3.980 0.867867
not 3.990 4.300 0.732981
</s> 4.310 4.760 1.000000
like your brain
<s> 5.300 5.380 0.998900
like 5.390 5.600 0.101290
[NOISE] 5.600 5.610 0.5
your 5.610 5.850 0.768180
brain 6.070 6.540 0.233384
</s> 7.690 7.950 1.000000
`;

describe('parsePocketsphinxOutput', () => {
  it('turns each utterance into a segment with timed words, without markers or variant numbers', () => {
    const segments = parsePocketsphinxOutput(OUTPUT);
    expect(segments).toHaveLength(2);
    expect(segments[0]).toEqual({
      startMs: 3290,
      endMs: 4300,
      text: 'and not',
      words: [
        { text: 'and', startMs: 3290, endMs: 3820, confidence: 0.980491 },
        { text: 'not', startMs: 3990, endMs: 4300, confidence: 0.732981 },
      ],
      confidence: (0.980491 + 0.732981) / 2,
    });
    expect(segments[1]!.text).toBe('like your brain');
    expect(segments[1]!.startMs).toBe(5390);
  });

  it('gives no segments for silence', () => {
    expect(parsePocketsphinxOutput('\n<s> 0.000 0.100 1.0\n</s> 0.100 0.200 1.0\n')).toEqual([]);
  });
});
