import { describe, expect, it } from 'vitest';
import { toRecognizedSegment } from './sherpa-onnx-result.ts';

/** Results shaped as sherpa-onnx 1.13 prints them for each model family (see its documentation). */
describe('toRecognizedSegment', () => {
  it('rebuilds words from a TDT transducer’s tokens, with their start, duration and probability', () => {
    const segment = toRecognizedSegment(
      {
        text: " Well, I don't know.",
        tokens: [' Well', ',', ' I', ' don', "'", 't', ' know', '.'],
        timestamps: [0.32, 0.64, 0.72, 0.8, 0.88, 0.96, 1.2, 1.6],
        durations: [0.24, 0.08, 0.08, 0.08, 0.08, 0.16, 0.32, 0.08],
        ys_log_probs: [-0.01, -0.02, -0.05, -0.1, -0.1, -0.1, -0.7, -0.01],
      },
      10_000,
      12_000,
    )!;
    expect(segment.text).toBe("Well, I don't know.");
    expect(segment.words.map((w) => [w.text, w.startMs, w.endMs])).toEqual([
      ['Well,', 10_320, 10_720],
      ['I', 10_720, 10_800],
      ["don't", 10_800, 11_120],
      ['know.', 11_200, 11_680],
    ]);
    expect(segment.words[0]!.confidence).toBeCloseTo(Math.exp(-0.015), 5);
    expect(segment.words[3]!.confidence).toBeCloseTo(Math.exp(-0.355), 5);
    expect(segment.startMs).toBe(10_320);
    expect(segment.endMs).toBe(11_680);
    expect(segment.confidence).toBeCloseTo(segment.words.reduce((s, w) => s + w.confidence, 0) / 4, 10);
  });

  it('ends a word without durations at the next word, or shortly after its last token', () => {
    const segment = toRecognizedSegment(
      { text: ' GO FORWARD TEN METERS', tokens: [' GO', ' FOR', 'WARD', ' TEN', ' ME', 'TERS'], timestamps: [0, 0.3, 0.5, 1.0, 1.4, 1.6] },
      500,
      3_000,
    )!;
    expect(segment.words.map((w) => [w.text, w.startMs, w.endMs, w.confidence])).toEqual([
      ['GO', 500, 800, 1],
      ['FORWARD', 800, 1_500, 1],
      ['TEN', 1_500, 1_900, 1],
      ['METERS', 1_900, 2_700, 1],
    ]);
  });

  it('spreads whisper’s untimed words over the stretch of speech by their length', () => {
    const segment = toRecognizedSegment({ text: ' Ask not what your country can do.', tokens: [' Ask', ' not'], timestamps: [] }, 1_000, 4_500)!;
    expect(segment.words.map((w) => w.text)).toEqual(['Ask', 'not', 'what', 'your', 'country', 'can', 'do.']);
    expect(segment.words[0]!.startMs).toBe(1_000);
    expect(segment.words.at(-1)!.endMs).toBe(4_500);
    for (let i = 1; i < segment.words.length; i += 1) expect(segment.words[i]!.startMs).toBe(segment.words[i - 1]!.endMs);
    expect(segment.words[4]!.endMs - segment.words[4]!.startMs).toBeGreaterThan(segment.words[0]!.endMs - segment.words[0]!.startMs);
  });

  it('gives nothing for a stretch with no words', () => {
    expect(toRecognizedSegment({ text: '  ', tokens: [], timestamps: [] }, 0, 1_000)).toBeUndefined();
  });
});
