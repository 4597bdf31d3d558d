import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '#server/config.ts';
import type { TranscriptionEngine } from '#server/features/transcription/engines/engine.ts';
import { createPocketsphinxEngine } from '#server/features/transcription/engines/pocketsphinx.ts';
import { selectTranscriptionEngine } from '#server/features/transcription/engines/select-engine.ts';
import { postProcessSegments } from '#server/features/transcription/post-process.ts';
import { diarizationErrorRate, parseRttm, turnsFromFrames } from '#server/features/transcription/speakers/diarization-error-rate.ts';
import { attributeSegments, diarizeFrames } from '#server/features/transcription/speakers/identify-speakers.ts';
import { FRAME_MS } from '#server/features/transcription/speakers/speaker-features.ts';
import { wordErrorRate } from '#server/features/transcription/word-error-rate.ts';
import { decodeToPcm16k, pcmDurationMs } from '#server/lib/ffmpeg.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';
import type { Row } from './lib/report.ts';

/**
 * Transcription quality and speed on the real clips of ../shared/data/audio, per available engine:
 * word error rate against the reference text, diarization error rate against RTTM turns (speakers
 * found otherwise), real-time factor of the bare engine, and the whole pipeline's time (decode,
 * recognise, identify speakers, post-process) as a ratio to the bare engine on the same audio.
 */
type Clip = { file: string; reference_text: string | null; speakers: number; rttm?: string };

async function engines(): Promise<TranscriptionEngine[]> {
  const list: TranscriptionEngine[] = [createPocketsphinxEngine()];
  // Whatever TRANSCRIBE_ENGINE / the installed models make the server use, when it is not pocketsphinx.
  const configured = selectTranscriptionEngine(loadConfig({ ...process.env, DATA_DIR: process.env.DATA_DIR ?? 'data' }));
  if (configured.name !== 'pocketsphinx') list.push(configured);
  const available: TranscriptionEngine[] = [];
  for (const engine of list) if ((await engine.checkAvailability()).available) available.push(engine);
  return available;
}

export async function benchTranscription(): Promise<{ title: string; rows: Row[] }[]> {
  const dir = sharedAudioDir();
  const clips = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Clip[];
  const sections: { title: string; rows: Row[] }[] = [];
  for (const engine of await engines()) {
    const rows: Row[] = [];
    let audioMs = 0;
    let engineMs = 0;
    let pipelineMs = 0;
    for (const clip of clips) {
      const file = path.join(dir, clip.file);
      const started = performance.now();
      const pcm = await decodeToPcm16k(file);
      const decodeMs = performance.now() - started;
      const engineStart = performance.now();
      const segments = await engine.transcribe(pcm);
      const bareMs = performance.now() - engineStart;
      const speakerStart = performance.now();
      const labels = diarizeFrames(pcm);
      const identified = attributeSegments(segments, labels);
      postProcessSegments(identified.segments, { punctuation: true, fillerWordRemoval: false });
      const afterMs = performance.now() - speakerStart;
      const durationMs = pcmDurationMs(pcm);
      audioMs += durationMs;
      engineMs += bareMs;
      pipelineMs += decodeMs + bareMs + afterMs;

      const text = segments.map((s) => s.text).join(' ');
      const wer = clip.reference_text ? `WER ${(wordErrorRate(clip.reference_text, text) * 100).toFixed(1)} %` : 'WER n/a (no reference)';
      const hypothesis = turnsFromFrames(labels, FRAME_MS);
      const found = new Set(hypothesis.map((t) => t.speaker)).size;
      const speakers = clip.rttm
        ? `DER ${(diarizationErrorRate(parseRttm(fs.readFileSync(path.join(dir, clip.rttm), 'utf8')), hypothesis).der * 100).toFixed(1)} %, ${found}/${clip.speakers} speakers`
        : `${found}/${clip.speakers} speakers`;
      rows.push({
        name: `${clip.file} (${(durationMs / 1000).toFixed(1)} s)`,
        value: `${wer}, ${speakers}, RTF ${(bareMs / durationMs).toFixed(2)}, pipeline ×${((decodeMs + bareMs + afterMs) / bareMs).toFixed(2)}`,
      });
    }
    rows.push({
      name: 'all clips',
      value: `RTF ${(engineMs / audioMs).toFixed(2)} (engine), pipeline ×${(pipelineMs / engineMs).toFixed(2)} of the bare engine (goal ≤ 1.15)`,
    });
    sections.push({ title: `Transcription: ${engine.name} on ../shared/data/audio`, rows });
  }
  return sections;
}
