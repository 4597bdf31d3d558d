import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeToPcm16k, AudioDecodeError } from '#server/lib/ffmpeg.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';
import { wordErrorRate } from '../word-error-rate.ts';
import { createPocketsphinxEngine } from './pocketsphinx.ts';

const AUDIO = sharedAudioDir();
const engine = createPocketsphinxEngine();

describe('pocketsphinx engine on real speech', () => {
  it('is available on this machine', async () => {
    expect(await engine.checkAvailability()).toEqual({ available: true });
  });

  it('transcribes goforward.wav exactly, with word timings inside the clip', async () => {
    const pcm = await decodeToPcm16k(path.join(AUDIO, 'goforward.wav'));
    const segments = await engine.transcribe(pcm);
    expect(segments.map((s) => s.text).join(' ')).toBe('go forward ten meters');
    const words = segments.flatMap((s) => s.words);
    expect(words.map((w) => w.text)).toEqual(['go', 'forward', 'ten', 'meters']);
    for (const word of words) {
      expect(word.endMs).toBeGreaterThan(word.startMs);
      expect(word.endMs).toBeLessThanOrEqual(2786);
    }
  });

  it('gets read speech mostly right (word error rate under 30 %)', async () => {
    const pcm = await decodeToPcm16k(path.join(AUDIO, 'librispeech_mr_quilter.wav'));
    const text = (await engine.transcribe(pcm)).map((s) => s.text).join(' ');
    const wer = wordErrorRate('Mister Quilter is the apostle of the middle classes and we are glad to welcome his gospel.', text);
    expect(wer).toBeLessThan(0.3);
  });
});

describe('decodeToPcm16k', () => {
  it('refuses a file that is not audio with ffmpeg’s reason', async () => {
    await expect(decodeToPcm16k(path.resolve('package.json'))).rejects.toBeInstanceOf(AudioDecodeError);
  });
});
