import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeToPcm16k } from '#server/lib/ffmpeg.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';
import { diarizationErrorRate, parseRttm, turnsFromFrames } from './diarization-error-rate.ts';
import { attributeSegments, diarizeFrames } from './identify-speakers.ts';
import { FRAME_MS } from './speaker-features.ts';

const AUDIO = sharedAudioDir();
const speakersIn = (labels: Int16Array) => new Set(turnsFromFrames(labels, FRAME_MS).map((t) => t.speaker)).size;

describe('speaker identification on real clips', () => {
  it('finds the three speakers of leopard_3spk within a diarization error rate of 20 %', async () => {
    const labels = diarizeFrames(await decodeToPcm16k(path.join(AUDIO, 'leopard_3spk.wav')));
    const reference = parseRttm(fs.readFileSync(path.join(AUDIO, 'leopard_3spk.rttm'), 'utf8'));
    expect(speakersIn(labels)).toBe(3);
    expect(diarizationErrorRate(reference, turnsFromFrames(labels, FRAME_MS)).der).toBeLessThan(0.2); // measured 9.6 %
  });

  it('finds the two speakers of the pyannote sample (fast turn-taking: a loose bound)', async () => {
    const labels = diarizeFrames(await decodeToPcm16k(path.join(AUDIO, 'pyannote_sample_2spk_30s.wav')));
    const reference = parseRttm(fs.readFileSync(path.join(AUDIO, 'pyannote_sample_2spk_30s.rttm'), 'utf8'));
    expect(speakersIn(labels)).toBe(2);
    expect(diarizationErrorRate(reference, turnsFromFrames(labels, FRAME_MS)).der).toBeLessThan(0.6); // measured 46.5 %
  });

  it('keeps one reader as one speaker', async () => {
    for (const clip of ['librivox_ss_5utt.wav', 'librispeech_mr_quilter.wav', 'goforward.wav']) {
      expect(speakersIn(diarizeFrames(await decodeToPcm16k(path.join(AUDIO, clip))))).toBe(1);
    }
  });

  it('labels nothing in silence, and splits a segment where the speaker changes between words', () => {
    expect(speakersIn(diarizeFrames(Buffer.alloc(16_000 * 2 * 3)))).toBe(0);
    const labels = new Int16Array(200).fill(-1);
    labels.fill(4, 0, 60); // frames are 16 ms: speaker "4" until 960 ms, then "9"
    labels.fill(9, 60, 200);
    const words = [
      { text: 'hello', startMs: 100, endMs: 500, confidence: 0.9 },
      { text: 'there', startMs: 1200, endMs: 1600, confidence: 0.8 },
      { text: 'friend', startMs: 1700, endMs: 2100, confidence: 0.7 },
    ];
    const result = attributeSegments([{ startMs: 100, endMs: 2100, text: 'hello there friend', words, confidence: 0.8 }], labels);
    expect(result.speakers.map((s) => s.label)).toEqual(['Speaker 1', 'Speaker 2']);
    expect(result.segments.map((s) => [s.speaker, s.text, s.startMs, s.endMs])).toEqual([
      [0, 'hello', 100, 500],
      [1, 'there friend', 1200, 2100],
    ]);
  });
});
