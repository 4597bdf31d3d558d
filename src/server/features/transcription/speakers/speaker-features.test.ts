import path from 'node:path';
import Meyda from 'meyda';
import { describe, expect, it } from 'vitest';
import { decodeToPcm16k } from '#server/lib/ffmpeg.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';
import { COEFFICIENTS, FRAME, frameEnergy, HOP, SAMPLE_RATE, speechFrames, speechMfcc } from './speaker-features.ts';

describe('speechMfcc', () => {
  it("gives Meyda's own MFCCs (Hamming window, 26 mel bands) for every speech frame of three voices, and none for the rest", async () => {
    const frames = frameEnergy(await decodeToPcm16k(path.join(sharedAudioDir(), 'leopard_3spk.wav')));
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
