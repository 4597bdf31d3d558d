import { describe, expect, it } from 'vitest';
import { scoreSentiment, sentimentLabel } from './sentiment.ts';

describe('scoreSentiment', () => {
  it('reads the mood of a turn from its words', () => {
    expect(sentimentLabel(scoreSentiment('Great work everyone, I love how this turned out. Thanks!'))).toBe('positive');
    expect(sentimentLabel(scoreSentiment('The migration is blocked and the outage was a terrible mess.'))).toBe('negative');
    expect(sentimentLabel(scoreSentiment('The meeting is on Tuesday at ten in room four.'))).toBe('neutral');
  });

  it('stays within -1..1 and is 0 for no words', () => {
    expect(scoreSentiment('')).toBe(0);
    expect(scoreSentiment('awesome awesome awesome superb outstanding')).toBeLessThanOrEqual(1);
    expect(scoreSentiment('horrible catastrophic disaster awful')).toBeGreaterThanOrEqual(-1);
  });
});
