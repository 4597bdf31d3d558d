import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeToPcm16k, type Pcm16k } from '#server/lib/ffmpeg.ts';
import { fliteMeeting } from '#tests/support/flite-meeting.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';
import { diarizationErrorRate, parseRttm, turnsFromFrames } from './diarization-error-rate.ts';
import { diarizeFrames } from './cluster-speakers.ts';
import { attributeSegments } from './identify-speakers.ts';
import { FRAME_MS } from './speaker-features.ts';
import { createSpeechDetector } from './voice-activity.ts';

const AUDIO = sharedAudioDir();
const { detector } = createSpeechDetector();
const speakersIn = (labels: Int16Array) => new Set(turnsFromFrames(labels, FRAME_MS).map((t) => t.speaker)).size;
/** Clustering as the pipeline runs it: energy voice activity checked by Silero VAD. */
const clusterFrames = async (pcm: Pcm16k) => diarizeFrames(pcm, { speech: await detector.detect(pcm) });
const clip = (name: string) => decodeToPcm16k(path.join(AUDIO, name));
const reference = (name: string) => parseRttm(fs.readFileSync(path.join(AUDIO, name), 'utf8'));

describe('speaker identification by clustering, on real clips', () => {
  it('uses Silero VAD here (bundled, no download)', () => {
    expect(detector.name).toBe('silero');
  });

  it('finds the three speakers of leopard_3spk within a diarization error rate of 20 %', async () => {
    const labels = await clusterFrames(await clip('leopard_3spk.wav'));
    expect(speakersIn(labels)).toBe(3);
    expect(diarizationErrorRate(reference('leopard_3spk.rttm'), turnsFromFrames(labels, FRAME_MS)).der).toBeLessThan(0.2); // measured 9.6 %
  });

  it('finds the two speakers of the pyannote sample (fast turn-taking: a loose bound)', async () => {
    const labels = await clusterFrames(await clip('pyannote_sample_2spk_30s.wav'));
    expect(speakersIn(labels)).toBe(2);
    expect(diarizationErrorRate(reference('pyannote_sample_2spk_30s.rttm'), turnsFromFrames(labels, FRAME_MS)).der).toBeLessThan(0.6); // measured 46.5 %
  });

  it('keeps one reader as one speaker', async () => {
    for (const name of ['librivox_ss_5utt.wav', 'librispeech_mr_quilter.wav', 'goforward.wav', 'fw_left.wav']) {
      expect(speakersIn(await clusterFrames(await clip(name))), name).toBe(1);
    }
  });

  it('gives noise between turns (a rumble, a hum) to no speaker: three voices stay three speakers', { timeout: 20_000 }, async () => {
    const meeting = fliteMeeting({ withNoise: true });
    const labels = await clusterFrames(meeting.pcm);
    expect(speakersIn(labels)).toBe(3);
    for (const noise of meeting.noise) {
      const frames = labels.subarray(Math.ceil(noise.startMs / FRAME_MS), Math.floor(noise.endMs / FRAME_MS));
      expect(frames.filter((l) => l >= 0).length, `labelled frames in the noise at ${Math.round(noise.startMs)} ms`).toBe(0);
    }
    expect(diarizationErrorRate(meeting.turns, turnsFromFrames(labels, FRAME_MS)).der).toBeLessThan(0.1); // measured 4.7 % (16.8 % by energy alone)
  });

  it('labels nothing in silence, and splits a segment where the speaker changes between words', async () => {
    expect(speakersIn(await clusterFrames(Buffer.alloc(16_000 * 2 * 3)))).toBe(0);
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
