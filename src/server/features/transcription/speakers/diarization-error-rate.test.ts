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
    // x covers a for 500 ms and b for 1000 ms, so x↔b; a's 500 ms under x are confusion.
    expect(result.missed).toBe(500);
    expect(result.falseAlarm).toBe(500);
    expect(result.confusion).toBe(500);
    expect(result.der).toBeCloseTo(1500 / 2000);
  });

  it('gives everything to one speaker: the other speaker is all confusion', () => {
    const result = diarizationErrorRate([turn(0, 3000, 'a'), turn(3000, 4000, 'b')], [turn(0, 4000, 'x')]);
    expect(result.der).toBeCloseTo(0.25);
  });

  it('is 1 when nothing is found, and 0 with no reference speech', () => {
    expect(diarizationErrorRate([turn(0, 2000, 'a')], []).der).toBe(1);
    expect(diarizationErrorRate([], []).der).toBe(0);
  });

  it('counts overlapping reference speech once per speaker', () => {
    // a and b talk at once for a second; one hypothesis speaker can cover only one of them.
    const result = diarizationErrorRate([turn(0, 2000, 'a'), turn(1000, 3000, 'b')], [turn(0, 2000, 'x'), turn(2000, 3000, 'y')]);
    expect(result.referenceMs).toBe(4000);
    expect(result.missed).toBe(1000);
    expect(result.confusion).toBe(0);
  });

  it('maps many speakers optimally (a greedy match would pair them wrongly)', () => {
    // Ten reference speakers, ten hypothesis speakers named in reverse, each turn a second.
    const reference = Array.from({ length: 10 }, (_, i) => turn(i * 1000, (i + 1) * 1000, `ref${i}`));
    const hypothesis = reference.map((t, i) => ({ ...t, speaker: `hyp${9 - i}` }));
    expect(diarizationErrorRate(reference, hypothesis).der).toBe(0);
    // h0 overlaps a for 600 ms and b for 1000 ms; h1 overlaps only b. Giving h0 its best match b
    // matches 1000 ms; the optimum h0↔a, h1↔b matches 1600 ms and leaves no confusion.
    const result = diarizationErrorRate([turn(0, 1000, 'a'), turn(1000, 2000, 'b')], [turn(400, 2000, 'h0'), turn(1000, 2000, 'h1')]);
    expect(result.confusion).toBe(0);
  });

  it('leaves the collar around reference boundaries unscored', () => {
    const reference = [turn(0, 2000, 'a'), turn(2000, 4000, 'b')];
    // The hypothesis changes speaker 200 ms late: 200 ms of confusion without a collar, none with 0.25 s.
    const hypothesis = [turn(0, 2200, 'x'), turn(2200, 4000, 'y')];
    expect(diarizationErrorRate(reference, hypothesis).confusion).toBe(200);
    const collared = diarizationErrorRate(reference, hypothesis, { collarSeconds: 0.25 });
    expect(collared.der).toBe(0);
    // Scored: 4 s less 250 ms after 0, 500 ms around 2 s and 250 ms before 4 s.
    expect(collared.referenceMs).toBe(3000);
  });
});

describe('parseRttm and turnsFromFrames', () => {
  it('reads RTTM speaker lines and skips other line types', () => {
    expect(parseRttm('SPKR-INFO clip 1 <NA> <NA> <NA> unknown spk1 <NA>\nSPEAKER clip 1 1.70 2.20 <NA> <NA> spk1 <NA> <NA>\n\n')).toEqual([
      turn(1700, 3900, 'spk1'),
    ]);
  });

  it('refuses a malformed speaker line, naming it', () => {
    expect(() => parseRttm('SPEAKER clip 1 1.70 2.20 <NA> <NA> spk1\nSPEAKER clip 1 abc 2 <NA> <NA> spk2')).toThrow(/RTTM line 2/);
  });

  it('joins consecutive frames of one speaker into turns', () => {
    expect(turnsFromFrames(Int16Array.from([-1, 0, 0, 1, 1, -1, 0]), 10)).toEqual([turn(10, 30, '0'), turn(30, 50, '1'), turn(60, 70, '0')]);
  });
});
