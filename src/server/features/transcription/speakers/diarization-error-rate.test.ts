import { describe, expect, it } from 'vitest';
import { diarizationErrorRate, parseRttm, turnsFromFrames } from './diarization-error-rate.ts';

const turn = (startMs: number, endMs: number, speaker: string) => ({ startMs, endMs, speaker });

describe('diarizationErrorRate', () => {
  it('is 0 for a perfect answer whatever the labels are called', () => {
    const reference = [turn(0, 1000, 'alice'), turn(1000, 2000, 'bob')];
    expect(diarizationErrorRate(reference, [turn(0, 1000, '7'), turn(1000, 2000, '3')]).der).toBe(0);
  });

  it('counts missed speech, false alarms and confusion against reference time', () => {
    const reference = [turn(0, 1000, 'a'), turn(1000, 2000, 'b')];
    const result = diarizationErrorRate(reference, [turn(0, 500, 'x'), turn(1000, 2000, 'x'), turn(2000, 2500, 'y')]);
    // a→? : 500 ms missed; b is x's best match… x covers a (500) and b (1000): x↔b, so a's 500 ms are confusion.
    expect(result.missed).toBe(500);
    expect(result.falseAlarm).toBe(500);
    expect(result.confusion).toBe(500);
    expect(result.der).toBeCloseTo(1500 / 2000);
  });

  it('gives everything to one speaker: the other speaker is all confusion', () => {
    const result = diarizationErrorRate([turn(0, 3000, 'a'), turn(3000, 4000, 'b')], [turn(0, 4000, 'x')]);
    expect(result.der).toBeCloseTo(0.25);
  });
});

describe('parseRttm and turnsFromFrames', () => {
  it('reads RTTM speaker lines', () => {
    expect(parseRttm('SPEAKER clip 1 1.70 2.20 <NA> <NA> spk1 <NA> <NA>\nnoise\n')).toEqual([turn(1700, 3900, 'spk1')]);
  });

  it('joins consecutive frames of one speaker into turns', () => {
    expect(turnsFromFrames(Int16Array.from([-1, 0, 0, 1, 1, -1, 0]), 10)).toEqual([turn(10, 30, '0'), turn(30, 50, '1'), turn(60, 70, '0')]);
  });
});
