import fs from 'node:fs';
import path from 'node:path';
import Meyda from 'meyda';
import { describe, expect, it } from 'vitest';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';
import { COEFFICIENTS, FRAME, frameEnergy, HOP, SAMPLE_RATE, speechFrames, speechMfcc } from './speaker-features.ts';

/** A 16 kHz mono 16-bit WAV's samples (the shared clips are such files; their data chunk follows a 44-byte header). */
const wavPcm = (name: string) => fs.readFileSync(path.join(sharedAudioDir(), name)).subarray(44);

describe('speechMfcc', () => {
  it("gives Meyda's own MFCCs (Hamming window, 26 mel bands) for every speech frame of three voices, and none for the rest", () => {
    const frames = frameEnergy(wavPcm('leopard_3spk.wav'));
    const speech = speechFrames(frames.rms);
    const mfcc = speechMfcc(frames, speech);
    Meyda.bufferSize = FRAME;
    Meyda.sampleRate = SAMPLE_RATE;
    Meyda.numberOfMFCCCoefficients = COEFFICIENTS;
    Meyda.windowingFunction = 'hamming';
    let compared = 0;
    let worst = 0;
    speech.forEach((isSpeech, f) => {
      if (!isSpeech) return expect(Array.from(mfcc[f]!)).toEqual(new Array(COEFFICIENTS).fill(0));
      const meyda = Meyda.extract('mfcc', frames.samples.subarray(f * HOP, f * HOP + FRAME)) as unknown as number[];
      // Both round to 32-bit floats at the same steps; only the FFTs' own rounding differs (fft.js against Meyda's fftjs).
      meyda.forEach((value, k) => (worst = Math.max(worst, Math.abs(value - mfcc[f]![k]!) / Math.max(1, Math.abs(value)))));
      compared++;
    });
    expect(compared).toBeGreaterThan(500);
    expect(worst).toBeLessThan(1e-5);
  });
});
