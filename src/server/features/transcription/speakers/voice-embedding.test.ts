import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MATCH_THRESHOLDS } from '#server/features/voice-profiles/voice-profiles.service.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';
import { parseRttm } from './diarization-error-rate.ts';
import { pooledVoice, voiceEmbedding, voiceSimilarity } from './voice-embedding.ts';

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-voice-embedding-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** flite's `voice` saying `text`, as 16 kHz PCM, `db` quieter than flite makes it. */
function spoken(voice: string, text: string, db = 0): Buffer {
  const wav = path.join(scratch, `${voice}.wav`);
  execFileSync('flite', ['-voice', voice, '-t', text, '-o', wav]);
  return execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-i', wav, '-af', `volume=-${db}dB`, '-ac', '1', '-ar', '16000', '-f', 's16le', '-']);
}

/** 16 kHz PCM as another microphone hears it: through ffmpeg's audio `filter`. */
function through(pcm: Buffer, filter: string): Buffer {
  const raw = ['-f', 's16le', '-ar', '16000', '-ac', '1'];
  return execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', ...raw, '-i', 'pipe:0', '-af', filter, ...raw, 'pipe:1'], { input: pcm });
}

const whole = (pcm: Buffer) => [{ startMs: 0, endMs: pcm.length / 32 }];
const describeVoice = (pcm: Buffer) => {
  const embedding = voiceEmbedding(pcm, whole(pcm));
  expect(embedding).toBeDefined();
  return embedding!;
};
const { name } = MATCH_THRESHOLDS['built-in'];
const ENROLLED = 'good morning everyone let us review the budget for the next quarter and the plans for the launch';
const LATER = 'the release is planned for thursday morning after the tests please send me the report by friday';

describe('built-in voice comparison', () => {
  it('names the same voice at another level and in other words', () => {
    const enrolled = describeVoice(spoken('kal16', ENROLLED));
    const quieter = describeVoice(spoken('kal16', ENROLLED, 12));
    // Brought to one level first: 12 dB quieter is the same description but for rounding.
    expect(voiceSimilarity(enrolled, quieter)).toBeGreaterThan(0.99);
    expect(voiceSimilarity(enrolled, describeVoice(spoken('kal16', LATER, 12)))).toBeGreaterThanOrEqual(name);
  });

  it('does not name one flite voice after another', () => {
    const kal = describeVoice(spoken('kal16', ENROLLED));
    const slt = describeVoice(spoken('slt', LATER));
    const awb = describeVoice(spoken('awb', LATER));
    expect(voiceSimilarity(kal, slt)).toBeLessThan(name);
    expect(voiceSimilarity(kal, awb)).toBeLessThan(name);
    expect(voiceSimilarity(slt, awb)).toBeLessThan(name);
  });

  it('does not name one of two people on one microphone after the other when a later microphone cuts the bass', () => {
    const dir = sharedAudioDir();
    const wav = path.join(dir, 'pyannote_sample_2spk_30s.wav');
    const pcm = execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-i', wav, '-ac', '1', '-ar', '16000', '-f', 's16le', '-']);
    const turns = parseRttm(fs.readFileSync(path.join(dir, 'pyannote_sample_2spk_30s.rttm'), 'utf8'));
    const half = (who: string, second: boolean) => {
      const mine = turns.filter((t) => t.speaker === who);
      return second ? mine.slice(Math.ceil(mine.length / 2)) : mine.slice(0, Math.ceil(mine.length / 2));
    };
    const profile = voiceEmbedding(pcm, half('speaker90', false))!;
    // The other person's later words through a 150 Hz high-pass: closer to the first's profile than on the same microphone, still not named.
    const stranger = voiceEmbedding(through(pcm, 'highpass=f=150'), half('speaker91', true))!;
    expect(voiceSimilarity(profile, stranger)).toBeGreaterThan(voiceSimilarity(profile, voiceEmbedding(pcm, half('speaker91', true))!));
    expect(voiceSimilarity(profile, stranger)).toBeLessThan(name);
  });

  it('pools a profile of several meetings into the Gaussian of all of them', () => {
    const a = describeVoice(spoken('kal16', ENROLLED));
    const b = describeVoice(spoken('kal16', LATER));
    expect(pooledVoice([a])).toEqual(Array.from(a));
    const pooled = pooledVoice([a, b])!;
    // The means average; each spread holds its own and the distance between the two means.
    expect(pooled[0]).toBeCloseTo((a[0]! + b[0]!) / 2, 4);
    expect(pooled[12]).toBeGreaterThanOrEqual(Math.min(a[12]!, b[12]!));
    expect(voiceSimilarity(pooled, b)).toBeGreaterThanOrEqual(name);
    expect(pooledVoice([a, new Float32Array(3)])).toBeUndefined();
  });
});
